//! The rules: conformance, how each piece moves, how a game ends, FEN and move text with
//! their errors.

use duel_core::conformance::{check_game, check_record, check_view};
use duel_core::{Game, GameInfo, MoveError, Outcome};
use duel_xiangqi::{Xiangqi, START_FEN};

use crate::common::{perft_table, play, pos};

#[test]
fn conformance_from_the_start() {
    check_game(&Xiangqi::start(), 8, 1).unwrap();
    check_view(&Xiangqi::start(), 3, 2).unwrap();
    check_record(&Xiangqi::start(), 3, 3).unwrap();
}

#[test]
fn conformance_from_the_perft_positions() {
    for (i, entry) in perft_table().iter().enumerate().skip(1) {
        let p = pos(&entry.fen);
        let seed = 10 * i as u64;
        check_game(&p, 3, seed).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        check_view(&p, 1, seed + 1).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        check_record(&p, 1, seed + 2).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
    }
}

/// The legal moves of the piece on `from`, as ICCS text.
fn moves_from(p: &Xiangqi, from: &str) -> Vec<String> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut out: Vec<String> = moves
        .iter()
        .map(|&m| p.format_move(m))
        .filter(|t| t.starts_with(from))
        .collect();
    out.sort();
    out
}

#[test]
fn each_piece_moves_by_its_rules() {
    let start = Xiangqi::start();
    // The cannon slides to any empty point and takes the horse over the cannon on h7, never the
    // cannon itself.
    assert_eq!(
        moves_from(&start, "h2"),
        [
            "h2c2", "h2d2", "h2e2", "h2f2", "h2g2", "h2h1", "h2h3", "h2h4", "h2h5", "h2h6", "h2h9",
            "h2i2"
        ]
    );
    // The horse's leg: b1 blocked, so only d1 (over c0) is left.
    let leg = pos("4k4/9/9/9/9/9/9/9/1R7/1N1K5 w - - 0 1");
    assert_eq!(moves_from(&leg, "b0"), ["b0d1"]);
    // The elephant: its eye d3 blocked, never across the river; from c4 back to a2 and e2.
    let eye = pos("4k4/9/9/9/9/2B6/3N5/4B4/9/3K5 w - - 0 1");
    assert_eq!(moves_from(&eye, "e2"), ["e2c0", "e2g0", "e2g4"]);
    assert_eq!(moves_from(&eye, "c4"), ["c4a2"]);
    // Advisors and the general keep to the palace.
    let palace = pos("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    assert_eq!(moves_from(&palace, "e1"), ["e1d2", "e1f0", "e1f2"]);
    // The general may step behind its advisor onto the generals' file, which the advisor
    // still blocks.
    assert_eq!(moves_from(&palace, "d0"), ["d0d1", "d0e0"]);
    // Soldiers: forward only before the river, forward or sideways after; never back.
    let soldiers = pos("3k5/9/9/4P4/9/2P6/9/9/9/5K3 w - - 0 1");
    assert_eq!(moves_from(&soldiers, "c4"), ["c4c5"]);
    assert_eq!(moves_from(&soldiers, "e6"), ["e6d6", "e6e7", "e6f6"]);
    // A soldier on the last rank goes sideways only.
    let last = pos("P2k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(moves_from(&last, "a9"), ["a9b9"]);
}

#[test]
fn the_generals_never_face_each_other() {
    // The advisor on e1 is the only piece between the generals: it cannot move, and neither
    // general may step onto the open file.
    let p = pos("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
    assert!(moves_from(&p, "e1").is_empty());
    assert_eq!(moves_from(&p, "e0"), ["e0d0", "e0f0"]);
    let e = p.parse_move("e1d2").unwrap_err();
    assert!(
        matches!(&e, MoveError::Illegal { reason, .. } if reason.contains("facing")),
        "{e}"
    );
    let black = pos("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_eq!(moves_from(&black, "d9"), ["d9d8"]);
}

#[test]
fn no_legal_move_loses_mate_or_not() {
    // Checkmate: the chariot on the file, the soldier guarding e9 and f8.
    let mate = pos("5k3/4P4/9/9/5R3/9/9/9/9/3K5 b - - 0 1");
    assert!(mate.in_check());
    assert_eq!(mate.outcome(), Some(Outcome::Loss));
    assert_eq!(GameInfo::end_reason(&mate), "checkmate");
    // Stalemate loses too: the king on d9 has no move and is not in check.
    let stale = pos("3k5/4P4/9/9/9/9/9/9/9/5K3 b - - 0 1");
    assert!(!stale.in_check());
    assert_eq!(stale.outcome(), Some(Outcome::Loss));
    assert_eq!(GameInfo::end_reason(&stale), "stalemate");
    let mut moves = Vec::new();
    stale.generate_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn sixty_moves_without_a_capture_draw() {
    let mut p = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80");
    assert_eq!(p.outcome(), None);
    play(&mut p, "a0a1");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(GameInfo::end_reason(&p), "60 moves without a capture");
    // At a search's root the arbiter decides: the engine still has its moves.
    let mut root = pos("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 120 80");
    root.begin_search();
    assert_eq!(root.outcome(), None);
    // A capture starts the count again.
    let mut take = pos("3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 119 80");
    play(&mut take, "a0a1");
    assert_eq!(take.no_capture_plies(), 0);
    assert_eq!(take.outcome(), None);
}

#[test]
fn fen_round_trips_and_its_forms() {
    let start = Xiangqi::start();
    assert_eq!(start.to_text(), START_FEN);
    for text in [
        "",
        "startpos",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w",
    ] {
        let p = Xiangqi::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.to_text(), START_FEN, "{text}");
    }
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert_eq!(black.ply(), 1);
    assert_eq!(black.no_capture_plies(), 1);
    let later = pos("4k4/9/9/9/9/9/9/9/9/3K5 b - - 7 31");
    assert_eq!(later.ply(), 61);
    assert_eq!(later.to_text(), "4k4/9/9/9/9/9/9/9/9/3K5 b - - 7 31");
}

#[test]
fn bad_fens_say_what_is_wrong() {
    let cases = [
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
            "10 ranks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            "more than 9",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            "8 points",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "'X' is not a piece",
        ),
        ("3k5/9/9/9/9/9/9/9/9/3K1K3 w", "at most 1"),
        ("9/9/9/9/9/9/9/9/9/4K4 w", "Black has no general"),
        ("3k5/9/9/9/9/9/9/9/9/K8 w", "Red general cannot stand on a0"),
        ("3k5/9/9/9/9/9/9/9/9/4A1K2 w", "advisor cannot stand on e0"),
        ("3k5/9/9/9/9/9/9/9/9/4BK3 w", "elephant cannot stand on e0"),
        ("3k5/9/9/9/RRR6/9/9/9/9/4K4 w", "3 pieces 'R', at most 2"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "generals face"),
        ("3k5/9/9/9/9/9/9/9/3R5/4K4 w", "Black general is attacked"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 x", "side to move 'x'"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1", "not a number"),
        (
            "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra",
            "unexpected 'extra'",
        ),
        ("3k5/9/9/9/9/9/9/9/9/40K4 w", "0 empty"),
        (
            "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 4294967295",
            "more than 1000000",
        ),
    ];
    for (fen, why) in cases {
        let e = Xiangqi::from_text(fen).unwrap_err();
        assert!(e.reason.contains(why), "{fen}: {}", e.reason);
        assert_eq!(e.game, "xiangqi");
    }
}

#[test]
fn move_text_is_checked_for_syntax_then_legality() {
    let start = Xiangqi::start();
    // (`C2.5` is WXF, read since issue 70; `C0.5` and `X2.5` are neither notation.)
    for text in [
        "h2", "h2e22", "j2e2", "h2e", "C0.5", "X2.5", "h2=e2", "h-2e2", "",
    ] {
        assert!(
            matches!(start.parse_move(text), Err(MoveError::Syntax { .. })),
            "{text}"
        );
    }
    for (text, why) in [
        ("h2h8", "cannon on h2 does not move to h8"),
        ("a3a5", "soldier on a3 does not move to a5"),
        ("a6a5", "no Red piece on a6"),
        ("e5e6", "no Red piece on e5"),
        ("a0a3", "chariot on a0 does not move to a3"),
    ] {
        match start.parse_move(text) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains(why), "{text}: {reason}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Either case, and ICCS's own form with a hyphen.
    let mv = start.parse_move("h2e2").unwrap();
    assert_eq!(start.parse_move("H2E2"), Ok(mv));
    assert_eq!(start.parse_move(" H2-E2 "), Ok(mv));
    // A finished game takes no move.
    let mate = pos("5k3/4P4/9/9/5R3/9/9/9/9/3K5 b - - 0 1");
    match mate.parse_move("f9e9") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("checkmate"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

/// Soldiers behind their start, as composed endgames place them (data/xiangqi/mate-puzzles.txt's
/// xq_jianghu_endgames_084 has a Black one on f9): read, and moved forward only, since they
/// have not crossed the river.
#[test]
fn soldiers_behind_their_start_move_forward() {
    for (fen, from, only) in [
        ("3k1p3/9/9/9/9/9/9/9/9/4K4 b", "f9", "f9f8"),
        ("3k5/9/9/9/9/9/9/9/P8/4K4 w", "a1", "a1a2"),
        ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", "b3", "b3b4"),
    ] {
        let p = pos(fen);
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        let from_there: Vec<String> = moves
            .iter()
            .map(|&m| p.format_move(m))
            .filter(|m| m.starts_with(from))
            .collect();
        assert_eq!(from_there, [only], "{fen}");
    }
    let puzzle = pos("3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1");
    assert_eq!(
        puzzle.to_text(),
        "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1"
    );
}
