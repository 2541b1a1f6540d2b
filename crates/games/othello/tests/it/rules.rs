//! Rules, notation and the game contract.

use duel_core::conformance::{check_game, check_position, check_record, check_view};
use duel_core::{Game, MoveError, Outcome, Side};
use duel_othello::{Move, Othello};
use proptest::prelude::*;

fn pos(text: &str) -> Othello {
    Othello::from_text(text).unwrap_or_else(|e| panic!("{e}"))
}

fn board(prefix: &str, side: char) -> String {
    format!("{prefix:-<64} {side}")
}

#[test]
fn conformance_from_the_start() {
    check_game(&Othello::start(), 200, 1).unwrap();
    check_view(&Othello::start(), 20, 2).unwrap();
    check_record(&Othello::start(), 50, 3).unwrap();
}

#[test]
fn conformance_from_ffo_positions() {
    for case in crate::common::ffo("ffo-1-39.txt", 1, 39).iter().step_by(4) {
        check_game(&case.pos, 20, u64::from(case.id)).unwrap();
        check_view(&case.pos, 2, u64::from(case.id)).unwrap();
        check_record(&case.pos, 5, u64::from(case.id)).unwrap();
    }
}

#[test]
fn conformance_through_a_pass() {
    // X to move has no move; O has c1.
    let p = pos(&board("OX", 'X'));
    check_game(&p, 5, 3).unwrap();
    check_view(&p, 5, 4).unwrap();
    check_record(&p, 5, 5).unwrap();
}

#[test]
fn the_start_position() {
    let s = Othello::start();
    assert_eq!(s.side_to_move(), Side::First);
    assert_eq!(s.side_char(), 'X');
    assert_eq!(s.ply(), 0);
    assert_eq!(s.last_move(), None);
    // d5 and e4 black, d4 and e5 white.
    let at = |name: &str| 1u64 << Move::parse(name).unwrap().to_square().unwrap();
    assert_eq!(s.black(), at("d5") | at("e4"));
    assert_eq!(s.white(), at("d4") | at("e5"));
    assert_eq!(s.empties().count_ones(), 60);
    assert_eq!(s.outcome(), None);
}

#[test]
fn playing_flips_and_records() {
    let mut s = Othello::start();
    let f5 = s.parse_move("F5").unwrap();
    assert_eq!(s.flips(f5.to_square().unwrap()).count_ones(), 1);
    s.play(f5);
    assert_eq!(
        s.to_text(),
        "---------------------------OX------XXX-------------------------- O"
    );
    assert_eq!(s.ply(), 1);
    assert_eq!(s.last_move(), Some(f5));
    assert_eq!(s.disc_difference(), 1 - 4);
    let mut moves = Vec::new();
    s.generate_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|m| s.format_move(*m)).collect();
    assert_eq!(names, ["f4", "d6", "f6"]);
    s.undo(f5);
    assert_eq!(s, Othello::start());
}

#[test]
fn a_pass_is_a_move_only_when_forced() {
    let mut p = pos(&board("OX", 'X'));
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    assert_eq!(moves, [Move::PASS]);
    assert_eq!(p.parse_move("pa"), Ok(Move::PASS));
    assert_eq!(p.parse_move("PASS"), Ok(Move::PASS));
    let hash = p.hash();
    p.play(Move::PASS);
    assert_eq!(p.side_to_move(), Side::Second);
    assert_ne!(p.hash(), hash);
    assert_eq!(p.hash(), p.hash_from_scratch());
    p.generate_moves(&mut moves);
    assert_eq!(moves, [Move::parse("c1").unwrap()]);
    assert_eq!(p.last_move(), Some(Move::PASS));
    p.undo(Move::PASS);
    assert_eq!(p.to_text(), board("OX", 'X'));
    assert_eq!(p.hash(), hash);
}

#[test]
fn finished_games() {
    // One black disc, the rest empty: nobody can move, black wins 64-0 (empties to the winner).
    let won = pos(&board("X", 'X'));
    assert!(won.is_over());
    assert_eq!(won.outcome(), Some(Outcome::Win));
    assert_eq!(won.final_score(), 64);
    let lost = pos(&board("X", 'O'));
    assert_eq!(lost.outcome(), Some(Outcome::Loss));
    assert_eq!(lost.final_score(), -64);
    // One disc each, far apart: nobody can move, 1-1.
    let drawn = pos(&board(&format!("X{}O", "-".repeat(62)), 'O'));
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
    assert_eq!(drawn.final_score(), 0);
    let mut moves = vec![Move::PASS];
    drawn.generate_moves(&mut moves);
    assert!(moves.is_empty());
    check_position(&drawn).unwrap();
}

#[test]
fn a_full_board_counts_discs() {
    let full = pos(&format!("{}{} O", "X".repeat(40), "O".repeat(24)));
    assert!(full.is_over());
    assert_eq!(full.outcome(), Some(Outcome::Loss));
    assert_eq!(full.final_score(), 24 - 40);
}

#[test]
fn position_text_variants() {
    let ffo = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let p = pos(ffo);
    assert_eq!(p.to_text(), ffo);
    assert_eq!(pos(&ffo.to_lowercase()), p);
    assert_eq!(pos(&ffo.replace('-', ".")), p);
    assert_eq!(pos(&ffo.replace(' ', "")), p, "side glued to the board");
    assert_eq!(pos(&format!("  {ffo}\n")), p);
    assert_eq!(pos(&ffo.replace('X', "*")).to_text(), ffo);
    assert_eq!(
        pos(&format!("{} O", &ffo[..64])).side_to_move(),
        Side::Second
    );
    assert_eq!(
        pos(&format!("{} white", &ffo[..64])).side_to_move(),
        Side::Second
    );
}

#[test]
fn bad_positions_say_what_is_wrong() {
    let reason = |text: &str| Othello::from_text(text).unwrap_err().reason;
    assert!(reason("").contains("has 0 squares"), "{}", reason(""));
    assert!(reason(&format!("{} X", "-".repeat(63))).contains("has 63 squares"));
    assert!(reason(&format!("{} X", "-".repeat(65))).contains("has 65 squares"));
    let bad = format!("--q{} X", "-".repeat(61));
    assert!(
        reason(&bad).contains("'q' at square c1"),
        "{}",
        reason(&bad)
    );
    assert!(reason(&"-".repeat(64)).contains("missing the side to move"));
    assert!(reason(&format!("{} Z", "-".repeat(64))).contains("must be X or O, not 'Z'"));
    assert!(reason(&format!("{} X X", "-".repeat(64))).contains("unexpected text"));
}

#[test]
fn bad_moves_say_what_is_wrong() {
    let s = Othello::start();
    for bad in ["", "z9", "a0", "i1", "e", "e44", "pas"] {
        assert!(
            matches!(s.parse_move(bad), Err(MoveError::Syntax { .. })),
            "{bad}: {:?}",
            s.parse_move(bad)
        );
    }
    let illegal = |p: &Othello, text: &str| match p.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    };
    assert!(illegal(&s, "d4").contains("occupied"));
    assert!(illegal(&s, "a1").contains("flips nothing"));
    assert!(illegal(&s, "PA").contains("cannot pass: you have moves"));
    let forced = pos(&board("OX", 'X'));
    assert!(illegal(&forced, "c1").contains("you must pass"));
    let over = pos(&board("X", 'O'));
    assert!(illegal(&over, "b1").contains("game over"));
    assert!(illegal(&over, "pa").contains("game over"));
    // Syntax comes first, even where no move is legal.
    assert!(matches!(
        over.parse_move("k3"),
        Err(MoveError::Syntax { .. })
    ));
    assert_eq!(s.parse_move(" E6 "), Ok(Move::parse("e6").unwrap()));
}

#[test]
fn diagram_shows_the_board() {
    let d = Othello::start().diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[0], "  a b c d e f g h");
    assert_eq!(lines[3], "3 . . . * . . . . 3");
    assert_eq!(lines[4], "4 . . * O X . . . 4");
    assert_eq!(lines[5], "5 . . . X O * . . 5");
    assert_eq!(lines[10], "X Black, O White, * a legal move");
    assert_eq!(lines[11], "Black to move; Black 2, White 2");
    assert!(!d.contains('['), "nothing played yet: {d}");
    assert!(pos(&board("X", 'O')).diagram().contains("game over"));
}

/// The disc just placed stands in brackets, at the board's edge too; a pass marks nothing,
/// and the side that must pass is told so.
#[test]
fn diagram_marks_the_last_disc() {
    let play = |p: &mut Othello, mv: &str| p.play(p.parse_move(mv).unwrap());
    let mut p = Othello::start();
    play(&mut p, "f5");
    let d = p.diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[5], "5 . . . X X[X]. . 5", "{d}");
    assert_eq!(lines[11], "White to move; Black 4, White 1");
    // f1 White, g1 Black: White's h1 takes the last column.
    let mut p = pos(&board("-----OX", 'O'));
    play(&mut p, "h1");
    assert_eq!(p.diagram().lines().nth(1), Some("1 . . . . . O O[O]1"));
    // Black has no move, White has c1.
    let mut p = pos(&board("OX", 'X'));
    assert!(p.diagram().ends_with("Black must pass; Black 1, White 1\n"));
    play(&mut p, "PA");
    assert!(!p.diagram().contains('['), "{}", p.diagram());
    play(&mut p, "c1");
    let d = p.diagram();
    assert!(d.contains("\n1 O O[O]. . . . . 1\n"), "{d}");
    assert!(d.ends_with("game over; Black 0, White 3\n"), "{d}");
}

#[test]
fn bitboard_constructor() {
    let s = Othello::start();
    let same = Othello::from_bitboards(s.player(), s.opponent(), Side::First).unwrap();
    assert_eq!(same, s);
    assert_eq!(same.hash(), s.hash());
    assert!(Othello::from_bitboards(1, 1, Side::First).is_none());
}

#[test]
fn move_indices_are_dense() {
    assert_eq!(Othello::MOVE_INDICES, 65);
    assert_eq!(Othello::move_index(Move::PASS), 64);
    assert_eq!(Othello::move_index(Move::parse("h8").unwrap()), 63);
    assert_eq!(Othello::move_index(Move::parse("a1").unwrap()), 0);
}

proptest! {
    /// Any board of X, O and - reads back as itself and its hash is the one from scratch.
    #[test]
    fn random_boards_round_trip(cells in proptest::collection::vec(0u8..3, 64), white in any::<bool>()) {
        let text: String = cells.iter().map(|c| ['-', 'X', 'O'][*c as usize]).collect();
        let text = format!("{text} {}", if white { 'O' } else { 'X' });
        let p = Othello::from_text(&text).unwrap();
        prop_assert_eq!(p.to_text(), text);
        prop_assert!(check_position(&p).is_ok());
        // A pass is generated exactly when the side to move has no move and the opponent has.
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        let must_pass = p.moves_bb() == 0 && p.opponent_moves_bb() != 0;
        prop_assert_eq!(moves == [Move::PASS], must_pass);
        prop_assert_eq!(moves.is_empty(), p.is_over());
    }
}
