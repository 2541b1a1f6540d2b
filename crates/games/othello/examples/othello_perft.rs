//! Othello perft from the start position (or a given position) with the fast bulk-counting
//! counter, printing leaves, time and leaves per second for each depth.
//!
//! ```text
//! cargo run --release -p duel-othello --example othello_perft -- 11 [POSITION]
//! ```
//!
//! Counts follow `data/othello/perft.txt`: a pass takes a ply and a finished game counts 1 as
//! a leaf wherever it ends.

use std::time::Instant;

use duel_core::Game;
use duel_othello::{perft::perft_fast, Othello};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(10);
    let rest: Vec<String> = args.collect();
    let pos = if rest.is_empty() {
        Othello::start()
    } else {
        match Othello::from_text(&rest.join(" ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    };
    println!(
        "{:>5} {:>14} {:>10} {:>14}",
        "depth", "leaves", "seconds", "leaves/s"
    );
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft_fast(&pos, d);
        let secs = t.elapsed().as_secs_f64();
        println!("{d:>5} {n:>14} {secs:>10.3} {:>14.0}", n as f64 / secs);
    }
}
