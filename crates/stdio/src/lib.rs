//! The protocol loops on standard input and output: each reads a GUI's lines into the typed
//! commands of `duel-protocol`, drives a [`duel_engine::Session`], and writes typed replies,
//! with the search on a thread of its own so that the loop answers while it runs. [`uci`]
//! serves any game, and [`ucci`] speaks UCCI through the same loop (`family`, which reads
//! each protocol's dialect as a value); [`nboard`] is Othello's,
//! [`gomocup`] Gomoku's. What they share (the reader thread, the locked output) is in `io`.

mod family;
pub mod gomocup;
mod io;
pub mod nboard;
pub mod ucci;
pub mod uci;
