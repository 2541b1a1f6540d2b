//! The fitting pipeline of duel's Othello pattern evaluator: self-play data labelled by the
//! exact solver ([`data`]), least-squares fitting ([`fit`]), the speed test and the
//! evaluator match ([`mod@matches`]), and Multi-ProbCut's error model ([`probcut`]).

pub mod data;
pub mod fit;
pub mod matches;
pub mod probcut;
pub mod texel;
