//! Perft from the start position against `data/othello/perft.txt`, whose convention (a pass
//! takes a ply, a finished game is a leaf counting 1) is that of `duel_othello::perft`.

use duel_core::Game;
use duel_othello::perft::{perft, perft_fast, perft_fast_divide};
use duel_othello::Othello;

fn check_to(max_depth: u32, reference_to: u32) {
    for (depth, leaves) in crate::common::perft_table() {
        if depth > max_depth {
            break;
        }
        let start = Othello::start();
        assert_eq!(
            perft_fast(&start, depth),
            leaves,
            "fast perft, depth {depth}"
        );
        if depth <= reference_to {
            let mut pos = start.clone();
            assert_eq!(
                perft(&mut pos, depth),
                leaves,
                "reference perft, depth {depth}"
            );
            assert_eq!(pos, start, "perft must leave the position as it found it");
        }
    }
}

#[test]
fn perft_to_depth_9() {
    check_to(9, 8);
}

#[ignore = "slow: depth 11 (212 million leaves)"]
#[test]
fn perft_to_depth_11() {
    check_to(11, 10);
}

/// The generic perft counts finished games as 0, not 1 (Edax's convention): the same as the
/// table until the first games end at depth 10, then the number the table's header quotes.
#[test]
fn generic_perft_agrees_before_games_end() {
    let table = crate::common::perft_table();
    for &(depth, leaves) in table.iter().take_while(|(d, _)| *d <= 8) {
        assert_eq!(duel_core::perft(&mut Othello::start(), depth), leaves);
    }
}

#[ignore = "slow: depth 10 through the generic perft"]
#[test]
fn generic_perft_counts_finished_games_as_zero() {
    let table = crate::common::perft_table();
    assert_eq!(
        duel_core::perft(&mut Othello::start(), 9),
        table[8].1,
        "depth 9"
    );
    let edax_depth_10 = 24_571_056;
    assert_eq!(duel_core::perft(&mut Othello::start(), 10), edax_depth_10);
    assert!(table[9].1 > edax_depth_10);
}

#[test]
fn divide_sums_to_perft() {
    let start = Othello::start();
    let parts = perft_fast_divide(&start, 6);
    assert_eq!(parts.len(), 4);
    // The start position is symmetric: each first move leads to the same count.
    assert!(parts.iter().all(|(_, n)| *n == parts[0].1));
    assert_eq!(
        parts.iter().map(|(_, n)| n).sum::<u64>(),
        perft_fast(&start, 6)
    );
}

/// Positions near the end of games, where passes and early finishes are common: the fast
/// counter against the reference one.
#[test]
fn fast_perft_matches_reference_near_the_end() {
    let mut rng = duel_core::SplitMix64::new(11);
    let mut moves = Vec::new();
    let mut positions: Vec<Othello> = crate::common::ffo("ffo-1-39.txt", 1, 20)
        .into_iter()
        .map(|c| c.pos)
        .collect();
    for _ in 0..40 {
        let mut pos = Othello::start();
        let stop = 8 + rng.below(7) as u32;
        while pos.empties().count_ones() > stop && !pos.is_over() {
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        positions.push(pos);
    }
    let mut passes = 0;
    for pos in positions {
        let mut copy = pos.clone();
        assert_eq!(
            perft_fast(&pos, 5),
            perft(&mut copy, 5),
            "{}",
            pos.to_text()
        );
        passes += count_passes(&mut copy, 5);
    }
    assert!(passes > 0, "the sample should reach passes");
}

fn count_passes(pos: &mut Othello, depth: u32) -> u64 {
    if depth == 0 {
        return 0;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut n = 0;
    for mv in moves {
        n += u64::from(mv.is_pass());
        pos.play(mv);
        n += count_passes(pos, depth - 1);
        pos.undo(mv);
    }
    n
}
