//! The integration tests of duel-chess, as one test binary (see crates/cli/tests/it/main.rs):
//! each file of tests/ would be a binary of its own, linked and optimised apart.

mod common;
mod perft_table;

mod chess960;
mod fen_errors;
mod nnue;
mod rules;
mod strong;
mod view;
