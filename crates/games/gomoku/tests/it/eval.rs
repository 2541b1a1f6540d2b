//! The textbook evaluator: pattern counts by hand, the founding text's side-to-move example,
//! the bounds, the hints and the noisy moves.

use crate::common::{cell, setup};
use duel_core::{Evaluator, Game, Score, SplitMix64};
use duel_gomoku::{Gomoku, Shapes, Textbook};

#[test]
fn patterns_counted_by_hand() {
    // Black: f8 g8 h8 (open three), c3 d3 (open two), m12 m13 m14 m15 (four against the
    // edge: one end open), b12 . d12 e12 (broken three, open). White: single stones three
    // cells apart or more, which count nothing (two apart, `O.O`, would be a two).
    let pos = setup(
        "",
        "f8 g8 h8 c3 d3 m12 m13 m14 m15 b12 d12 e12",
        "a1 a4 a7 a10 a13 o1 o4 o7 o10 o13 f14 j15",
    );
    let [black, white] = Textbook::shapes(&pos);
    assert_eq!(
        black,
        Shapes {
            open_fours: 0,
            fours: 1,
            open_threes: 2,
            threes: 0,
            open_twos: 1,
            twos: 0,
        }
    );
    assert_eq!(white, Shapes::default());
}

/// The founding text: a black four blocked at one end is won for Black to move (he completes
/// five) and, for White to move, one cell to block.
#[test]
fn side_to_move_decides_what_a_four_is_worth() {
    // Black e8 f8 g8 h8, White d8 blocks the left end; i8 is open. Black to move:
    let black_to_move = setup("", "e8 f8 g8 h8 a1", "d8 o1 o3 o5 o7");
    // White to move: the same stones but White's o7.
    let white_to_move = setup("", "e8 f8 g8 h8 a1", "d8 o1 o3 o5");
    let black_view = |pos: &Gomoku| {
        let v = Textbook.evaluate(pos);
        if pos.side_to_move() == duel_core::Side::First {
            v
        } else {
            -v
        }
    };
    let when_black_moves = black_view(&black_to_move);
    let when_white_moves = black_view(&white_to_move);
    assert!(when_black_moves >= 10_000, "{when_black_moves}");
    assert!(when_white_moves.abs() < 2_000, "{when_white_moves}");
    assert!(when_black_moves > 10 * when_white_moves.abs());
}

#[test]
fn open_four_of_the_waiting_side_is_lost() {
    // Black e8..h8 open at both ends, White to move: one block is not enough.
    let pos = setup("", "e8 f8 g8 h8 a1", "o1 o3 o5 o7");
    assert!(Textbook.evaluate(&pos) <= -10_000);
}

#[test]
fn values_stay_heuristic_and_symmetric_at_the_start() {
    assert_eq!(Textbook.evaluate(&Gomoku::start()), 0);
    let mut rng = SplitMix64::new(3);
    let mut moves = Vec::new();
    for _ in 0..50 {
        let mut pos = Gomoku::start();
        while pos.outcome().is_none() {
            let v = Textbook.evaluate(&pos);
            assert!(v.abs() <= Score::MAX_HEURISTIC, "{v}");
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn hints_put_wins_then_blocks_first() {
    // Black to move with e8 f8 g8 h8 (d8 White): i8 wins. White has k3 l3 m3 n3 (j3 Black):
    // o3 blocks White's five.
    let pos = setup("", "e8 f8 g8 h8 j3 a1", "d8 k3 l3 m3 n3 a3");
    let hint = |c: &str| Textbook.move_hint(&pos, cell(&pos, c));
    assert!(hint("i8") > hint("o3"), "win before block");
    assert!(hint("o3") > hint("h9"), "block before the rest");
    assert!(hint("h9") > hint("a15"), "near before far");
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut hints = Vec::new();
    Textbook.move_hints(&pos, &moves, &mut hints);
    assert_eq!(hints.len(), moves.len());
}

#[test]
fn noisy_moves_are_wins_else_blocks_else_fours() {
    let name = |pos: &Gomoku, moves: &[duel_gomoku::Cell]| -> Vec<String> {
        moves.iter().map(|&m| pos.format_move(m)).collect()
    };
    let mut moves = Vec::new();
    // A win is there: only it.
    let win = setup("", "e8 f8 g8 h8 j3 a1", "d8 k3 l3 m3 n3 a3");
    Textbook.noisy_moves(&win, &mut moves);
    assert_eq!(name(&win, &moves), ["i8"]);
    // White to move, no five of its own: block Black's.
    let block = setup("", "e8 f8 g8 h8 a1", "d8 a3 a5 a7");
    Textbook.noisy_moves(&block, &mut moves);
    assert_eq!(name(&block, &moves), ["i8"]);
    // Fours: Black e8 f8 g8 with room makes a four at c8, d8, h8, i8.
    let fours = setup("", "e8 f8 g8", "a1 a3 a5");
    Textbook.noisy_moves(&fours, &mut moves);
    let mut got = name(&fours, &moves);
    got.sort();
    assert_eq!(got, ["c8", "d8", "h8", "i8"]);
    // Quiet: nothing.
    Textbook.noisy_moves(&Gomoku::start(), &mut moves);
    assert!(moves.is_empty());
}
