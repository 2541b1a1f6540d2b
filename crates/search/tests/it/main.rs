//! The integration tests of duel-search, as one test binary (see crates/cli/tests/it/main.rs):
//! each file of tests/ would be a binary of its own, linked and optimised apart.

mod chess_rules;
mod differential;
mod gomoku_patterns;
mod interrupted;
mod pruning;
mod tictactoe_counts;
mod xiangqi_mates;
