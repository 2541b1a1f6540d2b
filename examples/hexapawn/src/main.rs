//! Hexapawn through duel's engine: the board, the solve, the algorithms side by side, the
//! engine's move and the tree alpha-beta explores, all from crates that do not know the game.

use duel_core::solve::SolveLimits;
use duel_engine::{Algorithm, GameSession, Limits, Reference, Session};
use hexapawn::Material;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut s = GameSession::<hexapawn::Hexapawn, _>::new(Material);
    print!("{}", s.diagram());

    let solution = s.solve(&SolveLimits::default(), &mut |_| {})?;
    println!(
        "solve: {} for {} ({})",
        solution.value,
        s.side_name(s.side_to_move()),
        solution.method
    );
    for m in &solution.moves {
        println!("  {} {}", m.mv, m.value);
    }

    let depth = 6;
    println!("compare, depth {depth}:");
    for row in s.compare(depth, &Algorithm::ALL)? {
        let r = &row.report;
        println!(
            "  {:<15} value {:>6}  best {:<5} nodes {}",
            row.algorithm.name(),
            r.value.to_string(),
            r.best.as_deref().unwrap_or("-"),
            r.stats.nodes
        );
    }

    let r = s.search(&Limits::depth(12), &mut |_| {})?;
    println!(
        "engine search: {} (value {}, pv {})",
        r.best.as_deref().unwrap_or("-"),
        r.value,
        r.pv.join(" ")
    );
    s.play(r.best.as_deref().unwrap_or_default())?;

    let (report, tree) = s.tree(Reference::AlphaBetaSoft, 3, 10_000)?;
    println!(
        "tree of alphabeta-soft to depth 3 after it: {} children at the root, value {}, {} nodes",
        tree.children.len(),
        report.value,
        report.stats.nodes
    );
    Ok(())
}
