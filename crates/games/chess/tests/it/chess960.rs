//! Chess960: perft against Scharnagl's published table, the three castling-field forms of FEN
//! (standard, Shredder-FEN, X-FEN), and castling written as the king taking its rook when the
//! notation is on.

use cozy_chess::Board;
use duel_chess::{parse_fen, Chess};

use crate::common::pgn;
use duel_core::conformance::{check_game, check_record, check_view};
use duel_core::Game;

const PERFT: &str = include_str!("../../../../../data/chess/chess960-perft.txt");

/// Every entry up to 1 M leaves (depths 1–4 of the 37 positions).
#[test]
fn perft_table_shallow() {
    crate::perft_table::check(PERFT, 1_000_000, 0);
}

/// Depths 4 (the largest) to 6: about 22 G leaves, minutes.
#[test]
#[ignore]
fn perft_table_deep() {
    crate::perft_table::check(PERFT, u64::MAX, 1_000_000);
}

fn chess960(fen: &str) -> Chess {
    let mut pos = Chess::from_text(fen).unwrap();
    pos.set_chess960(true);
    pos
}

/// In Chess960 notation every move of random games from the table's positions prints, parses
/// back to itself, and keeps the hash and the FEN round trip (the conformance checks). Castling
/// into a square the king could also step to is what the notation exists for.
#[test]
fn conformance_in_chess960_notation() {
    for (fen, _) in crate::perft_table::table(PERFT) {
        check_game(&chess960(&fen), 4, 960).unwrap();
        check_view(&chess960(&fen), 1, 961).unwrap();
        check_record(&chess960(&fen), 1, 962).unwrap();
    }
}

/// The castling field is read in all three forms, and written in X-FEN: `KQkq` where that
/// names the rook (the outermost one on its side), its file where it does not.
#[test]
fn castling_field_forms() {
    let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
    let a = parse_fen(shredder).unwrap();
    assert_eq!(parse_fen(xfen).unwrap(), a);
    assert_eq!(Chess::from_text(shredder).unwrap().to_text(), xfen);
    // Two rooks on the king's short side: the right to castle with the inner one is its file.
    let inner = "4k3/8/8/8/8/8/8/4K1RR w G - 0 1";
    let pos = Chess::from_text(inner).unwrap();
    assert_eq!(
        pos.board().castle_rights(cozy_chess::Color::White).short,
        Some(cozy_chess::File::G)
    );
    assert_eq!(pos.to_text(), inner);
    let outer = "4k3/8/8/8/8/8/8/4K1RR w H - 0 1";
    assert_eq!(
        Chess::from_text(outer).unwrap().to_text(),
        "4k3/8/8/8/8/8/8/4K1RR w K - 0 1"
    );
    // The standard start in every form is the standard start.
    let start = Board::default();
    for rights in ["KQkq", "HAha", "AHah"] {
        let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {rights} - 0 1");
        assert_eq!(parse_fen(&fen).unwrap(), start, "{rights}");
    }
    // Rights for a rook that is not there, or a king off its rank, are refused by name.
    for bad in [
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "4k3/8/8/8/8/8/4K3/7R w K - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w X - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w B - 0 1",
    ] {
        let e = Chess::from_text(bad).unwrap_err().to_string();
        assert!(e.contains("castling"), "{bad}: {e}");
    }
}

/// With the notation on, castling is the king taking its rook, in and out; the two-square
/// form is refused with the right form named. Off, a Chess960 position still castles the
/// standard way, as Stockfish writes it.
#[test]
fn castling_notation() {
    // King b1, rooks a1 and h1: b1c1 is also an ordinary king move.
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    let pos = chess960(fen);
    let long = pos.parse_move("b1a1").unwrap();
    assert!(pos.is_castle(long));
    assert_eq!(pos.format_move(long), "b1a1");
    assert_eq!(pos.san(long), "O-O-O");
    let step = pos.parse_move("b1c1").unwrap();
    assert!(!pos.is_castle(step), "b1c1 is the king's step");
    let short = pos.parse_move("b1h1").unwrap();
    assert_eq!(pos.san(short), "O-O");
    let mut after = pos.clone();
    after.play(short);
    assert_eq!(
        after.to_text(),
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"
    );
    // The standard start: e1h1 in Chess960 notation, e1g1 refused with the reason.
    let mut start = Chess::start();
    start.set_chess960(true);
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"] {
        let m = start.parse_move(mv).unwrap();
        start.play(m);
    }
    let castle = start.parse_move("e1h1").unwrap();
    assert_eq!(start.format_move(castle), "e1h1");
    let e = start.parse_move("e1g1").unwrap_err().to_string();
    assert!(e.contains("e1h1") && e.contains("Chess960"), "{e}");
    start.set_chess960(false);
    assert_eq!(start.format_move(castle), "e1g1");
    assert_eq!(start.parse_move("e1g1").unwrap(), castle);
}

/// A game record in Chess960 notation names the variant, as lichess and the GUIs read it.
#[test]
fn pgn_names_the_variant() {
    let pos = chess960("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1");
    let castle = pos.parse_move("b1h1").unwrap();
    let text = pgn(
        &pos,
        &[castle],
        &[],
        &[("White", "a"), ("Black", "b")],
        None,
        None,
    );
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    assert!(
        text.contains("[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\"]"),
        "{text}"
    );
    assert!(text.contains("1. O-O"), "{text}");
    let standard = pgn(&Chess::start(), &[], &[], &[], None, None);
    assert!(!standard.contains("Variant"), "{standard}");
}

/// Start 518 is the standard position; each number is Scharnagl's, in Chess960 notation.
#[test]
fn numbered_starts() {
    let standard = Chess::chess960_start(518);
    assert_eq!(standard.to_text(), duel_chess::START_FEN);
    assert!(standard.is_chess960());
    for n in [0, 1, 959] {
        assert_eq!(
            Chess::chess960_start(n).board(),
            &Board::chess960_startpos(n)
        );
    }
}
