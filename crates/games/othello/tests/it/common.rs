//! The data files in `data/othello/`, shared by the integration tests.

#![allow(dead_code)]

use duel_core::Game;
use duel_othello::{Move, Othello};

/// The path of a file in `data/othello/`.
pub fn data_path(name: &str) -> String {
    format!(
        "{}/../../../data/othello/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The lines of a data file that are not comments or blank.
pub fn data_lines(name: &str) -> Vec<String> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// One FFO position: its number, the position, the exact score for the side to move and every
/// best move.
pub struct Ffo {
    pub id: u32,
    pub pos: Othello,
    pub score: i32,
    pub best: Vec<Move>,
}

/// The FFO positions numbered `first..=last` from `file`.
pub fn ffo(file: &str, first: u32, last: u32) -> Vec<Ffo> {
    let cases: Vec<Ffo> = data_lines(file)
        .iter()
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 5, "bad FFO line '{line}'");
            let best: Vec<Move> = f[4]
                .split(',')
                .map(|m| Move::parse(m).unwrap_or_else(|| panic!("bad move in '{line}'")))
                .collect();
            Ffo {
                id: f[0].parse().expect("number"),
                pos: Othello::from_text(&format!("{} {}", f[1], f[2]))
                    .unwrap_or_else(|e| panic!("{e}")),
                score: f[3].parse().expect("score"),
                best,
            }
        })
        .filter(|c| (first..=last).contains(&c.id))
        .collect();
    assert_eq!(
        cases.len() as u32,
        last - first + 1,
        "{file}: missing positions"
    );
    cases
}

/// The perft table: (depth, leaves).
pub fn perft_table() -> Vec<(u32, u64)> {
    data_lines("perft.txt")
        .iter()
        .map(|l| {
            let (d, n) = l.split_once(' ').expect("depth leaves");
            (d.parse().unwrap(), n.trim().parse().unwrap())
        })
        .collect()
}
