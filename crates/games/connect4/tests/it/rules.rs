//! The rules: conformance, perft against the published table, win detection against a naive
//! board scan, text input and output.

use duel_connect4::bitboard::{cell, has_four, winning_cells};
use duel_connect4::{Connect4, CELLS, HEIGHT, WIDTH};
use duel_core::conformance::{check_game, check_record, check_view};
use duel_core::{perft, Game, MoveError, Outcome, Side, SplitMix64};

/// Perft from the empty board, plies 0..10, from `data/connect4/README.md`.
const PERFT: [u64; 11] = [
    1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572, 268031646,
];

#[test]
fn conformance_from_the_start_and_mid_games() {
    check_game(&Connect4::start(), 300, 1).unwrap();
    check_view(&Connect4::start(), 100, 2).unwrap();
    check_record(&Connect4::start(), 100, 3).unwrap();
    for (i, text) in ["4453", "44444433", "2252576253462244111563365343671351"]
        .iter()
        .enumerate()
    {
        let pos = Connect4::from_text(text).unwrap();
        check_game(&pos, 100, 10 + i as u64).unwrap();
        check_view(&pos, 20, 20 + i as u64).unwrap();
    }
}

#[test]
fn conformance_from_test_set_positions() {
    for (i, case) in crate::common::load("Test_L2_R1")
        .iter()
        .step_by(100)
        .enumerate()
    {
        check_game(&case.pos, 20, 100 + i as u64).unwrap_or_else(|e| panic!("{}: {e}", case.moves));
    }
}

#[test]
fn perft_to_ply_8() {
    let mut pos = Connect4::start();
    for (depth, &expected) in PERFT.iter().enumerate().take(9) {
        assert_eq!(perft(&mut pos, depth as u32), expected, "perft({depth})");
    }
}

#[test]
#[ignore = "a few seconds: plies 9 and 10"]
fn perft_plies_9_and_10() {
    let mut pos = Connect4::start();
    assert_eq!(perft(&mut pos, 9), PERFT[9]);
    assert_eq!(perft(&mut pos, 10), PERFT[10]);
}

/// A plain grid, to check the bitboard tricks against the obvious scan.
struct Grid([[Option<Side>; HEIGHT as usize]; WIDTH as usize]);

impl Grid {
    fn of(pos: &Connect4) -> Grid {
        let mut g = [[None; HEIGHT as usize]; WIDTH as usize];
        for (c, column) in g.iter_mut().enumerate() {
            for (r, cell) in column.iter_mut().enumerate() {
                *cell = pos.at(c as u8, r as u32);
            }
        }
        Grid(g)
    }

    fn get(&self, c: i32, r: i32) -> Option<Side> {
        if (0..WIDTH as i32).contains(&c) && (0..HEIGHT as i32).contains(&r) {
            self.0[c as usize][r as usize]
        } else {
            None
        }
    }

    fn four_through(&self, side: Side, c: i32, r: i32) -> bool {
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |s: i32| {
                (1..4)
                    .take_while(|&k| self.get(c + s * k * dc, r + s * k * dr) == Some(side))
                    .count()
            };
            run(1) + run(-1) >= 3
        })
    }

    fn has_four(&self, side: Side) -> bool {
        (0..WIDTH as i32).any(|c| {
            (0..HEIGHT as i32)
                .any(|r| self.get(c, r) == Some(side) && self.four_through(side, c, r))
        })
    }

    /// Empty cells where a stone of `side` would make four.
    fn winning_cells(&self, side: Side) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for c in 0..WIDTH as i32 {
            for r in 0..HEIGHT as i32 {
                if self.get(c, r).is_none() && self.four_through(side, c, r) {
                    out.push((c, r));
                }
            }
        }
        out
    }
}

fn cells_of(bits: u64) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for c in 0..WIDTH as i32 {
        for r in 0..HEIGHT as i32 {
            if bits & cell(c as u32, r as u32) != 0 {
                out.push((c, r));
            }
        }
    }
    out
}

#[test]
fn bit_tricks_agree_with_a_grid_scan() {
    let mut rng = SplitMix64::new(7);
    let mut moves = Vec::new();
    let mut wins = 0;
    for _ in 0..2000 {
        let mut pos = Connect4::start();
        loop {
            let grid = Grid::of(&pos);
            for side in [Side::First, Side::Second] {
                assert_eq!(
                    has_four(pos.stones(side)),
                    grid.has_four(side),
                    "{pos:?} {side:?}"
                );
                let bits = winning_cells(pos.stones(side), pos.mask());
                assert_eq!(cells_of(bits), grid.winning_cells(side), "{pos:?} {side:?}");
            }
            let b = pos.board();
            for col in 0..WIDTH as u8 {
                if pos.can_play(col) && pos.outcome().is_none() {
                    let mut next = pos;
                    next.play(col);
                    let won = Grid::of(&next).has_four(pos.side_to_move());
                    assert_eq!(pos.is_winning_move(col), won, "{pos:?} col {col}");
                    assert_eq!(b.is_winning_move(col as u32), won);
                }
            }
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        if pos.outcome() == Some(Outcome::Loss) {
            wins += 1;
            assert!(Grid::of(&pos).has_four(pos.side_to_move().other()));
        }
    }
    assert!(
        wins > 1000,
        "random games nearly always end in a win: {wins}"
    );
}

#[test]
fn games_end_at_four_or_a_full_board() {
    let vertical = Connect4::from_text("1212121").unwrap();
    assert_eq!(vertical.outcome(), Some(Outcome::Loss));
    assert_eq!(vertical.side_to_move(), Side::Second);
    let horizontal = Connect4::from_text("1122334").unwrap();
    assert_eq!(horizontal.outcome(), Some(Outcome::Loss));
    // X: a1 b2 c3 d4, then the same game in the mirror (a falling diagonal).
    let rising = Connect4::from_text("12234334744").unwrap();
    assert_eq!(rising.outcome(), Some(Outcome::Loss));
    assert!(Connect4::from_text("1223433474")
        .unwrap()
        .outcome()
        .is_none());
    let falling = rising.mirrored();
    assert_eq!(falling.to_text(), "76654554144");
    assert_eq!(falling.outcome(), Some(Outcome::Loss));
    let mut moves = Vec::new();
    vertical.generate_moves(&mut moves);
    assert!(moves.is_empty());

    // A drawn game: play random games until one fills the board.
    let mut rng = SplitMix64::new(3);
    let drawn = (0..100_000)
        .find_map(|_| {
            let mut pos = Connect4::start();
            loop {
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    return (pos.outcome() == Some(Outcome::Draw)).then_some(pos);
                }
                pos.play(moves[rng.below(moves.len())]);
            }
        })
        .expect("a drawn random game");
    assert_eq!(drawn.ply(), CELLS);
    assert_eq!(drawn.empties(), 0);
    assert!(!has_four(drawn.stones(Side::First)) && !has_four(drawn.stones(Side::Second)));
    let again = Connect4::from_text(&drawn.to_text()).unwrap();
    assert_eq!(again.outcome(), Some(Outcome::Draw));
    assert!(matches!(
        again.parse_move("4"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn text_round_trips_for_every_test_set_position() {
    for name in [
        "Test_L3_R1",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L1_R1",
        "Test_L1_R2",
        "Test_L1_R3",
    ] {
        for case in crate::common::load(name) {
            assert_eq!(case.pos.to_text(), case.moves);
            assert_eq!(case.pos.ply() as usize, case.moves.len());
            assert!(
                case.pos.outcome().is_none(),
                "{name}: '{}' is finished",
                case.moves
            );
            assert_eq!(case.pos.hash(), case.pos.hash_from_scratch());
        }
    }
}

#[test]
fn transpositions_share_board_and_hash_but_not_history() {
    let a = Connect4::from_text("1234").unwrap();
    let b = Connect4::from_text("3214").unwrap();
    assert_eq!(a.board(), b.board());
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a, b);
    assert_ne!(
        Connect4::from_text("12").unwrap().hash(),
        Connect4::from_text("21").unwrap().hash()
    );
    assert_eq!(Connect4::start().hash(), 0);
}

#[test]
fn moves_and_accessors() {
    let pos = Connect4::from_text("4453").unwrap();
    assert_eq!(pos.moves_played(), &[3, 3, 4, 2]);
    assert_eq!(pos.side_to_move(), Side::First);
    assert_eq!(pos.height(3), 2);
    assert_eq!(pos.at(3, 0), Some(Side::First));
    assert_eq!(pos.at(3, 1), Some(Side::Second));
    assert_eq!(pos.at(3, 2), None);
    assert_eq!(pos.empties(), CELLS - 4);
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves, [0, 1, 2, 3, 4, 5, 6]);
    let full = Connect4::from_text("444444").unwrap();
    full.generate_moves(&mut moves);
    assert_eq!(
        moves,
        [0, 1, 2, 4, 5, 6],
        "a full column is skipped, order kept"
    );
    assert!(!full.can_play(3) && full.can_play(2) && !full.can_play(7));
    assert_eq!(full.format_move(6), "7");
    assert_eq!(Connect4::from_text("  ").unwrap(), Connect4::start());
    assert_eq!(pos.mirrored().to_text(), "4435");
}

#[test]
fn bad_position_text_is_named() {
    let err = |t: &str| Connect4::from_text(t).unwrap_err().reason;
    let e = err("1238");
    assert!(
        e.contains("move 4") && e.contains("not a move in connect4"),
        "{e}"
    );
    let e = err("12a");
    assert!(e.contains("move 3") && e.contains("'a'"), "{e}");
    assert!(err("0").contains("move 1"));
    let e = err("1111111");
    assert!(
        e.contains("move 7") && e.contains("column 1 is full"),
        "{e}"
    );
    // X connects four in column 1 at move 7; the eighth move is refused.
    let e = err("12121213");
    assert!(
        e.contains("move 8") && e.contains("game is over") && e.contains("X has connected four"),
        "{e}"
    );
    let shown = Connect4::from_text("1111111").unwrap_err().to_string();
    assert!(
        shown.contains("'1111111'") && shown.contains("connect4"),
        "{shown}"
    );
}

#[test]
fn parse_move_checks_syntax_before_legality() {
    let won = Connect4::from_text("1212121").unwrap();
    assert!(matches!(
        won.parse_move("3"),
        Err(MoveError::Illegal { .. })
    ));
    for bad in ["0", "8", "x", "", "12", "-1"] {
        assert!(
            matches!(won.parse_move(bad), Err(MoveError::Syntax { .. })),
            "'{bad}'"
        );
        assert!(matches!(
            Connect4::start().parse_move(bad),
            Err(MoveError::Syntax { .. })
        ));
    }
    let full = Connect4::from_text("111111").unwrap();
    match full.parse_move("1") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("column 1 is full")),
        other => panic!("{other:?}"),
    }
    assert_eq!(full.parse_move(" 2 "), Ok(1));
    assert_eq!(Connect4::start().parse_move("7"), Ok(6));
}
