//! The integration tests of duel-engine, as one test binary (see crates/cli/tests/it/main.rs).

mod compare_exact;
mod facade;
mod parsers;
