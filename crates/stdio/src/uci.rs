//! UCI on standard input and output (`duel uci`): the UCI family's loop (`family`) in
//! UCI's own words. UCI has two dialects here ([`UciDialect`]), each a `Dialect` value of the
//! loop, and they differ only in xiangqi's notation and in what they offer:
//!
//! - [`UciDialect::Fairy`], the default: UCI as Stockfish speaks it, and for the other games
//!   as Fairy-Stockfish does. `UCI_Variant` chooses the game, and xiangqi's moves count ranks
//!   from 1 (`h3e3`) where the game's own ICCS counts from 0.
//! - [`UciDialect::Pikafish`]: xiangqi as Pikafish and the GUIs written for it speak UCI.
//!   Moves are ICCS (`h2e2`), there is no `UCI_Variant` (Pikafish plays one game), and a `go`
//!   with no move to give answers `bestmove (none)`, Pikafish's words for no move.
//!
//! Both read lines with [`duel_protocol::uci::parse`] as the loop's commands as they are,
//! write replies as UCI writes them, announce options under their names, take `true` and
//! `false` for check options, and answer nothing to a `stop` with no search and to `quit`.

use std::io::{Read, Write};
use std::str::FromStr;

use duel_engine::EngineError;
use duel_protocol::uci::parse;

use crate::family::{self, Dialect, ReadError, Reply, Request, Said};

/// Settings of the loop: the engine's name and the game.
pub use crate::family::LoopOptions as UciOptions;

/// Which UCI the loop speaks: the programs people already use speak two for xiangqi.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum UciDialect {
    /// Stockfish's UCI, Fairy-Stockfish's for the other games: `UCI_Variant`, and xiangqi's
    /// ranks counted from 1.
    #[default]
    Fairy,
    /// Pikafish's UCI for xiangqi: ranks counted from 0 as ICCS counts them, no
    /// `UCI_Variant`, `bestmove (none)` when there is no move to give.
    Pikafish,
}

impl UciDialect {
    /// Every dialect, in the order the command line lists them.
    pub const ALL: [UciDialect; 2] = [UciDialect::Fairy, UciDialect::Pikafish];

    /// The dialect's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            UciDialect::Fairy => "fairy",
            UciDialect::Pikafish => "pikafish",
        }
    }

    /// The game the loop plays when none is named: the one GUIs load an engine of this
    /// dialect for.
    pub fn default_game(self) -> &'static str {
        match self {
            UciDialect::Fairy => "chess",
            UciDialect::Pikafish => "xiangqi",
        }
    }

    fn dialect(self) -> &'static Dialect {
        match self {
            UciDialect::Fairy => &FAIRY,
            UciDialect::Pikafish => &PIKAFISH,
        }
    }
}

/// A name that is no dialect's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown UCI dialect '{0}' (fairy or pikafish)")]
pub struct UnknownDialect(pub String);

impl FromStr for UciDialect {
    type Err = UnknownDialect;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        UciDialect::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownDialect(text.to_string()))
    }
}

/// Stockfish's and Fairy-Stockfish's dialect of the family's loop.
static FAIRY: Dialect = Dialect {
    read,
    write,
    option_name: |spec| spec.name.to_string(),
    check_word,
    shifts_ranks: true,
    chooses_game: true,
};

/// Pikafish's dialect of the family's loop.
static PIKAFISH: Dialect = Dialect {
    read,
    write: write_pikafish,
    option_name: |spec| spec.name.to_string(),
    check_word,
    shifts_ranks: false,
    chooses_game: false,
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

/// [`write`], but with no position to search Pikafish's own `bestmove (none)`: the GUIs
/// written for it know that word for no move, and some (cchess) read `0000` as a move, then
/// wait for ever for one they can play.
fn write_pikafish(said: Said) -> Vec<String> {
    match said {
        Said::NoPosition => write(Said::Reply(Reply::BestMove {
            mv: None,
            ponder: None,
        })),
        other => write(other),
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

/// Runs the UCI protocol in `dialect` on `input` and `output` until `quit` or the end of the
/// input.
pub fn run(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    opts: UciOptions,
    dialect: UciDialect,
) -> Result<(), EngineError> {
    family::run(input, output, opts, dialect.dialect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_by_name_and_their_null_answers() {
        for d in UciDialect::ALL {
            assert_eq!(d.name().parse::<UciDialect>(), Ok(d));
        }
        assert_eq!("Pikafish".parse::<UciDialect>(), Ok(UciDialect::Pikafish));
        let e = "elephanteye".parse::<UciDialect>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown UCI dialect 'elephanteye' (fairy or pikafish)"
        );
        assert_eq!(write(Said::NoPosition), ["bestmove 0000"]);
        assert_eq!(write_pikafish(Said::NoPosition), ["bestmove (none)"]);
        assert_eq!(write_pikafish(Said::NothingToStop), Vec::<String>::new());
    }
}
