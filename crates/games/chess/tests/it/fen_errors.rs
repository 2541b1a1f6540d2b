//! A refused FEN names the rule it breaks: one case per rule, and the forms that must still
//! be accepted (the acceptance itself stays `cozy-chess`'s).

use cozy_chess::FenParseError;
use duel_chess::{parse_fen, Chess, FenError, START_FEN};
use duel_core::{Game, SplitMix64};

/// The message for a FEN that must be refused.
fn refusal(fen: &str) -> String {
    match parse_fen(fen) {
        Ok(board) => panic!("{fen:?} parsed as {board}"),
        Err(e) => e.to_string(),
    }
}

/// Asserts that `fen` is refused with a message containing every one of `words`.
#[track_caller]
fn refused(fen: &str, words: &[&str]) {
    let message = refusal(fen);
    for w in words {
        assert!(message.contains(w), "{fen:?}: {message:?} lacks {w:?}");
    }
}

/// `START_FEN` with field `i` replaced.
fn start_with(i: usize, value: &str) -> String {
    let mut fields: Vec<&str> = START_FEN.split(' ').collect();
    fields[i] = value;
    fields.join(" ")
}

#[test]
fn field_count() {
    refused(&format!("{START_FEN} 7"), &["7 fields", "at most six"]);
    refused("8/8/8/8/8/8/8/8", &["1 field:", "side to move"]);
}

/// The short FENs GUIs and Fairy-Stockfish write, the board and side alone or with the
/// castling rights: the fields left out read as Stockfish and python-chess read them (no
/// castling, no en passant, counters 0 and 1).
#[test]
fn short_fens_are_accepted() {
    for (short, full) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            START_FEN,
        ),
        ("4k3/8/8/8/8/8/8/4K2R b", "4k3/8/8/8/8/8/8/4K2R b - - 0 1"),
    ] {
        assert_eq!(parse_fen(short).unwrap().to_string(), full, "{short}");
    }
}

#[test]
fn spacing() {
    let doubled = START_FEN.replace(" KQkq", "  KQkq");
    refused(&doubled, &["single spaces"]);
    refused(&START_FEN.replace(" w ", "\tw "), &["single spaces"]);
    refused(&format!(" {START_FEN}"), &["single spaces"]);
}

#[test]
fn rank_count() {
    refused(
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["9 ranks", "8"],
    );
    // Seven ranks shift the black king off its first rank, so cozy-chess blames the castling
    // rights; the missing rank is the cause to name.
    refused(
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["7 ranks"],
    );
}

#[test]
fn rank_length() {
    refused(
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["rank 7", "9 squares"],
    );
    refused(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN w KQkq - 0 1",
        &["rank 1", "7 squares"],
    );
    refused(
        "rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["rank 6", "0 squares"],
    );
}

#[test]
fn unknown_piece() {
    refused(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBXR w KQkq - 0 1",
        &["unknown piece letter 'X'", "rank 1"],
    );
}

#[test]
fn side_to_move() {
    refused(&start_with(1, "W"), &["side to move \"W\"", "'w'", "'b'"]);
}

#[test]
fn kings() {
    refused("4k3/8/8/8/8/8/8/8 w - - 0 1", &["no white king"]);
    refused("8/8/8/8/8/8/8/4K3 w - - 0 1", &["no black king"]);
    refused(
        "4k3/8/8/8/4K3/8/8/4K3 w - - 0 1",
        &["two white kings (e1, e4)"],
    );
    refused(
        "k1k1k3/8/8/8/8/8/8/4K3 w - - 0 1",
        &["three black kings (a8, c8, e8)"],
    );
}

#[test]
fn pawn_on_back_rank() {
    refused(
        "4P2k/8/8/8/8/8/8/4K3 w - - 0 1",
        &["white pawn on e8", "first or eighth rank"],
    );
    refused("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", &["black pawn on a1"]);
}

#[test]
fn too_many_pieces() {
    refused(
        "4k3/8/8/QQQQQQQQ/QQQQQQQQ/8/8/4K3 w - - 0 1",
        &["17 white pieces", "16"],
    );
    refused(
        "4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1",
        &["9 white pawns", "8"],
    );
    refused("4k3/pppppppp/p7/8/8/8/8/4K3 b - - 0 1", &["9 black pawns"]);
}

#[test]
fn side_not_to_move_in_check() {
    refused(
        "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
        &["Black, not to move, is in check", "white rook on e1"],
    );
    refused(
        "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1",
        &["White, not to move, is in check", "black pawn on d2"],
    );
}

#[test]
fn too_many_checkers() {
    refused(
        "4r2k/8/8/8/1b6/3n4/8/4K3 w - - 0 1",
        &[
            "White, to move, is in check from three pieces",
            "black bishop on b4",
            "black knight on d3",
            "black rook on e8",
        ],
    );
}

#[test]
fn castling() {
    refused(
        "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1",
        &["castling right K but no white rook on h1"],
    );
    refused(
        "r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &["castling right k but no black rook on h8"],
    );
    refused(
        "r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1",
        &["castling right K", "white king is on e2", "first rank"],
    );
    refused(
        "r3k2r/8/8/8/8/8/8/R3K2R w KKkq - 0 1",
        &["castling right K is given twice"],
    );
    refused(
        "r3k2r/8/8/8/8/8/8/R3K2R w KHkq - 0 1",
        &["castling rights K and H", "same side"],
    );
    refused(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQxq - 0 1",
        &["'x'", "names no castling right"],
    );
    // Shredder-FEN names the rook's file.
    refused(
        "r3k2r/8/8/8/8/8/8/R3K2R w GAha - 0 1",
        &["castling right G but no white rook on g1"],
    );
    // A Chess960 king on b1: no rook anywhere on its short side.
    refused(
        "1k6/8/8/8/8/8/8/RK6 w K - 0 1",
        &["castling right K", "short side (c1-h1)"],
    );
}

#[test]
fn en_passant() {
    refused(
        &start_with(3, "e9"),
        &["en passant square \"e9\" is not a square"],
    );
    refused(
        &start_with(3, "e3"),
        &[
            "en passant square e3",
            "wrong rank",
            "White to move",
            "rank 6",
        ],
    );
    refused(
        &start_with(3, "e6"),
        &["en passant square e6 but no black pawn on e5"],
    );
    refused(
        "4k3/4n3/8/4p3/8/8/8/4K3 w - e6 0 1",
        &["en passant square e6 but e7 is occupied"],
    );
    refused(
        "4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1",
        &["en passant square e6 is occupied"],
    );
    // Black in check from a knight that d2-d4 could not have uncovered (cozy-chess's own case).
    refused(
        "4k3/8/5N2/8/2pP4/8/8/4K3 b - d3 0 1",
        &[
            "en passant square d3",
            "Black is in check from the white knight on f6",
        ],
    );
}

#[test]
fn move_counters() {
    refused(
        &start_with(4, "x"),
        &["halfmove clock \"x\" is not a number"],
    );
    refused(
        &start_with(4, "150"),
        &["halfmove clock 150 is more than 100"],
    );
    refused(
        &start_with(5, "y"),
        &["fullmove number \"y\" is not a number"],
    );
    refused(&start_with(5, "0"), &["fullmove number 0", "starts at 1"]);
    refused(&start_with(5, "70000"), &["fullmove number 70000"]);
}

#[test]
fn fallback_is_cozy_chess_message() {
    let e = FenError::Other(FenParseError::InvalidBoard);
    assert_eq!(e.to_string(), FenParseError::InvalidBoard.to_string());
}

#[test]
fn from_text_names_the_rule() {
    let err = Chess::from_text("4k3/8/8/8/4K3/8/8/4K3 w - - 0 1")
        .expect_err("two white kings are refused");
    assert!(
        err.to_string()
            .contains("bad FEN: two white kings (e1, e4)"),
        "{err}"
    );
    let err =
        Chess::from_text("4P2k/8/8/8/8/8/8/4K3 w - - 0 1").expect_err("a pawn on e8 is refused");
    assert!(
        err.to_string()
            .contains("bad FEN: white pawn on e8 (pawns cannot stand on the first or eighth rank)"),
        "{err}"
    );
}

#[test]
fn valid_fens_still_parse() {
    for fen in [
        START_FEN,
        // Kiwipete.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        // Chess960 in Shredder-FEN and in X-FEN.
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KFkf - 2 9",
        // EPD-style, without the counters, and without the fullmove number.
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0",
        // An en passant square after a double step that gives check is fine.
        "8/8/8/8/3p4/8/4P3/4K2k w - - 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    ] {
        if let Err(e) = parse_fen(fen) {
            panic!("{fen:?} refused: {e}");
        }
    }
}

/// Typing slips in real FENs (a character dropped, doubled or changed) are all explained:
/// none falls back to `cozy-chess`'s bare verdict, and none panics the diagnosis.
#[test]
fn slips_are_explained() {
    const BASES: [&str; 5] = [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    let alphabet: Vec<char> = "pnbrqkPNBRQK012345678/ -wKQkqabcdefghABCDEFGHx"
        .chars()
        .collect();
    let mut rng = SplitMix64::new(7);
    let mut refused = 0;
    for _ in 0..20_000 {
        let mut chars: Vec<char> = BASES[rng.below(BASES.len())].chars().collect();
        for _ in 0..1 + rng.below(2) {
            let i = rng.below(chars.len());
            let c = alphabet[rng.below(alphabet.len())];
            match rng.below(3) {
                0 => {
                    chars.remove(i);
                }
                1 => chars[i] = c,
                _ => chars.insert(i, c),
            }
        }
        let fen: String = chars.into_iter().collect();
        if let Err(e) = parse_fen(&fen) {
            refused += 1;
            assert!(!matches!(e, FenError::Other(_)), "{fen:?}: {e}");
        }
    }
    // Most slips break the FEN; make sure the loop tested something.
    assert!(refused > 10_000, "{refused}");
}
