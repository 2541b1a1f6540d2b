//! The integration tests of duel-gomoku, as one test binary (see crates/cli/tests/it/main.rs):
//! each file of tests/ would be a binary of its own, linked and optimised apart.

mod common;

mod eval;
mod patterns;
mod proofs;
mod renju;
mod rules;
mod solve;
mod text;
mod vcf;
mod view;
