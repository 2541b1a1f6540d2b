//! The pattern evaluator with its committed weights: the file, symmetry, bad files, the start
//! position and agreement with exact scores.

use duel_core::{Evaluator, Game, SplitMix64};
use duel_othello::pattern;
use duel_othello::pattern_file::{self, PatternFileError};
use duel_othello::{Estimate, Othello, Pattern};

fn committed() -> Vec<u8> {
    let path = format!("{}/weights/pattern.bin", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn committed_weights_load_and_round_trip() {
    let bytes = committed();
    assert!(bytes.len() <= 2 << 20, "{} bytes", bytes.len());
    let pat = Pattern::from_bytes(&bytes).expect("committed weights load");
    assert_eq!(pat.to_bytes(), bytes);
    assert_eq!(pat.weights(), Pattern::default().weights());
    assert!(pat.weights().iter().any(|&w| w != 0), "weights are fitted");
}

/// Positions from random games, at every stage.
fn random_positions(n: usize, seed: u64) -> Vec<Othello> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        let mut pos = Othello::start();
        let stop = 1 + rng.below(58) as u32;
        while pos.outcome().is_none() && pos.ply() < stop {
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        if pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

/// The evaluation reads every pattern in all eight orientations, so it is invariant by
/// construction; this checks that the eight orientations really are the board's symmetries
/// and are all read. That each class's fast index reads the squares it claims is checked
/// square by square in the unit test `fast_indices_match_square_lists`.
#[test]
fn evaluation_is_invariant_under_the_eight_symmetries() {
    let pat = Pattern::default();
    for pos in random_positions(3000, 5) {
        let (p, o) = (pos.player(), pos.opponent());
        let v = pat.evaluate(&pos);
        for g in 0..8 {
            let img = Othello::from_bitboards(
                pattern::orient(p, g),
                pattern::orient(o, g),
                pos.side_to_move(),
            )
            .expect("an image of a position is a position");
            assert_eq!(pat.evaluate(&img), v, "{} g={g}", pos.to_text());
        }
    }
}

#[test]
fn bad_files_are_errors_not_panics() {
    let good = committed();
    for len in [0, 1, 7, 8, 15, 16, 40, good.len() / 2, good.len() - 1] {
        assert!(
            Pattern::from_bytes(&good[..len]).is_err(),
            "truncated to {len}"
        );
    }
    let mut magic = good.clone();
    magic[0] ^= 1;
    assert_eq!(
        Pattern::from_bytes(&magic).unwrap_err(),
        PatternFileError::BadMagic
    );
    let mut version = good.clone();
    version[8] = 99;
    assert_eq!(
        Pattern::from_bytes(&version).unwrap_err(),
        PatternFileError::Version(99)
    );
    // The first table's declared size (header: magic 8, version 4, count 4, phases 4).
    let mut shape = good.clone();
    shape[20] ^= 1;
    let err = Pattern::from_bytes(&shape).unwrap_err();
    assert!(matches!(err, PatternFileError::Shape { .. }), "{err}");
    assert!(err.to_string().contains("shape mismatch"));
    let mut count = good.clone();
    count[12] = 200;
    assert!(matches!(
        Pattern::from_bytes(&count),
        Err(PatternFileError::Shape { .. })
    ));
    let mut body = good.clone();
    let mid = body.len() / 2;
    body[mid] ^= 0x40;
    assert!(matches!(
        Pattern::from_bytes(&body),
        Err(PatternFileError::Checksum { .. })
    ));
    let mut longer = good.clone();
    longer.extend_from_slice(&[0, 0]);
    assert!(Pattern::from_bytes(&longer).is_err());
    // Random garbage of every small length, with and without a valid magic.
    let mut rng = SplitMix64::new(9);
    for len in 0..200 {
        let mut junk: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        assert!(Pattern::from_bytes(&junk).is_err());
        if len >= 8 {
            junk[..8].copy_from_slice(&pattern_file::MAGIC);
            assert!(Pattern::from_bytes(&junk).is_err());
        }
    }
}

/// The start position is its own image with the colours swapped (mirror the files), so its
/// value is the same for either side to move; and the four first moves lead to images of one
/// another, so they evaluate exactly alike. The value itself is not forced to zero (moving
/// first is not symmetric): the fit puts it where the training games' results were, near
/// zero, as the game's value (a draw) says.
#[test]
fn start_position_is_balanced() {
    let pat = Pattern::default();
    let start = Othello::start();
    let (p, o) = (start.player(), start.opponent());
    assert_eq!(pat.estimate(p, o), pat.estimate(o, p));
    let v = pat.evaluate(&start);
    // Version 2's weights: −31/16 disc for the side to move, where the 13,640 training games
    // (random first plies, then depth 8) gave the side to move −1.7 discs on average.
    assert!(v.abs() <= 48, "start evaluates to {v}/16 discs");
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    assert_eq!(moves.len(), 4);
    let after: Vec<i32> = moves
        .iter()
        .map(|&m| {
            let mut pos = start.clone();
            pos.play(m);
            pat.evaluate(&pos)
        })
        .collect();
    assert!(after.iter().all(|&a| a == after[0]), "{after:?}");
}

/// FFO #1–19 are won or lost positions of 20–22 empties: the evaluation's sign should agree
/// with the exact score on most of them.
#[test]
fn ffo_signs_mostly_agree() {
    let pat = Pattern::default();
    let cases = crate::common::ffo("ffo-1-39.txt", 1, 19);
    let mut agree = 0;
    for c in &cases {
        let v = pat.evaluate(&c.pos);
        if c.score == 0 || v.signum() == c.score.signum() {
            agree += 1;
        }
    }
    // Measured with the committed weights: 15 of 19 (#4, a draw, counts as agreeing; #7,
    // #17, #19, won by 8, and #18, lost by 2, have the wrong sign). One of slack for a refit.
    assert!(agree >= 14, "{agree} of 19 agree");
}
