//! The rules: conformance on every variant, perft (from the empty board and cross-checked
//! against the naive grid of `common`), win detection under each rule, draws and hashes.

use crate::common::{cell, setup, Grid};
use duel_core::conformance::{check_game, check_position, check_record, check_view};
use duel_core::{perft, Game, GameInfo, Outcome, SplitMix64};
use duel_gomoku::{Cell, Gomoku, Rule};

fn variant(spec: &str) -> Gomoku {
    Gomoku::variant(spec).unwrap()
}

#[test]
fn conformance_freestyle_15() {
    check_game(&Gomoku::start(), 6, 1).unwrap();
    check_game(&Gomoku::from_text("h8 i9 h9").unwrap(), 3, 2).unwrap();
    check_view(&Gomoku::start(), 2, 3).unwrap();
    check_record(&Gomoku::start(), 3, 4).unwrap();
}

#[test]
fn conformance_standard_renju_caro() {
    for (i, spec) in ["standard", "renju", "caro"].iter().enumerate() {
        check_game(&variant(spec), 4, 10 + i as u64).unwrap_or_else(|e| panic!("{spec}: {e}"));
        check_view(&variant(spec), 1, 10 + i as u64).unwrap_or_else(|e| panic!("{spec}: {e}"));
        check_record(&variant(spec), 2, 10 + i as u64).unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
}

#[test]
fn conformance_other_sizes() {
    check_game(&variant("20"), 1, 20).unwrap();
    check_game(&variant("renju:20"), 1, 21).unwrap();
    check_view(&variant("15x20"), 1, 22).unwrap();
    // Small boards fill up: full-board draws, and renju's forbidden points crowd Black.
    for (i, spec) in ["7x5", "renju:7x5", "standard:5", "caro:6x5", "renju:5x9"]
        .iter()
        .enumerate()
    {
        check_game(&variant(spec), 60, 30 + i as u64).unwrap_or_else(|e| panic!("{spec}: {e}"));
        check_view(&variant(spec), 20, 30 + i as u64).unwrap_or_else(|e| panic!("{spec}: {e}"));
        check_record(&variant(spec), 20, 30 + i as u64).unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
}

/// Random games on a small board end in each way: a five, a full board.
#[test]
fn small_boards_end_both_ways() {
    let mut rng = SplitMix64::new(5);
    let (mut wins, mut draws) = (0, 0);
    let mut moves = Vec::new();
    for _ in 0..300 {
        let mut pos = variant("7x5");
        while pos.outcome().is_none() {
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len())]);
        }
        match pos.outcome() {
            Some(Outcome::Draw) => {
                draws += 1;
                assert_eq!(pos.empties(), 0);
                assert_eq!(pos.end_reason(), "full board");
            }
            _ => {
                wins += 1;
                assert_eq!(pos.end_reason(), "five in a row");
            }
        }
    }
    assert!(wins > 0 && draws > 0, "{wins} wins, {draws} draws");
}

#[test]
fn perft_from_the_empty_board() {
    let mut pos = Gomoku::start();
    assert_eq!(perft(&mut pos, 1), 225);
    assert_eq!(perft(&mut pos, 2), 50_400);
    let mut pos = variant("20");
    assert_eq!(perft(&mut pos, 2), 400 * 399);
    let mut pos = variant("renju:15x20");
    assert_eq!(perft(&mut pos, 2), 300 * 299);
}

/// Bulk-counted at the last ply: a few hundredths of a second.
#[test]
fn perft_3_from_the_empty_board() {
    assert_eq!(perft(&mut Gomoku::start(), 3), 11_239_200);
    assert_eq!(perft(&mut variant("renju"), 3), 11_239_200);
}

#[test]
#[ignore = "seconds: 2.5 billion leaves"]
fn perft_4_from_the_empty_board() {
    assert_eq!(perft(&mut Gomoku::start(), 4), 2_495_102_400);
}

/// Middle games of each rule, perft 2 against the naive grid, which rescans whole lines and
/// tests Black's forbidden points by brute force.
#[test]
fn perft_against_the_naive_grid() {
    let positions = [
        // Freestyle: White's e5 f5 g5 h5 made four; Black to move must see it play on.
        "h8 e5 h9 f5 h7 g5 g8 h5",
        // Standard: Black's overline f8..k8 did not win; play went on.
        "standard f8 a1 g8 a3 h8 a5 j8 a7 k8 a9 i8 c1",
        // Caro: White's five c8..g8 blocked by b8 and h8 does not win.
        "caro b8 c8 h8 d8 a1 e8 a3 f8 a5 g8",
        // Renju, Black to move with double threes, fours and an overline about.
        "renju h8 a1 g8 a3 i8 a5 h7 a7 h9 c1 j6 c3 j5 c5 k5 c7 f8 e1 l8 g1",
        "renju:7x5 c3 a1 d3 g5 e2 g1 c2 a5 d1 f5 b1 g3",
    ];
    for text in positions {
        let pos = Gomoku::from_text(text).unwrap_or_else(|e| panic!("{e}"));
        let grid = Grid::of(&pos);
        for depth in 1..=2 {
            assert_eq!(
                perft(&mut pos.clone(), depth),
                grid.perft(depth),
                "{text} perft {depth}"
            );
        }
    }
}

/// Random renju positions crowded around the centre: the moves are the naive grid's, cell
/// for cell (the forbidden points are where they differ from the empty cells).
#[test]
fn renju_moves_match_the_naive_grid() {
    let mut rng = SplitMix64::new(77);
    let mut moves = Vec::new();
    let mut forbidden_seen = 0;
    for _ in 0..60 {
        let mut pos = variant("renju");
        for _ in 0..(20 + rng.below(40)) {
            pos.generate_moves(&mut moves);
            // Mostly the centre 7x7, so that Black's lines cross.
            let near: Vec<Cell> = moves
                .iter()
                .copied()
                .filter(|c| (4..11).contains(&c.x()) && (4..11).contains(&c.y()))
                .collect();
            let pick = if near.is_empty() { &moves } else { &near };
            if pick.is_empty() {
                break;
            }
            pos.play(pick[rng.below(pick.len())]);
            if pos.outcome().is_some() {
                break;
            }
        }
        pos.generate_moves(&mut moves);
        let grid = Grid::of(&pos);
        let naive: Vec<Cell> = grid
            .moves()
            .into_iter()
            .map(|(x, y)| Cell::new(x as u8, y as u8))
            .collect();
        assert_eq!(moves, naive, "{}", pos.to_text());
        if pos.outcome().is_none() && pos.side_to_move() == duel_core::Side::First {
            forbidden_seen += pos.empties() - moves.len();
        }
        check_position(&pos).unwrap();
    }
    assert!(
        forbidden_seen > 10,
        "only {forbidden_seen} forbidden points met"
    );
}

/// The outcome once `black` and `white` are played alternately (see `setup`).
fn outcome(spec: &str, black: &str, white: &str) -> Option<Outcome> {
    setup(spec, black, white).outcome()
}

#[test]
fn freestyle_five_and_overline_win() {
    // Black's f8..j8, White far away: White to move has lost.
    let black = "f8 g8 h8 i8 j8";
    let white = "a1 a3 a5 a7";
    assert_eq!(outcome("", black, white), Some(Outcome::Loss));
    // Six: e8 f8 g8 _ i8 j8, then h8.
    let pos = setup("", "e8 f8 g8 i8 j8 h8", "a1 a3 a5 a7 a9");
    assert_eq!(pos.outcome(), Some(Outcome::Loss));
    // Four is not five.
    assert_eq!(outcome("", "f8 g8 h8 i8", "a1 a3 a5"), None);
    // Diagonals both ways, and a five along the edge.
    assert_eq!(
        outcome("", "a1 b2 c3 d4 e5", "o1 o3 o5 o7"),
        Some(Outcome::Loss)
    );
    assert_eq!(
        outcome("", "a5 b4 c3 d2 e1", "o1 o3 o5 o7"),
        Some(Outcome::Loss)
    );
    assert_eq!(
        outcome("", "o11 o12 o13 o14 o15", "a1 a3 a5 a7"),
        Some(Outcome::Loss)
    );
}

#[test]
fn standard_needs_exactly_five() {
    let overline = setup("standard", "e8 f8 g8 i8 j8 h8", "a1 a3 a5 a7 a9");
    assert_eq!(overline.outcome(), None, "six does not win");
    let mut moves = Vec::new();
    overline.generate_moves(&mut moves);
    assert_eq!(moves.len(), 225 - 11);
    assert_eq!(
        outcome("standard", "f8 g8 h8 i8 j8", "a1 a3 a5 a7"),
        Some(Outcome::Loss)
    );
    // White's exact five wins too; its six does not.
    let white_five = setup("standard", "a1 a3 a5 a7 a9", "f8 g8 h8 i8 j8");
    assert_eq!(white_five.outcome(), Some(Outcome::Loss));
    let white_six = setup("standard", "a1 a3 a5 a7 a9 a11", "e8 f8 g8 i8 j8 h8");
    assert_eq!(white_six.outcome(), None);
}

#[test]
fn renju_black_exact_five_white_any() {
    assert_eq!(
        outcome("renju", "f8 g8 h8 i8 j8", "a1 a3 a5 a7"),
        Some(Outcome::Loss)
    );
    let white_six = setup("renju", "a1 a3 a5 a7 a9 a11", "e8 f8 g8 i8 j8 h8");
    assert_eq!(
        white_six.outcome(),
        Some(Outcome::Loss),
        "White's overline wins"
    );
    // Black's overline cannot even be played.
    let pos = setup("renju", "e8 f8 g8 i8 j8", "a1 a3 a5 a7 a9");
    let h8 = cell(&pos, "h8");
    assert_eq!(pos.forbidden(h8), Some(duel_gomoku::Forbidden::Overline));
    assert!(!pos.is_legal(h8));
}

#[test]
fn caro_five_blocked_at_both_ends_does_not_win() {
    // White d8, Black e8..i8, White j8: blocked both ends.
    let blocked = setup("caro", "e8 f8 g8 h8 a1 i8", "d8 j8 a3 a5 a7");
    assert_eq!(blocked.outcome(), None);
    // Blocked at one end only: a win.
    assert_eq!(
        outcome("caro", "e8 f8 g8 h8 i8", "d8 a3 a5 a7"),
        Some(Outcome::Loss)
    );
    // The edge is no stone: a1..a5 against the edge with White at a6 wins.
    assert_eq!(
        outcome("caro", "a1 a2 a3 a4 a5", "a6 c3 c5 c7"),
        Some(Outcome::Loss)
    );
    // An overline wins even blocked at both ends.
    let six = setup("caro", "e8 f8 g8 i8 a1 j8 h8", "d8 k8 a3 a5 a7 a9");
    assert_eq!(six.outcome(), Some(Outcome::Loss));
    // Blocked diagonally at both ends.
    let diag = setup("caro", "c3 d4 e5 f6 o1 g7", "b2 h8 o3 o5 o7");
    assert_eq!(diag.outcome(), None);
}

/// A renju board where Black, to move, has only forbidden cells: Black has lost.
#[test]
fn renju_black_without_a_legal_move_loses() {
    // 6x5, top row first (x = a..f):
    //   5  X X X . X X     d5: six in a row
    //   4  O O X O O O
    //   3  X X . X X X     c3: six in a row
    //   2  O O O X O O
    //   1  O O X O O X
    let pos = setup(
        "renju:6x5",
        "a5 b5 c5 e5 f5 c4 a3 b3 d3 e3 f3 d2 c1 f1",
        "a4 b4 d4 e4 f4 a2 b2 c2 e2 f2 a1 b1 d1 e1",
    );
    assert_eq!(pos.empties(), 2);
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some(Outcome::Loss));
    assert_eq!(pos.end_reason(), "only forbidden moves left for Black");
    // The same board under freestyle: Black plays on (and wins with six).
    let free = setup(
        "6x5",
        "a5 b5 c5 e5 f5 c4 a3 b3 d3 e3 f3 d2 c1 f1",
        "a4 b4 d4 e4 f4 a2 b2 c2 e2 f2 a1 b1 d1 e1",
    );
    assert_eq!(free.outcome(), None);
}

#[test]
fn hashes_differ_by_variant_and_side() {
    let hashes: Vec<u64> = ["", "standard", "renju", "caro", "20", "15x20", "20x15"]
        .iter()
        .map(|s| variant(s).hash())
        .collect();
    for i in 0..hashes.len() {
        for j in 0..i {
            assert_ne!(hashes[i], hashes[j], "variants {i} and {j}");
        }
    }
    // Same stones, other side to move (White passed in thought): the side key differs.
    let a = Gomoku::from_text("h8 i9 j10").unwrap();
    let b = Gomoku::from_text("j10 i9 h8").unwrap();
    assert_eq!(a.hash(), b.hash(), "transposition");
    assert_eq!(a.hash(), a.hash_from_scratch());
}

#[test]
fn moves_in_fixed_index_order() {
    let pos = Gomoku::from_text("h8").unwrap();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves.len(), 224);
    assert!(moves.windows(2).all(|w| w[0].index() < w[1].index()));
    assert_eq!(moves[0], Cell::new(0, 0));
    assert_eq!(Gomoku::move_index(Cell::new(21, 21)), 483);
    assert_eq!(Gomoku::MOVE_INDICES, 484);
    assert!(Rule::from_gomocup(4) == Some(Rule::Renju) && Rule::from_gomocup(6).is_some());
}
