//! The integration tests of duel-othello, as one test binary (see crates/cli/tests/it/main.rs):
//! each file of tests/ would be a binary of its own, linked and optimised apart.

mod book;
mod common;

mod ggf;
mod pattern;
mod perft;
mod rules;
mod solver;
mod textbook;
mod view;
