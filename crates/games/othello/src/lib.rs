//! Othello (Reversi) for duel: rules on bitboards, the FFO position text, GGF game records, perft
//! with the convention of `data/othello/perft.txt`, the founding text's evaluator and an exact
//! endgame solver.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, the order in which
//! the FFO files and GGF list the board. A position's text is those 64 squares (`X` black, `O`
//! white, `-` empty) then a space and the side to move:
//!
//! ```
//! use duel_core::Game;
//! use duel_othello::Othello;
//!
//! let start = Othello::start();
//! assert_eq!(
//!     start.to_text(),
//!     "---------------------------OX------XO--------------------------- X"
//! );
//! assert_eq!(start.parse_move("f5").unwrap().to_string(), "f5");
//! ```
//!
//! A pass is a move (`PA`), legal exactly when the side to move has no move and the opponent
//! has one; the game ends when neither side can move.
//!
//! - [`Othello`] and [`Move`]: the rules ([`duel_core::Game`]), with the bitboard helpers the
//!   evaluators and the solver use; [`bitboard`] holds the move and flip generation itself.
//! - [`ggf`]: game records as NBoard sends them ([`parse_ggf`], [`to_ggf`]; [`read_ggf`] and
//!   [`GgfGame`] with the clocks and move times).
//! - [`perft`]: the reference count and the fast bulk-counting one.
//! - [`Textbook`]: the founding text's evaluation and its corner rule for move ordering.
//! - [`Pattern`] ([`pattern`]): the fitted pattern evaluator; [`pattern_file`]: its weights
//!   file's format, reader and writer.
//! - [`book`]: the opening book ([`book::Book`]): positions valued by duel's searches,
//!   negamaxed, grown by drop-out expansion and by learning games, and its file format.
//! - [`solver`]: the exact endgame solver ([`Solver`]), disc difference with empties to the
//!   winner, as the FFO test positions count it.

pub mod bitboard;
mod board;
pub mod book;
pub mod estimate;
pub mod ggf;
mod info;
pub mod pattern;
pub mod pattern_file;
pub mod perft;
pub mod solver;
mod textbook;

pub use board::{final_score, Move, Othello};
pub use estimate::Estimate;
pub use ggf::{parse_ggf, read_ggf, to_ggf, GgfGame};
pub use info::{solve_reach, QUICK_SOLVE_EMPTIES, SOLVE_MAX_EMPTIES};
pub use pattern::Pattern;
pub use solver::{Solution, Solver};
pub use textbook::{Feature, Textbook, CORNER_AFTER_X_HINT, HINT_SCALE, SQUARE_WEIGHTS, WEIGHTS};
