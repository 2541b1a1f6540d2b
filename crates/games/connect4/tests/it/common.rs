//! The test sets in `data/connect4/`, shared by the integration tests.

#![allow(dead_code)]

use duel_connect4::Connect4;
use duel_core::Game;

/// The path of a file in `data/connect4/`.
pub fn data_path(name: &str) -> String {
    format!(
        "{}/../../../data/connect4/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// One line of a test set: the moves text, the position and its Pons score.
pub struct Case {
    pub moves: String,
    pub pos: Connect4,
    pub score: i32,
}

/// Every line of test set `name` (`Test_L3_R1`, ...).
pub fn load(name: &str) -> Vec<Case> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (moves, score) = line
                .split_once(' ')
                .unwrap_or_else(|| panic!("bad line '{line}'"));
            let pos = Connect4::from_text(moves).unwrap_or_else(|e| panic!("{name}: {e}"));
            let score = score
                .trim()
                .parse()
                .unwrap_or_else(|e| panic!("bad score '{line}': {e}"));
            Case {
                moves: moves.to_string(),
                pos,
                score,
            }
        })
        .collect()
}

/// A plain negamax over the `Game` trait, with no Connect Four knowledge: the exact value with
/// the distance to the end in plies, to check the solver's scores and their conversion.
pub fn plain_value(pos: &mut Connect4, alpha: i32, beta: i32, ply: i32) -> i32 {
    use duel_core::{Outcome, Score};
    match pos.outcome() {
        Some(Outcome::Loss) => return Score::loss_in(ply).0,
        Some(Outcome::Win) => return Score::win_in(ply).0,
        Some(Outcome::Draw) => return 0,
        None => {}
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut alpha = alpha;
    let mut best = -Score::INF.0;
    for mv in moves {
        pos.play(mv);
        let v = -plain_value(pos, -beta, -alpha, ply + 1);
        pos.undo(mv);
        if v > best {
            best = v;
        }
        if v > alpha {
            alpha = v;
        }
        if alpha >= beta {
            break;
        }
    }
    best
}
