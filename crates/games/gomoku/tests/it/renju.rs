//! Renju's forbidden points on boards checked by hand, each also against the naive grid's
//! brute-force test. Boards are drawn around the cell in question, Black `X`, White `O`,
//! `*` the cell; White's other stones stand on the a file, far from everything.

use crate::common::{cell, setup, Grid};
use duel_core::{Game, GameInfo, MoveError, Outcome};
use duel_gomoku::{Forbidden, Gomoku};

/// White stones that touch nothing, `n` of them.
fn far_white(n: usize) -> String {
    [
        "a1", "a3", "a5", "a7", "a9", "a11", "a13", "a15", "c15", "e15", "g15", "i15",
    ][..n]
        .join(" ")
}

/// `at` in `pos`: the fast test, checked against the naive one.
fn forbidden(pos: &Gomoku, at: &str) -> Option<Forbidden> {
    let c = cell(pos, at);
    let fast = pos.forbidden(c);
    let naive = Grid::of(pos).forbidden(c.x() as i32, c.y() as i32, 0);
    assert_eq!(
        fast.map(|f| f.to_string()),
        naive.map(String::from),
        "{at} in {pos:?}"
    );
    fast
}

/// Black to move may not play `at`, and is told why.
fn refused(pos: &Gomoku, at: &str, why: &str) {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert!(!moves.contains(&cell(pos, at)), "{at} generated");
    match pos.parse_move(at) {
        Err(MoveError::Illegal { reason, .. }) => {
            assert_eq!(reason, format!("forbidden for Black in renju: {why}"))
        }
        other => panic!("{at}: {other:?}"),
    }
}

#[test]
fn double_three() {
    //   9  . X .
    //   8  X * X
    //   7  . X .
    //      g h i
    let pos = setup("renju", "g8 i8 h7 h9", &far_white(4));
    assert_eq!(forbidden(&pos, "h8"), Some(Forbidden::DoubleThree));
    refused(&pos, "h8", "double three");
    // White may play there; the point is still Black's forbidden point.
    let white = setup("renju", "g8 i8 h7 h9 o1", &far_white(4));
    assert!(white.is_legal(cell(&white, "h8")));
    assert_eq!(
        white.forbidden(cell(&white, "h8")),
        Some(Forbidden::DoubleThree)
    );
    // Under the other rules the point is nothing.
    let free = setup("", "g8 i8 h7 h9", &far_white(4));
    assert_eq!(free.forbidden(cell(&free, "h8")), None);
}

#[test]
fn a_blocked_three_is_no_three() {
    // White at f8 and j8: g8 h8 i8 can never become a straight four.
    let pos = setup("renju", "g8 i8 h7 h9", &format!("f8 j8 {}", far_white(2)));
    assert_eq!(forbidden(&pos, "h8"), None);
    // White at e8 only: .XXX. with room on the right only (f8 g8 h8 i8 j8 k8): still a three.
    let pos = setup("renju", "g8 i8 h7 h9", &format!("e8 {}", far_white(3)));
    assert_eq!(forbidden(&pos, "h8"), Some(Forbidden::DoubleThree));
}

#[test]
fn split_three_counts() {
    //   9  . . X .
    //   8  X . * X      g8 _ i8 j8: a split three (X.XX) with the move
    //   7  . . X .      i7 i8 i9: a three
    //      g h i j
    let pos = setup("renju", "g8 j8 i7 i9", &far_white(4));
    assert_eq!(forbidden(&pos, "i8"), Some(Forbidden::DoubleThree));
}

#[test]
fn double_four_in_two_lines() {
    //   8  e f g * .     e8 f8 g8 and h5 h6 h7
    let pos = setup("renju", "e8 f8 g8 h5 h6 h7", &far_white(6));
    assert_eq!(forbidden(&pos, "h8"), Some(Forbidden::DoubleFour));
    refused(&pos, "h8", "double four");
}

#[test]
fn double_four_in_one_line() {
    // X . X * X . X: the middle makes two fours, d8-h8 (e8 to fill) and f8-j8 (i8).
    let pos = setup("renju", "d8 f8 h8 j8", &far_white(4));
    assert_eq!(forbidden(&pos, "g8"), Some(Forbidden::DoubleFour));
    refused(&pos, "g8", "double four");
    // X X . * X . X X
    let pos = setup("renju", "c8 d8 g8 i8 j8", &far_white(5));
    assert_eq!(forbidden(&pos, "f8"), Some(Forbidden::DoubleFour));
}

#[test]
fn four_three_is_allowed() {
    // e8 f8 g8 + h8: a four; h6 h7 + h8: a three. One of each is no double.
    let pos = setup("renju", "e8 f8 g8 h6 h7", &format!("d8 {}", far_white(4)));
    assert_eq!(forbidden(&pos, "h8"), None);
}

#[test]
fn overline_is_forbidden_unless_it_makes_five() {
    let pos = setup("renju", "e8 f8 g8 i8 j8", &far_white(5));
    assert_eq!(forbidden(&pos, "h8"), Some(Forbidden::Overline));
    refused(&pos, "h8", "overline");
    // Add h4 h5 h6 h7: h8 is then also a five (h4-h8), which takes precedence.
    let pos = setup("renju", "e8 f8 g8 i8 j8 h4 h5 h6 h7", &far_white(9));
    assert_eq!(forbidden(&pos, "h8"), None);
    let mut won = pos.clone();
    won.play(pos.parse_move("h8").unwrap());
    assert_eq!(won.outcome(), Some(Outcome::Loss));
}

#[test]
fn five_that_is_also_a_double_four_is_allowed() {
    // d8 e8 f8 g8 + h8: five. h5 h6 h7 + h8 and e5 f6 g7 + h8: two fours besides.
    let pos = setup(
        "renju",
        "d8 e8 f8 g8 h5 h6 h7 e5 f6 g7",
        &format!("{} c1 e1", far_white(8)),
    );
    assert_eq!(forbidden(&pos, "h8"), None);
    let mv = pos.parse_move("h8").unwrap();
    let mut won = pos.clone();
    won.play(mv);
    assert_eq!(won.outcome(), Some(Outcome::Loss));
    assert_eq!(won.end_reason(), "five in a row");
}

/// The recursive test: a three whose only straight-four point is itself forbidden is no
/// three, so the double three is not one.
#[test]
fn false_three_whose_completion_is_forbidden() {
    //  10  . . . . . . . .
    //   9  . . . X . . . .      h9
    //   8  O . X * X j . .      e8 (White) g8 i8; j8 would be the straight four g8-j8
    //   7  . . . X . X X .      h7; j7 k7
    //   6  . . . . . X . X      j6 l6
    //   5  . . . . . X . . X    j5 m5
    //      e f g h i j k l m
    // h8 makes g8 h8 i8 (f8 is no use: e8 is White) and h7 h8 h9. The first becomes a
    // straight four only at j8, where Black would make three fours (row 8, j5-j8 and
    // j8-m5): a double four, forbidden. So row 8 is no three and h8 is allowed.
    let black = "g8 i8 h7 h9 j5 j6 j7 k7 l6 m5";
    let pos = setup("renju", black, &format!("e8 {}", far_white(9)));
    assert_eq!(forbidden(&pos, "j8"), Some(Forbidden::DoubleFour));
    assert_eq!(forbidden(&pos, "h8"), None);
    assert!(pos.is_legal(cell(&pos, "h8")));
    // Without White's e8, f8 makes the straight four f8-i8 and is allowed: a double three.
    let open = setup("renju", black, &format!("c13 {}", far_white(9)));
    assert_eq!(forbidden(&open, "h8"), Some(Forbidden::DoubleThree));
}

#[test]
fn nothing_is_forbidden_to_white_or_outside_renju() {
    for spec in ["", "standard", "caro"] {
        let pos = setup(spec, "e8 f8 g8 i8 j8", &far_white(5));
        assert_eq!(pos.forbidden(cell(&pos, "h8")), None, "{spec}");
        assert!(pos.is_legal(cell(&pos, "h8")));
    }
}
