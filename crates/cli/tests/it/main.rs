//! The command line's integration tests, as one test binary: each file of tests/ would be a
//! binary of its own, linked and optimised apart, and the build is most of CI's time.

mod common;
mod transcript;

mod cli;
mod corpus;
mod faults;
mod gomocup;
mod matches;
mod nboard;
mod readme;
mod registry;
mod serve;
mod suite;
mod ucci;
mod uci;
