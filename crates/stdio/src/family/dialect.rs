//! What one protocol of the UCI family is to the loop: a [`Dialect`], a value of plain data and
//! functions, which says how the protocol's lines read into the loop's [`Request`]s and how
//! what the loop says ([`Said`]) is written in the protocol's words. The loop reads it and
//! names no protocol; a protocol's module describes its dialect and imports no other.

use std::time::Duration;

use duel_engine::TableProbe;

use super::options::Spec;
use super::{Command, ParseError, Position, Reply};

/// One protocol of the family, as the loop reads it.
pub(crate) struct Dialect {
    /// Reads one line of the protocol into what it asks of the loop.
    pub read: fn(&str) -> Result<Request, ReadError>,
    /// Writes what the loop says as the protocol's lines: none, one or several.
    pub write: fn(Said) -> Vec<String>,
    /// The name an option of the table is announced by.
    pub option_name: fn(&Spec) -> String,
    /// What the value of a check option means, given trimmed and in lower case: on, off, or
    /// nothing the protocol knows.
    pub check_word: fn(&str) -> Option<bool>,
    /// Whether moves count ranks as UCI does (`GameInfo::UCI_RANK_OFFSET`: xiangqi in
    /// Fairy-Stockfish's UCI counts from 1), or as the game's own notation does.
    pub shifts_ranks: bool,
    /// Whether the game can be changed (`UCI_Variant`, Fairy-Stockfish's option): a dialect
    /// that speaks one engine's single game (Pikafish's xiangqi) neither offers nor takes it.
    pub chooses_game: bool,
}

/// What a line asks of the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Request {
    /// One of the family's commands (UCI's), which a dialect reads most of its lines into.
    Command(Command),
    /// Moves the searches leave out, until the next position.
    Ban(Vec<String>),
    /// What the transposition table holds for a position.
    Probe(Position),
    /// The unit of `go`'s times from now on (milliseconds until a dialect says otherwise).
    TimeUnit(Duration),
    /// Nothing: a well-formed line that changes nothing here (a GUI's setting that does not
    /// apply).
    Nothing,
}

/// What the loop says, in no protocol's words yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Said {
    /// One of the family's replies (UCI's).
    Reply(Reply),
    /// What the table holds for the position of a [`Request::Probe`].
    Table(Option<TableProbe>),
    /// A `stop` came with nothing to stop.
    NothingToStop,
    /// `go` has no position to search: the last `position` was refused. The protocol's null
    /// answer, never a move for a position the GUI did not send.
    NoPosition,
    /// The loop ends, at `quit`.
    Bye,
}

impl From<Reply> for Said {
    fn from(reply: Reply) -> Self {
        Said::Reply(reply)
    }
}

/// A line the dialect cannot read: malformed, or a value one of its own options refuses.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    /// The line is no command of the protocol, or a command with a bad argument.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A check option of the dialect's own was given another value than its words.
    #[error("option '{name}' takes {words}, not '{value}'")]
    NotCheck {
        /// The option, as the GUI named it.
        name: String,
        /// The value given.
        value: String,
        /// The words it takes.
        words: &'static str,
    },
}
