//! Othello's opening book (`crates/games/othello/book/duel.book`): `othello-book` grows it
//! ([`crate::book::build`]), `othello-book-stats` says what it holds.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::book;

#[derive(Args)]
pub struct BookArgs {
    /// The book file: read first when it exists, written after every round.
    #[arg(long)]
    out: PathBuf,
    /// Stop after the round that reaches this many positions.
    #[arg(long, default_value_t = 1000)]
    positions: usize,
    /// Depth of the leaf searches.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: u32,
    /// Candidates expanded a round.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    batch: u32,
    /// Positions with this many empty squares or fewer are not expanded.
    #[arg(long, default_value_t = 36, value_parser = clap::value_parser!(u32).range(0..=59))]
    min_empties: u32,
    /// Sessions searching side by side (the book is the same whatever their number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// Multi-ProbCut threshold of the searches, hundredths of a sigma (0: off; `duel
    /// nboard`'s default is 150).
    #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(i32).range(0..=1000))]
    probcut: i32,
}

#[derive(Args)]
pub struct StatsArgs {
    book: PathBuf,
    #[arg(long)]
    openings: Option<PathBuf>,
}

/// `othello-book`.
pub fn grow(a: BookArgs) -> Result<()> {
    let plan = book::Plan {
        positions: a.positions,
        depth: a.depth,
        batch: a.batch as usize,
        min_empties: a.min_empties,
        threads: a.threads as usize,
        probcut: a.probcut,
    };
    book::build(&a.out, &plan)
}

/// `othello-book-stats`.
pub fn stats(a: StatsArgs) -> Result<()> {
    print!("{}", book::stats(&a.book, a.openings.as_deref())?);
    Ok(())
}
