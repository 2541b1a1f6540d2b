//! The protocol loops on standard input and output: each reads a GUI's lines into the typed
//! commands of `duel-protocol`, drives a [`duel_engine::Session`], and writes typed replies,
//! with the search on a thread of its own so that the loop answers while it runs. [`uci`]
//! serves any game, and [`ucci`] speaks UCCI through the same loop; [`nboard`] is Othello's,
//! [`gomocup`] Gomoku's. What they share (the reader thread, the locked output) is in `io`.

pub mod gomocup;
mod io;
pub mod nboard;
pub mod ucci;
pub mod uci;
