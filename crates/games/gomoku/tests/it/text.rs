//! Notation, variant specs, position texts and the refusals, each with its named reason.

use crate::common::setup;
use duel_core::{Game, GameInfo, MoveError, Outcome, RecordInfo};
use duel_gomoku::{Cell, Gomoku, Rule, Variant, VariantError};

#[test]
fn both_notations_name_the_same_cells() {
    let pos = Gomoku::start();
    // The centre of 15x15: h8 = Gomocup 7,7; a15 is the top left = 0,0; o1 = 14,14.
    for (name, x, y) in [("h8", 7, 7), ("a15", 0, 0), ("a1", 0, 14), ("o1", 14, 14)] {
        let c = Cell::new(x, y);
        assert_eq!(pos.parse_move(name).unwrap(), c, "{name}");
        assert_eq!(pos.parse_move(&format!("{x},{y}")).unwrap(), c, "{x},{y}");
        assert_eq!(pos.format_move(c), name);
    }
    assert_eq!(pos.parse_move(" H8 ").unwrap(), Cell::new(7, 7));
    assert_eq!(pos.parse_move("7, 7").unwrap(), Cell::new(7, 7));
    // Every cell of a rectangular board round-trips through both forms.
    let rect = Gomoku::variant("9x20").unwrap();
    for y in 0..20 {
        for x in 0..9 {
            let c = Cell::new(x, y);
            assert_eq!(rect.parse_move(&rect.format_move(c)).unwrap(), c);
            assert_eq!(rect.parse_move(&format!("{x},{y}")).unwrap(), c);
        }
    }
    assert_eq!(rect.format_move(Cell::new(0, 0)), "a20");
    let big = Gomoku::variant("22").unwrap();
    assert_eq!(big.format_move(Cell::new(21, 0)), "v22");
    assert_eq!(big.parse_move("21,21").unwrap(), Cell::new(21, 21));
}

fn syntax(pos: &Gomoku, text: &str) {
    assert!(
        matches!(pos.parse_move(text), Err(MoveError::Syntax { .. })),
        "{text}: {:?}",
        pos.parse_move(text)
    );
}

fn illegal(pos: &Gomoku, text: &str, why: &str) {
    match pos.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => assert_eq!(reason, why, "{text}"),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn bad_moves_are_named() {
    let pos = Gomoku::from_text("h8").unwrap();
    for text in [
        "", "h", "8", "h0", "hh8", "w1", "h23", "7", "7,", ",7", "22,0", "a,b", "h8x",
    ] {
        syntax(&pos, text);
    }
    illegal(&pos, "h8", "h8 is taken by Black");
    illegal(&pos, "7,7", "h8 is taken by Black");
    illegal(&pos, "p1", "off the 15x15 board");
    illegal(&pos, "a16", "off the 15x15 board");
    illegal(&pos, "15,0", "off the 15x15 board");
    let won = setup("", "f8 g8 h8 i8 j8", "a1 a3 a5 a7");
    illegal(&won, "o15", "the game is over (five in a row)");
}

#[test]
fn variant_specs() {
    let v = |s: &str| Variant::parse(s).unwrap();
    assert_eq!(v(""), Variant::default());
    assert_eq!(v("freestyle:15"), Variant::default());
    assert_eq!(v("renju"), Variant::new(15, 15, Rule::Renju).unwrap());
    assert_eq!(v("renju:20"), Variant::new(20, 20, Rule::Renju).unwrap());
    assert_eq!(v("20:renju"), Variant::new(20, 20, Rule::Renju).unwrap());
    assert_eq!(v("20"), Variant::new(20, 20, Rule::Freestyle).unwrap());
    assert_eq!(
        v("standard:15x20"),
        Variant::new(15, 20, Rule::Standard).unwrap()
    );
    assert_eq!(v("rule8"), Variant::new(15, 15, Rule::Caro).unwrap());
    assert_eq!(v("RULE1:5"), Variant::new(5, 5, Rule::Standard).unwrap());
    for (spec, text) in [
        ("renju:20", "renju:20"),
        ("20:renju", "renju:20"),
        ("standard:15x20", "standard:15x20"),
        ("caro", "caro"),
        ("15", ""),
        ("7x5", "7x5"),
    ] {
        assert_eq!(v(spec).to_string(), text);
    }
    let bad = |s: &str| Variant::parse(s).unwrap_err();
    assert_eq!(
        bad("23"),
        VariantError::Size {
            width: 23,
            height: 23
        }
    );
    assert_eq!(bad("4x15").to_string(), "board size 4x15 is outside 5..=22");
    assert!(matches!(bad("gomoku"), VariantError::Unknown(_)));
    assert!(bad("pro")
        .to_string()
        .contains("unknown rule or size 'pro'"));
    assert!(matches!(bad("rule2"), VariantError::Unknown(_)));
    assert!(matches!(bad("renju:caro"), VariantError::Twice(_, "rule")));
    assert!(matches!(bad("15:20"), VariantError::Twice(_, "size")));
    assert!(matches!(bad("renju::20"), VariantError::Empty(_)));
    assert!(matches!(bad("15x"), VariantError::Unknown(_)));
    // Through GameInfo, with the game's name.
    let e = Gomoku::variant("renju:30").unwrap_err();
    assert_eq!(e.game, "gomoku");
    assert!(e.reason.contains("30x30"), "{e}");
    assert_eq!(Gomoku::variant("caro:6x5").unwrap().to_text(), "caro:6x5");
    assert_eq!(Rule::from_gomocup(8), Some(Rule::Caro));
    assert_eq!(Rule::from_gomocup(9), None);
    assert_eq!(Rule::Renju.gomocup(), 4);
}

#[test]
fn position_texts_round_trip() {
    for text in [
        "",
        "h8",
        "h8 i9 h9",
        "renju",
        "renju h8 i9",
        "standard:15x20 h8",
        "20 k10 k11",
        "caro:7x5 d3",
    ] {
        let pos = Gomoku::from_text(text).unwrap();
        assert_eq!(pos.to_text(), text);
    }
    // Gomocup coordinates and a spelled-out default are read, then written the usual way.
    let pos = Gomoku::from_text("freestyle:15 7,7 8,6").unwrap();
    assert_eq!(pos.to_text(), "h8 i9");
    // The variant of a bare move list is the start's.
    let start = Gomoku::variant("renju:20").unwrap();
    let pos = Gomoku::from_text_in(&start, "k10 l11").unwrap();
    assert_eq!(pos.to_text(), "renju:20 k10 l11");
    let pos = Gomoku::from_text_in(&start, "caro h8").unwrap();
    assert_eq!(pos.to_text(), "caro h8");
    assert_eq!(pos.rule(), Rule::Caro);
    let pos = Gomoku::from_text_in(&start, "").unwrap();
    assert_eq!(pos.to_text(), "renju:20");
}

fn refused(text: &str, why: &str) {
    match Gomoku::from_text(text) {
        Err(e) => assert!(e.reason.contains(why), "{text}: {}", e.reason),
        Ok(p) => panic!("{text} read as {p:?}"),
    }
}

#[test]
fn bad_texts_are_refused_with_the_reason() {
    refused(
        "h8 h8",
        "move 2: 'h8' is not legal here: h8 is taken by Black",
    );
    refused("h8 z9", "move 2: 'z9' is not a move in gomoku");
    refused(
        "7x5 h8",
        "move 1: 'h8' is not legal here: off the 7x5 board",
    );
    refused("renju:40 h8", "board size 40x40 is outside 5..=22");
    refused("pro h8", "unknown rule or size 'pro'");
    // Black's f8..j8 is five at move 9; the list goes on.
    refused("f8 a1 g8 a3 h8 a5 i8 a7 j8 a9", "the game ended at move 9");
    refused(
        "renju g8 a1 i8 a3 h7 a5 h9 a7 h8",
        "move 9: 'h8' is not legal here: forbidden for Black in renju: double three",
    );
    // Ending exactly on the five is a finished game, not an error.
    let won = Gomoku::from_text("f8 a1 g8 a3 h8 a5 i8 a7 j8").unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Loss));
}

#[test]
fn the_diagram_shows_the_board() {
    let pos = Gomoku::from_text("7x5 d3 e3").unwrap();
    assert_eq!(
        pos.diagram(),
        " 5 . . . . . . .\n \
         4 . . . . . . .\n \
         3 . . . X[O]. .\n \
         2 . . . . . . .\n \
         1 . . . . . . .\n   \
         a b c d e f g\n\
         X Black, O White\n\
         freestyle 7x5; Black to move\n"
    );
    let edge = Gomoku::from_text("5 e1").unwrap();
    assert!(
        edge.diagram().contains(" 1 . . . .[X]\n"),
        "{}",
        edge.diagram()
    );
    let won = setup("", "f8 g8 h8 i8 j8", "a1 a3 a5 a7");
    assert!(won.diagram().ends_with("game over: five in a row\n"));
    assert_eq!(won.end_reason(), "five in a row");
}

#[test]
fn game_info() {
    assert_eq!(Gomoku::NAME, "gomoku");
    assert_eq!(Gomoku::SIDE_NAMES, ["Black", "White"]);
    assert_eq!(Gomoku::EVALUATORS, ["patterns", "textbook"]);
    assert_eq!(Gomoku::PROTOCOLS, ["gomocup"]);
    assert!(!Gomoku::VARIANTS.is_empty());
    for text in Gomoku::BENCH {
        let pos = Gomoku::from_text(text).unwrap_or_else(|e| panic!("{e}"));
        assert!(pos.outcome().is_none(), "{text}");
    }
    let start = Gomoku::variant("renju").unwrap();
    let moves = ["h8", "i9"].map(|m| start.parse_move(m).unwrap());
    let mut after = start.clone();
    after.play(moves[0]);
    let moves = [moves[0], after.parse_move("i9").unwrap()];
    assert_eq!(
        Gomoku::record(&start, &moves, &RecordInfo::default()).unwrap(),
        "renju h8 i9"
    );
}
