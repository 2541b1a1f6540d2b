//! The integration tests of duel-xiangqi, as one test binary (see crates/cli/tests/it/main.rs):
//! each file of tests/ would be a binary of its own, linked and optimised apart.

mod common;

mod eval;
mod notation;
mod perft;
mod rules;
mod rulings;
mod view;
