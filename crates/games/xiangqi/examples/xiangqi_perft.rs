//! Times perft on the bare rules: `cargo run --release -p duel-xiangqi --example xiangqi_perft -- 5 [FEN]`.

use std::time::Instant;

use duel_core::Game;
use duel_xiangqi::Xiangqi;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen: Vec<String> = args.collect();
    let pos = match Xiangqi::from_text(&fen.join(" ")) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let n = pos.board().clone().perft(depth);
    let s = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {n} in {s:.2} s, {:.1} M leaves/s",
        n as f64 / s / 1e6
    );
}
