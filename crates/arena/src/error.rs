//! What can go wrong in a match, typed: the flags and files read before it, and the players
//! during it.

use std::time::Duration;

use thiserror::Error;

/// Why a match (or one engine's answer) failed.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// An engine's command line is empty.
    #[error("an engine command is empty")]
    EmptyCommand,
    /// The program could not be started.
    #[error("cannot start '{command}': {source}")]
    Start {
        /// The command line.
        command: String,
        /// What the system said.
        source: std::io::Error,
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

/// A flag or spec the arena reads that is malformed: the text and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{what} '{text}': {reason}")]
pub struct ParseError {
    /// What was being read (`time control`, `shard`, `player`).
    pub what: &'static str,
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl ParseError {
    pub(crate) fn new(what: &'static str, text: &str, reason: impl Into<String>) -> Self {
        ParseError {
            what,
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}
