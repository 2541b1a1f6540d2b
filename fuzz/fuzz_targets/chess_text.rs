//! Chess FEN (`parse_fen`, with the Shredder and X-FEN castling forms) and SAN
//! (`Chess::parse_san`, `Chess::san`). Input: a byte choosing Chess960 notation, then a FEN,
//! optionally a NUL and a move in SAN to read in it.
#![no_main]

use duel_chess::{parse_fen, Chess};
use duel_core::conformance::check_position;
use duel_core::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (fen, san) = text.split_once('\0').unwrap_or((text, ""));
    let Ok(board) = parse_fen(fen) else {
        return;
    };
    // duel's FEN, not cozy-chess's `Display`: that writes `KQkq` even for an inner rook's
    // right, which then reads back as the outer rook's.
    let mut pos = Chess::from_board(board.clone());
    let printed = pos.to_text();
    match parse_fen(&printed) {
        Ok(back) => assert!(
            back == board,
            "'{fen}' printed as '{printed}', read back otherwise"
        ),
        Err(e) => panic!("'{fen}' printed as '{printed}', refused: {e}"),
    }
    pos.set_chess960(flags & 1 != 0);
    if let Err(e) = check_position(&pos) {
        panic!("'{fen}': {e}");
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for &m in &moves {
        let written = pos.san(m);
        assert_eq!(pos.parse_san(&written), Ok(m), "'{written}' in '{fen}'");
    }
    if let Ok(m) = pos.parse_san(san) {
        assert!(
            moves.contains(&m),
            "'{san}' read as {m:?} in '{fen}', not legal"
        );
    }
});
