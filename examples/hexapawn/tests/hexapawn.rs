//! Hexapawn, a game duel's crates do not know, gets every tool duel has: its rules pass the
//! conformance kit, the exact algorithms of `compare` agree, `solve` matches a plain
//! recursive minimax written here apart from duel's searches, and the engine search finds
//! the same value.

use duel_core::solve::SolveLimits;
use duel_core::{conformance, Game, Outcome, SplitMix64};
use duel_engine::{Algorithm, GameSession, Limits, Reference, Session};
use hexapawn::{Hexapawn, Material};

/// Win (+1) or loss (-1) for the side to move with perfect play: every game of Hexapawn ends
/// with a winner, within 12 plies, so plain recursion reaches every end.
fn plain_value(pos: &Hexapawn) -> i32 {
    if let Some(o) = pos.outcome() {
        return if o == Outcome::Win { 1 } else { -1 };
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            -plain_value(&child)
        })
        .max()
        .unwrap()
}

/// Positions from random play: the start and every position of a few seeded games.
fn positions() -> Vec<Hexapawn> {
    let mut rng = SplitMix64::new(7);
    let mut out = vec![Hexapawn::start()];
    for _ in 0..12 {
        let mut pos = Hexapawn::start();
        let mut moves = Vec::new();
        loop {
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.next() as usize % moves.len()]);
            out.push(pos.clone());
        }
    }
    out
}

fn session_at(pos: &Hexapawn) -> GameSession<Hexapawn, Material> {
    let mut s = GameSession::new(Material);
    s.set_position(&pos.to_text(), &[]).unwrap();
    s
}

#[test]
fn the_rules_hold_together() {
    conformance::check_game(&Hexapawn::start(), 200, 1).unwrap();
    conformance::check_view(&Hexapawn::start(), 50, 2).unwrap();
}

/// Gardner's result: Black, the second player, wins.
#[test]
fn black_wins_and_solve_agrees_with_plain_minimax() {
    assert_eq!(plain_value(&Hexapawn::start()), -1);
    for pos in positions().iter().filter(|p| p.outcome().is_none()) {
        let s = session_at(pos);
        let solution = s.solve(&SolveLimits::default(), &mut |_| {}).unwrap();
        let plain = plain_value(pos);
        assert_eq!(solution.value.is_win(), plain == 1, "{}", pos.to_text());
        assert_eq!(solution.value.is_loss(), plain == -1, "{}", pos.to_text());
        for m in &solution.moves {
            let mut child = pos.clone();
            child.play(child.parse_move(&m.mv).unwrap());
            assert_eq!(
                m.value.is_win(),
                plain_value(&child) == -1,
                "{} {}",
                pos.to_text(),
                m.mv
            );
        }
    }
}

/// Every exact row of `compare` gives minimax's value, at every depth to the end of the game.
#[test]
fn compare_agrees_at_every_depth() {
    for pos in positions().iter().filter(|p| p.outcome().is_none()) {
        let s = session_at(pos);
        for depth in 1..=8 {
            let rows = s.compare(depth, &Algorithm::ALL).unwrap();
            let minimax = rows[0].report.value;
            for row in rows.iter().filter(|r| r.algorithm.is_exact()) {
                assert_eq!(
                    row.report.value,
                    minimax,
                    "{} at depth {depth} in {}",
                    row.algorithm.name(),
                    pos.to_text()
                );
            }
        }
    }
}

/// The engine search, deep enough, finds the solved value; the tree of a reference search is
/// recorded move by move.
#[test]
fn the_engine_search_and_the_tree() {
    let mut s = session_at(&Hexapawn::start());
    let r = s.search(&Limits::depth(12), &mut |_| {}).unwrap();
    assert!(r.value.is_loss(), "{}", r.value);
    let (report, tree) = s.tree(Reference::Minimax, 2, 10_000).unwrap();
    assert_eq!(tree.children.len(), s.legal_moves().len());
    assert_eq!(
        report.stats.nodes,
        1 + 3
            + tree
                .children
                .iter()
                .map(|c| c.children.len())
                .sum::<usize>() as u64
    );
}
