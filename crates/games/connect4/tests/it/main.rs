//! The integration tests of duel-connect4, as one test binary (see crates/cli/tests/it/main.rs):
//! each file of tests/ would be a binary of its own, linked and optimised apart.

mod common;

mod eval;
mod mutations;
mod rules;
mod solver;
mod view;
