//! Text protocols, as typed values: each protocol module turns an input line into a command
//! enum or a typed error, and prints typed replies. No game logic and no search live here, so
//! the engine never sees protocol text and every malformed line has a typed answer.

pub mod gomocup;
pub mod nboard;
pub mod ucci;
pub mod uci;
pub mod xboard;

use thiserror::Error;

/// What was wrong with a line, in any protocol.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// An empty line (engines ignore it silently).
    #[error("empty line")]
    Empty,
    /// A command this engine does not know.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A known command with a missing or malformed argument.
    #[error("bad argument for '{command}': {reason}")]
    BadArgument {
        /// The command.
        command: String,
        /// What is wrong.
        reason: String,
    },
}

/// Free text on one line: a line break would start a new reply. Read text goes through it
/// too, so that a lone `\r` inside a line reads as the space it prints as.
pub(crate) fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// A line's first word and the rest, both trimmed.
pub(crate) fn first_word(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    }
}

pub(crate) fn bad(command: &str, reason: impl Into<String>) -> ParseError {
    ParseError::BadArgument {
        command: command.to_string(),
        reason: reason.into(),
    }
}
