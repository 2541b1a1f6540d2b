//! Matches for every duel game, as a tournament manager plays them. The players are duel in
//! process (any evaluator and search options, [`DuelSpec`]) or engines as child processes over
//! UCI, xboard (CECP) or NBoard, every line a typed command or reply of `duel-protocol`
//! ([`player`]); each plays on its own clock ([`clock`]: a move after the flag falls loses);
//! the game's own rules judge the end ([`adjudicate`]: an illegal move loses too, and so does
//! a crash, a hang or garbage where a move is due, after which the engine is started again:
//! each a [`Fault`], counted per player); openings
//! are random plies from the start for any game, or read from an openings file in the game's
//! own formats ([`openings`]), each played twice with colours swapped; games run several at a time or in
//! shards over several machines ([`schedule`], [`results`]); every game is kept in the
//! game's record format (PGN, GGF); and the score comes as an Elo difference with its 95%
//! interval, by games and by pairs ([`stats`]), or as a sequential test ([`sprt`]) that stops
//! the match once it has decided.

pub mod adjudicate;
pub mod clock;
mod error;
mod game;
pub mod openings;
pub mod player;
mod probe;
pub mod results;
pub mod schedule;
pub mod sprt;
pub mod stats;

pub use adjudicate::{Adjudication, Fault, GameResult, WinRule};
pub use clock::{Clocks, TimeControl};
pub use duel_core::OpeningsError;
pub use error::{ArenaError, SpecError};
pub use game::{play_game, Played};
pub use openings::file::read_openings;
pub use openings::{random_openings, Opening};
pub use player::{DuelSpec, Player, ProgramSpec, Protocol};
pub use probe::{Analyst, Choice};
pub use results::{merge, GameOutcome, MatchParams, MergeError, RunResults};
pub use schedule::{pgn_date, run_match, Schedule, Shard};
pub use sprt::{Sprt, Verdict};
pub use stats::{elo_interval, Faults, Pairs, Standings, Tally};
