//! The perft table of data/xiangqi, shared by the tests.

#![allow(dead_code)]

use duel_core::Game;
use duel_xiangqi::Xiangqi;

/// One position of data/xiangqi/perft.txt: its name (`P1`), FEN and (depth, leaves) rows.
pub struct Entry {
    pub name: String,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Every position of the table: `## Pn ...` names it, `fen ...` gives it, `depth N count ...`
/// rows follow; `#` lines are comments.
pub fn perft_table() -> Vec<Entry> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../data/xiangqi/perft.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out: Vec<Entry> = Vec::new();
    for line in text.lines() {
        if let Some(number) = line.strip_prefix("## P") {
            out.push(Entry {
                name: format!("P{}", number.split_whitespace().next().unwrap()),
                fen: String::new(),
                counts: Vec::new(),
            });
        } else if let Some(fen) = line.strip_prefix("fen ") {
            out.last_mut().unwrap().fen = fen.trim().to_string();
        } else if let Some(row) = line.strip_prefix("depth ") {
            let mut words = row.split_whitespace();
            let depth = words.next().unwrap().parse().unwrap();
            let leaves = words.next().unwrap().parse().unwrap();
            out.last_mut().unwrap().counts.push((depth, leaves));
        }
    }
    assert_eq!(out.len(), 5, "five positions in the table");
    out
}

/// The position of `fen`, which must be valid.
pub fn pos(fen: &str) -> Xiangqi {
    Xiangqi::from_text(fen).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays the ICCS moves of `line` (space-separated) on `pos`.
pub fn play(pos: &mut Xiangqi, line: &str) {
    for text in line.split_whitespace() {
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.to_text()));
        pos.play(mv);
    }
}
