//! The game contract of duel.
//!
//! Everything the search needs to know about a game is here: the [`Game`] trait (the rules), the
//! [`Evaluator`] trait (the knowledge, kept apart so one game can carry several), the [`Score`]
//! type that keeps proven wins apart from heuristic values, a generic [`perft`](fn@perft), and the
//! [`conformance`] kit every game's tests run.

mod error;
mod eval;
mod game;
mod info;
mod limits;
mod profile;
mod rng;
mod score;
mod view;

pub mod conformance;
pub mod diagram;
pub mod features;
pub mod perft;
pub mod pgn;
pub mod solve;
pub mod weights;

pub use error::{MoveError, PositionError};
pub use eval::{Evaluator, ProbCut};
pub use game::{Game, Outcome, Side};
pub use info::{
    read_opening_lines, EvaluatorError, EvaluatorVisitor, GameInfo, GomocupBoard, OpeningLine,
    OpeningsError, RecordClock, RecordInfo, SuiteError, SuitePosition,
};
pub use limits::{SolveBudget, SolverStopped};
pub use perft::{perft, perft_divide};
pub use profile::SearchProfile;
pub use rng::SplitMix64;
pub use score::Score;
pub use view::{BoardStyle, BoardView, MoveCells, Piece};
