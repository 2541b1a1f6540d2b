//! Solves Pons' test sets and prints the mean time and nodes per position, checking every score
//! against the file.
//!
//! ```text
//! cargo run -p duel-connect4 --release --example solve_sets -- [--weak] [--reset]
//!     [--every N] [--limit N] [--repeat N] data/connect4/Test_L2_R2 [more files...]
//! ```
//!
//! The table is kept from one position to the next, as Pons' own benchmark does; `--reset`
//! empties it before each position instead (the reset time is not counted). `--repeat N` runs
//! each file N times from an empty table and reports the fastest run, which filters out the
//! noise of a shared machine. `C4_TABLE_BITS` sets the table size (default 22: 2^22 slots).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use duel_connect4::{Connect4, Solver};
use duel_core::Game;

fn main() -> ExitCode {
    let mut weak = false;
    let mut reset = false;
    let mut every = 1usize;
    let mut limit = usize::MAX;
    let mut repeat = 1usize;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |name: &str| -> usize {
            args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
                eprintln!("{name} needs a positive number");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--weak" => weak = true,
            "--reset" => reset = true,
            "--every" => every = number("--every").max(1),
            "--limit" => limit = number("--limit"),
            "--repeat" => repeat = number("--repeat").max(1),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!(
            "usage: solve_sets [--weak] [--reset] [--every N] [--limit N] [--repeat N] FILE..."
        );
        return ExitCode::from(2);
    }

    let bits = std::env::var("C4_TABLE_BITS")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(duel_connect4::DEFAULT_TABLE_BITS);
    let mut solver = Solver::with_table_bits(bits);
    let mut failed = false;
    for file in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(2);
            }
        };
        let mut best: Option<(u64, u64, u64, Duration)> = None;
        for _ in 0..repeat {
            solver.reset();
            let run = run_file(&mut solver, file, &text, weak, reset, every, limit);
            if !matches!(best, Some(b) if b.3 <= run.3) {
                best = Some(run);
            }
        }
        let (count, wrong, nodes, time) = best.expect("at least one run");
        failed |= wrong > 0;
        let n = count.max(1) as f64;
        println!(
            "{file}: {count} positions, mean {:.1} us, {:.1} nodes, {wrong} wrong",
            time.as_secs_f64() * 1e6 / n,
            nodes as f64 / n
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Solves the positions of one file; returns (positions, wrong scores, nodes, solving time).
fn run_file(
    solver: &mut Solver,
    file: &str,
    text: &str,
    weak: bool,
    reset: bool,
    every: usize,
    limit: usize,
) -> (u64, u64, u64, Duration) {
    let (mut count, mut wrong, mut nodes, mut time) = (0u64, 0u64, 0u64, Duration::ZERO);
    for line in text.lines().step_by(every).take(limit) {
        let Some((moves, score)) = line.split_once(' ') else {
            continue;
        };
        let pos = Connect4::from_text(moves).expect("test set position");
        let expected: i32 = score.trim().parse().expect("test set score");
        if reset {
            solver.reset();
        }
        let before = solver.nodes();
        let start = Instant::now();
        let got = solver.solve(&pos, weak);
        time += start.elapsed();
        nodes += solver.nodes() - before;
        count += 1;
        let want = if weak { expected.signum() } else { expected };
        if got != want {
            wrong += 1;
            eprintln!("{file}: '{moves}' expected {want}, got {got}");
        }
    }
    (count, wrong, nodes, time)
}
