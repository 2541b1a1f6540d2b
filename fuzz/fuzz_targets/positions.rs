//! Every game's position text and move notation (`Game::from_text`, `parse_move`) and its
//! record reader (`GameInfo::read_record`: chess and xiangqi PGN, Othello GGF, move lists).
//! Input: a byte choosing the game and what to read, then the text; for a position, a NUL
//! separates it from a move to read in it.
#![no_main]

use duel_core::conformance::{check_record_text, check_text};
use duel_core::GameInfo;
use libfuzzer_sys::fuzz_target;

fn check<G: GameInfo>(record: bool, text: &str) {
    let result = if record {
        check_record_text(&G::start(), text)
    } else {
        let (position, mv) = text.split_once('\0').unwrap_or((text, ""));
        check_text::<G>(position, mv)
    };
    if let Err(e) = result {
        panic!("{}: {e}", G::NAME);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let record = which & 0x80 != 0;
    match which % 6 {
        0 => check::<duel_tictactoe::TicTacToe>(record, text),
        1 => check::<duel_connect4::Connect4>(record, text),
        2 => check::<duel_othello::Othello>(record, text),
        3 => check::<duel_chess::Chess>(record, text),
        4 => check::<duel_gomoku::Gomoku>(record, text),
        _ => check::<duel_xiangqi::Xiangqi>(record, text),
    }
});
