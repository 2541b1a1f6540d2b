//! The perft tables of data/chess (perft.txt, chess960-perft.txt): `FEN;D1 n1;D2 n2;...`.

use duel_chess::{perft, Chess};
use duel_core::Game;

/// (FEN, [(depth, leaves)]) from a table's text.
pub fn table(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').unwrap();
                    (d[1..].parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// Checks every entry of the table with more than `min_leaves` and at most `max_leaves`.
pub fn check(text: &str, max_leaves: u64, min_leaves: u64) {
    let mut checked = 0;
    for (fen, counts) in table(text) {
        let pos = Chess::from_text(&fen).unwrap();
        for (d, n) in counts {
            if n <= max_leaves && n > min_leaves {
                assert_eq!(perft(pos.board(), d), n, "{fen} depth {d}");
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}
