//! Positions the evaluation tests share.

use duel_chess::Chess;
use duel_core::{Game, SplitMix64};

/// The positions of data/chess (perft.txt and wac.epd), each followed by the positions along a
/// seeded random game from it: openings, middlegames, endgames, promotions and checks.
pub fn positions() -> Vec<Chess> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../data/chess/");
    let perft = std::fs::read_to_string(format!("{root}perft.txt")).unwrap();
    let wac = std::fs::read_to_string(format!("{root}wac.epd")).unwrap();
    let mut fens: Vec<String> = perft
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect();
    fens.extend(wac.lines().filter(|l| !l.trim().is_empty()).map(|l| {
        let f: Vec<&str> = l.split_whitespace().take(4).collect();
        format!("{} 0 1", f.join(" "))
    }));
    let mut rng = SplitMix64::new(42);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for fen in &fens {
        let mut pos = Chess::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        out.push(Chess::from_text(fen).unwrap());
        for _ in 0..30 {
            if pos.outcome().is_some() {
                break;
            }
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
            out.push(Chess::from_text(&pos.to_text()).unwrap());
        }
    }
    assert!(out.len() > 5000, "{}", out.len());
    out
}

/// The PGN of `moves` from `start` with these notes, tags, result and closing comment.
pub fn pgn(
    start: &duel_chess::Chess,
    moves: &[cozy_chess::Move],
    notes: &[String],
    tags: &[(&str, &str)],
    result: Option<&str>,
    termination: Option<&str>,
) -> String {
    duel_chess::pgn(
        start,
        moves,
        &duel_core::RecordInfo {
            notes,
            tags,
            result,
            termination,
            ..duel_core::RecordInfo::default()
        },
    )
}
