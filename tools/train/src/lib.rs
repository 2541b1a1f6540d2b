//! The fitting pipeline of duel's Othello pattern evaluator: self-play data labelled by the
//! exact solver ([`data`]), least-squares fitting ([`fit`]), and the speed test and the
//! evaluator match ([`mod@matches`]).

pub mod data;
pub mod fit;
pub mod matches;
pub mod texel;
