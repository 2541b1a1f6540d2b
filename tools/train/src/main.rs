//! `duel-train`: the pipelines that fit duel's evaluators and grow its Othello book, each step
//! a command named `<game>-<step>`. This file parses the command line and hands each command
//! to its pipeline's module in `commands/`; README.md lists the pipelines, and each game's
//! `weights/README.md` (chess: `nets/README.md`; Othello: `book/README.md`) the commands that
//! produced its committed files.

mod book;
mod chess;
mod commands;
mod gomoku;
mod linear;
mod nnue;
mod xiangqi;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use commands::{
    chess as chess_strong, chess_net, gomoku as gomoku_patterns, othello, othello_book,
    othello_probcut, xiangqi as xiangqi_strong, TexelArgs,
};

#[derive(Parser)]
#[command(
    name = "duel-train",
    about = "Fit and test duel's Othello pattern, chess and xiangqi Strong and Gomoku Patterns evaluators"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Othello self-play games, labelled by the exact solver; appends records to a file.
    OthelloGen(othello::GenArgs),
    /// Fits Othello's pattern weights on record files by regularised least squares.
    OthelloFit(othello::FitArgs),
    /// Evaluations per second of both Othello evaluators on recorded positions.
    OthelloSpeed(othello::SpeedArgs),
    /// Othello's textbook against pattern at equal fixed depth, each opening played with both
    /// colours.
    OthelloMatch(othello::MatchArgs),
    /// Othello Multi-ProbCut's error model: shallow against deep search values on positions
    /// of duel's own games, fitted to sigma = c0 + c1·empties + c2·deep + c3·shallow.
    OthelloProbcut(othello_probcut::ProbcutArgs),
    /// Grows an Othello opening book by drop-out expansion from the start, its leaves
    /// searched by `duel nboard`'s engine (see `crates/games/othello/book/README.md`).
    OthelloBook(othello_book::BookArgs),
    /// What an Othello book holds: positions by number of discs, the value and line from the
    /// start, and which positions of an openings file (one position a line) it has.
    OthelloBookStats(othello_book::StatsArgs),
    /// Chess self-play at fixed nodes per move from random openings; appends quiet positions
    /// labelled with the game result (`FEN;result`, result for White) to a file.
    ChessGen(chess_strong::GenArgs),
    /// Texel fit of chess Strong's weights on `chess-gen` files; writes a weights file.
    ChessFit(chess_strong::FitArgs),
    /// Chess Strong against Pst at equal fixed nodes per move, each opening with both colours.
    ChessMatch(chess_strong::MatchArgs),
    /// Positions near those of `chess-gen` files, a few random moves away, labelled by a short
    /// search with Strong or a net (`FEN;?;value`): cheap data for `chess-nnue`.
    ChessLabel(chess_net::LabelArgs),
    /// Trains chess's network evaluation on `chess-gen` files; writes a net file.
    ChessNnue(chess_net::NnueArgs),
    /// Gomoku self-play with Patterns at fixed nodes per move on one thread, from random
    /// openings; appends the positions of ordinary evaluation labelled with the game's result
    /// (`moves;result`, result for Black) to a file.
    GomokuGen(gomoku_patterns::GenArgs),
    /// Texel fit of Patterns' weights on `gomoku-gen` files; writes a weights file.
    GomokuFit(TexelArgs),
    /// Xiangqi self-play at fixed nodes per move from random openings; appends quiet positions
    /// labelled with the game result and the search's value (`FEN;result;value`, for Red).
    XiangqiGen(xiangqi_strong::GenArgs),
    /// Texel fit of xiangqi Strong's weights on `xiangqi-gen` files; writes a weights file.
    XiangqiFit(xiangqi_strong::FitArgs),
    /// Xiangqi Strong against Material at equal fixed nodes per move, each opening with both
    /// colours.
    XiangqiMatch(xiangqi_strong::MatchArgs),
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::OthelloGen(a) => othello::generate(a),
        Command::OthelloFit(a) => othello::fit(a),
        Command::OthelloSpeed(a) => othello::speed(a),
        Command::OthelloMatch(a) => othello::play_match(a),
        Command::OthelloProbcut(a) => othello_probcut::run(a),
        Command::OthelloBook(a) => othello_book::grow(a),
        Command::OthelloBookStats(a) => othello_book::stats(a),
        Command::ChessGen(a) => chess_strong::generate(a),
        Command::ChessFit(a) => chess_strong::fit(a),
        Command::ChessMatch(a) => chess_strong::play_match(a),
        Command::ChessLabel(a) => chess_net::label(a),
        Command::ChessNnue(a) => chess_net::train(a),
        Command::GomokuGen(a) => gomoku_patterns::generate(a),
        Command::GomokuFit(a) => gomoku_patterns::fit(a),
        Command::XiangqiGen(a) => xiangqi_strong::generate(a),
        Command::XiangqiFit(a) => xiangqi_strong::fit(a),
        Command::XiangqiMatch(a) => xiangqi_strong::play_match(a),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("duel-train: {e:#}");
            ExitCode::FAILURE
        }
    }
}
