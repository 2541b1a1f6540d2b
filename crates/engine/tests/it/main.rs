//! The integration tests of duel-engine, as one test binary (see crates/cli/tests/it/main.rs).

mod facade;
mod parsers;
