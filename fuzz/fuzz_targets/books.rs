//! Openings files (`duel_arena::read_openings`, each game's `GameInfo::read_openings`): chess
//! FEN, EPD and PGN files, and one position a line, or a Piskvork opening list, for the other
//! games. Input: a byte choosing the game (and Chess960 notation), then the file. Every
//! opening read must start from a position that passes the conformance checks and play only
//! legal moves.
#![no_main]

use duel_arena::read_openings;
use duel_core::conformance::check_position;
use duel_core::GameInfo;
use libfuzzer_sys::fuzz_target;

fn check<G: GameInfo>(text: &str, chess960: bool) {
    let mut start = G::start();
    start.set_switch("UCI_Chess960", chess960);
    let Ok(openings) = read_openings(&start, text) else {
        return;
    };
    for o in openings {
        let mut pos = o.start.clone();
        if let Err(e) = check_position(&pos) {
            panic!("{}: {e}", G::NAME);
        }
        for m in &o.moves {
            match pos.parse_move(m) {
                Ok(mv) => pos.play(mv),
                Err(e) => panic!("{}: book move '{m}' refused: {e}", G::NAME),
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let chess960 = which & 0x80 != 0;
    match which % 6 {
        0 => check::<duel_tictactoe::TicTacToe>(text, chess960),
        1 => check::<duel_connect4::Connect4>(text, chess960),
        2 => check::<duel_othello::Othello>(text, chess960),
        3 => check::<duel_chess::Chess>(text, chess960),
        4 => check::<duel_gomoku::Gomoku>(text, chess960),
        _ => check::<duel_xiangqi::Xiangqi>(text, chess960),
    }
});
