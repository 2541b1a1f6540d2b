//! Text protocols, as typed values: each protocol module turns an input line into a command
//! enum or a typed error, and prints typed replies. No game logic and no search live here, so
//! the engine never sees protocol text and every malformed line has a typed answer.

pub mod nboard;
pub mod uci;
