//! The integration tests of duel-protocol, as one test binary (see crates/cli/tests/it/main.rs):
//! each file of tests/ would be a binary of its own, linked and optimised apart.

mod gomocup;
mod parsers;
mod uci;
