//! UCI on standard input and output (`duel uci`): the UCI family's loop (`family`) in
//! UCI's own words. This module is UCI's dialect: lines read by [`duel_protocol::uci::parse`]
//! are the loop's commands as they are, replies are written as UCI writes them, options are
//! announced under their names and take `true` and `false`, and moves count ranks as UCI does
//! (xiangqi in Fairy-Stockfish's UCI counts from 1, its own notation from 0). UCI answers
//! nothing to a `stop` with no search and nothing to `quit`.

use std::io::{Read, Write};

use duel_engine::EngineError;
use duel_protocol::uci::parse;

use crate::family::{self, Dialect, ReadError, Request, Said};

/// Settings of the loop: the engine's name and the game.
pub use crate::family::LoopOptions as UciOptions;

/// UCI's dialect of the family's loop.
static DIALECT: Dialect = Dialect {
    read,
    write,
    option_name: |spec| spec.name.to_string(),
    check_word,
    shifts_ranks: true,
};

/// A UCI line is a command of the loop as it is.
fn read(line: &str) -> Result<Request, ReadError> {
    Ok(Request::Command(parse(line)?))
}

/// The loop's replies are UCI's; what else the loop says has no words in UCI (no line asks
/// for a table's contents).
fn write(said: Said) -> Vec<String> {
    match said {
        Said::Reply(reply) => vec![reply.to_string()],
        // The UCI specification's null move, which GUIs read as no move.
        Said::NoPosition => vec!["bestmove 0000".to_string()],
        Said::Table(_) | Said::NothingToStop | Said::Bye => Vec::new(),
    }
}

/// A check option's words.
fn check_word(word: &str) -> Option<bool> {
    match word {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// Runs the UCI protocol on `input` and `output` until `quit` or the end of the input.
pub fn run(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    opts: UciOptions,
) -> Result<(), EngineError> {
    family::run(input, output, opts, &DIALECT)
}
