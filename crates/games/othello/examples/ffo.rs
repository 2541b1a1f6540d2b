//! Solves FFO endgame positions exactly with one thread and prints, per position, the score,
//! the move, the nodes and the time, checking each against the file; then the totals.
//!
//! ```text
//! cargo run --release -p duel-othello --example ffo -- data/othello/ffo-40-59.txt [FIRST-LAST]
//! ```
//!
//! `OTHELLO_TT_BITS` sets the table size (default 21: 24 × 2^21 bytes, 48 MiB);
//! `OTHELLO_ESTIMATE=rough` sorts with the rough built-in estimate instead of the pattern
//! evaluator; `OTHELLO_GOAL=outcome` proves only who wins (win/loss/draw solving: the score
//! is then a bound of its sign, checked by its sign, and the move is not checked);
//! `OTHELLO_THREADS=N` shares the root's moves between N threads. The table
//! is cleared before each position so each time stands alone.

use std::process::ExitCode;
use std::time::Instant;

use duel_core::solve::SolveGoal;
use duel_core::Game;

use duel_othello::solver::RoughEstimate;
use duel_othello::{Estimate, Move, Othello, Pattern, Solver};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: ffo FILE [FIRST-LAST]");
        return ExitCode::from(2);
    };
    let range = args.get(1).map(|r| {
        let (a, b) = r.split_once('-').unwrap_or((r, r));
        (
            a.parse::<u32>().unwrap_or(0),
            b.parse::<u32>().unwrap_or(u32::MAX),
        )
    });
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bits = std::env::var("OTHELLO_TT_BITS")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(duel_othello::solver::DEFAULT_TT_BITS);
    // OTHELLO_ESTIMATE=rough sorts moves far from the end with the rough built-in estimate
    // instead of the pattern evaluator, for comparison. Each is its own `Solver` type, as in
    // `duel solve` (no dynamic dispatch).
    let goal = match std::env::var("OTHELLO_GOAL").as_deref() {
        Ok("outcome") => SolveGoal::Outcome,
        _ => SolveGoal::Exact,
    };
    let failed = match std::env::var("OTHELLO_ESTIMATE").as_deref() {
        Ok("rough") => run(
            Solver::with_estimate(bits, RoughEstimate),
            &text,
            range,
            goal,
        ),
        _ => run(
            Solver::with_estimate(bits, Pattern::default()),
            &text,
            range,
            goal,
        ),
    };
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Solves the positions of `text` in `range`, prints a line per position and the totals;
/// true when a score or move disagrees with the file.
fn run<E: Estimate + Clone>(
    mut solver: Solver<E>,
    text: &str,
    range: Option<(u32, u32)>,
    goal: SolveGoal,
) -> bool {
    let threads = std::env::var("OTHELLO_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    solver.set_threads(threads);
    let (mut total_nodes, mut total_time, mut failed) = (0u64, 0f64, false);
    println!(
        "{:>3} {:>3} {:>5} {:>5} {:>4} {:>14} {:>9} {:>8}",
        "#", "emp", "score", "want", "move", "nodes", "seconds", "Mn/s"
    );
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let id: u32 = f[0].parse().expect("position number");
        if let Some((a, b)) = range {
            if id < a || id > b {
                continue;
            }
        }
        let pos = Othello::from_text(&format!("{} {}", f[1], f[2])).expect("FFO position");
        let want: i32 = f[3].parse().expect("score");
        let best: Vec<Move> = f[4].split(',').filter_map(Move::parse).collect();
        solver.clear();
        let t = Instant::now();
        let s = solver
            .solve_goal(&pos, goal, &Default::default(), &mut |_| {})
            .expect("no limits");
        let secs = t.elapsed().as_secs_f64();
        let mv = s.best_move.expect("FFO positions are not finished");
        let ok = match goal {
            SolveGoal::Exact => s.score == want && best.contains(&mv),
            SolveGoal::Outcome => s.score.signum() == want.signum(),
        };
        failed |= !ok;
        total_nodes += s.nodes;
        total_time += secs;
        println!(
            "{id:>3} {:>3} {:>+5} {:>+5} {:>4} {:>14} {:>9.3} {:>8.2}{}",
            pos.empties().count_ones(),
            s.score,
            want,
            mv.to_string(),
            s.nodes,
            secs,
            s.nodes as f64 / secs / 1e6,
            if ok { "" } else { "  WRONG" }
        );
    }
    println!(
        "total {total_nodes} nodes, {total_time:.3} s, {:.2} Mn/s",
        total_nodes as f64 / total_time / 1e6
    );
    failed
}
