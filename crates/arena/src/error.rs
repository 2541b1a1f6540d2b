//! What can go wrong in a match, typed: the flags and files read before it, and the players
//! during it. A player's error in a game is the player's fault when [`ArenaError::fault`]
//! says so (it loses that game and the match goes on); any other stops the match.

use std::time::Duration;

use thiserror::Error;

use crate::Fault;

/// Why a match (or one engine's answer) failed.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// An engine's command line is empty.
    #[error("an engine command is empty")]
    EmptyCommand,
    /// The program could not be started. (What the system said is in the message, not a
    /// source, so that it is said once.)
    #[error("cannot start '{command}': {}", start_reason(.cause))]
    Start {
        /// The command line.
        command: String,
        /// What the system said.
        cause: std::io::Error,
    },
    /// An option given for the engine that it did not announce.
    #[error(
        "{engine} has no option '{name}'; it announced: {}",
        if announced.is_empty() { "none".to_string() } else { announced.join(", ") }
    )]
    UnknownOption {
        /// The engine's name.
        engine: String,
        /// The option given.
        name: String,
        /// The options the engine announced.
        announced: Vec<String>,
    },
    /// A line could not be written to the engine.
    #[error("{engine}: cannot write to the engine: {source}")]
    Write {
        /// The engine's name.
        engine: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The engine said nothing in time during the handshake or a synchronisation.
    #[error("{engine}: no answer within {wait:?}")]
    NoAnswer {
        /// The engine's name.
        engine: String,
        /// How long it was given.
        wait: Duration,
    },
    /// The engine's process ended.
    #[error("{engine}: the engine exited{during}")]
    Exited {
        /// The engine's name.
        engine: String,
        /// `" during a search"` or nothing.
        during: &'static str,
    },
    /// Where its answer was due, the engine wrote a line that is not one in its protocol (an
    /// unreadable `bestmove`), or broke the protocol (refused a move of the game).
    #[error("{engine} {what}")]
    Garbage {
        /// The engine's name.
        engine: String,
        /// What it did, in words to follow its name: `sent garbage: an unreadable answer
        /// 'bestmove': ...`.
        what: String,
    },
    /// A player that failed in a game (crashed, hung, answered garbage) could not be made
    /// again for its next one.
    #[error("{engine} failed in a game and could not be started again for game {game}: {cause}")]
    Restart {
        /// The player's name.
        engine: String,
        /// The game it was to play next, from 1.
        game: usize,
        /// Why it could not be made: shown in the message, not chained as its source, which
        /// a report of the whole chain would print twice.
        cause: Box<ArenaError>,
    },
    /// The engine cannot do what the match asks of it (a node limit over xboard, a start it
    /// cannot be given).
    #[error("{engine}: {reason}")]
    Unable {
        /// The engine's name.
        engine: String,
        /// What it cannot do.
        reason: String,
    },
    /// An engine's move in a single-position probe (`duel suite --engine`) is not legal.
    #[error("{engine}: an illegal move {mv} in {position}: {source}")]
    IllegalProbe {
        /// The engine's name.
        engine: String,
        /// The move as sent.
        mv: String,
        /// The position.
        position: String,
        /// Why it is refused.
        source: Box<duel_core::MoveError>,
    },
    /// An opening's move is not legal in its position.
    #[error("opening move {mv}: {source}")]
    Opening {
        /// The move as given.
        mv: String,
        /// Why it is refused.
        source: Box<duel_core::MoveError>,
    },
    /// The match has no opening to play.
    #[error("no openings")]
    NoOpenings,
    /// An in-process player could not be made.
    #[error(transparent)]
    Evaluator(#[from] duel_core::EvaluatorError),
    /// An in-process player's table could not be allocated.
    #[error("{0}")]
    Table(#[from] duel_search::TtError),
}

impl ArenaError {
    /// The fault this error is when a player meets it during a game, and what the player did
    /// in words to follow its name (`crashed: the engine exited during a search`). None for
    /// an error that would come back in every game (a limit the engine cannot obey, a set-up
    /// it refuses), which stops the match instead.
    pub fn fault(&self) -> Option<(Fault, String)> {
        match self {
            ArenaError::Exited { during, .. } => {
                Some((Fault::Crash, format!("crashed: the engine exited{during}")))
            }
            ArenaError::Write { source, .. } => Some((
                Fault::Crash,
                format!("crashed: cannot write to the engine: {source}"),
            )),
            ArenaError::NoAnswer { wait, .. } => Some((
                Fault::Crash,
                format!("stopped answering: no answer within {wait:?}"),
            )),
            ArenaError::Garbage { what, .. } => Some((Fault::Garbage, what.clone())),
            _ => None,
        }
    }
}

/// A flag or spec the arena reads that is malformed: the text and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{what} '{text}': {reason}")]
pub struct SpecError {
    /// What was being read (`time control`, `shard`, `player`).
    pub what: &'static str,
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl SpecError {
    pub(crate) fn new(what: &'static str, text: &str, reason: impl Into<String>) -> Self {
        SpecError {
            what,
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// What the system said when a program could not start, with what to do where it is clear.
fn start_reason(cause: &std::io::Error) -> String {
    match cause.kind() {
        std::io::ErrorKind::NotFound => format!(
            "{cause}: no such program; give its path, or install it on the PATH \
             (scripts/install-engines.sh installs the outside engines the tests use)"
        ),
        std::io::ErrorKind::PermissionDenied => {
            format!("{cause}: the file is not executable (chmod +x, or give the program)")
        }
        _ => cause.to_string(),
    }
}
