//! Perft against data/xiangqi/perft.txt (Fairy-Stockfish's and sjaakii's counts): the shallow
//! counts here, the deep ones behind `#[ignore]`.

use duel_core::{perft, GameInfo};

use crate::common::{perft_table, pos};

/// Counts up to this many leaves run with the fast tests (a few milliseconds each).
const SHALLOW: u64 = 1_500_000;

/// Checks every count of the table between `min` (excluded) and `max`; returns how many.
fn check(min: u64, max: u64) -> usize {
    let mut checked = 0;
    for entry in perft_table() {
        let p = pos(&entry.fen);
        for &(depth, leaves) in &entry.counts {
            if leaves > min && leaves <= max {
                assert_eq!(p.perft(depth), leaves, "{} depth {depth}", entry.name);
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn every_position_shallow() {
    assert!(check(0, SHALLOW) >= 15);
}

/// The game's own moves (with the history rules, which cannot end a game within seven plies
/// of a position set up from text) count as the bare rules do.
#[test]
fn the_game_counts_as_the_bare_rules() {
    for entry in perft_table() {
        let mut p = pos(&entry.fen);
        for &(depth, leaves) in entry.counts.iter().filter(|c| c.0 <= 3) {
            assert_eq!(perft(&mut p, depth), leaves, "{} depth {depth}", entry.name);
        }
    }
}

#[test]
#[ignore = "seconds: the start to depth 5 (133,312,995) and the other deep counts"]
fn deep_counts() {
    assert!(check(SHALLOW, 200_000_000) >= 5);
}

#[test]
#[ignore = "a minute or more: the start to depth 6, published only"]
fn start_depth_6() {
    assert!(check(200_000_000, u64::MAX) >= 1);
}
