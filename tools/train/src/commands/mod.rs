//! The commands of `duel-train`, one module per pipeline: each holds its commands' options
//! and runs them on the pipeline's machinery (the library's and the binary's other modules).
//! Here: the option groups several pipelines share, and the reading and writing of their
//! files.

pub mod chess;
pub mod chess_net;
pub mod gomoku;
mod linear;
pub mod othello;
pub mod othello_book;
pub mod othello_probcut;
pub mod xiangqi;

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

/// The flags of every self-play generation.
#[derive(Args)]
pub struct SelfPlayArgs {
    /// The file to append to.
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    #[arg(long, default_value_t = 2026)]
    seed: u64,
}

/// The flags of Strong's matches, the node count aside.
#[derive(Args)]
pub struct StrongMatchArgs {
    /// Distinct openings (each gives two games).
    #[arg(long, default_value_t = 100)]
    openings: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Strong's weights (default: the committed ones).
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// Self-play flags, with games played side by side.
#[derive(Args)]
pub struct ThreadedArgs {
    #[command(flatten)]
    play: SelfPlayArgs,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// The flags every Texel fit takes.
#[derive(Args)]
pub struct TexelArgs {
    /// The game's `-gen` files (validation holds out the tail of the last one).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// Starting weights (default: the hand ones; chess: Pst's values, zero for the other
    /// terms).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Percent of positions (the files' tail) held out for validation.
    #[arg(long, default_value_t = 10)]
    valid_percent: u32,
    #[arg(long, default_value_t = 400)]
    epochs: u32,
    /// Adam's first step size, in the weights' units (chess centipawns, Gomoku eighths).
    #[arg(long, default_value_t = 2.0)]
    learning_rate: f64,
    /// L2 penalty towards the starting weights, λ·Σ(w − w_init)², w in the weights' units.
    #[arg(long, default_value_t = 0.0)]
    lambda: f64,
}

impl TexelArgs {
    /// Refuses settings that cannot work; reads the data files' text.
    fn check_and_read(&self) -> Result<String> {
        if self.valid_percent >= 100
            || self.epochs == 0
            || !self.learning_rate.is_finite()
            || self.learning_rate <= 0.0
            || !self.lambda.is_finite()
            || self.lambda < 0.0
        {
            bail!(
                "need --valid-percent below 100, --epochs at least 1, a positive --learning-rate \
                 and a --lambda of 0 or more"
            );
        }
        read_all(&self.data)
    }
}

/// The text of the file at `path`.
fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

/// Weights read from the file at `path` by `parse`, or `committed()` without one.
fn load_weights<T, E>(
    path: Option<&Path>,
    committed: impl FnOnce() -> T,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T>
where
    E: std::error::Error + Send + Sync + 'static,
{
    match path {
        None => Ok(committed()),
        Some(path) => parse(&read_text(path)?).with_context(|| path.display().to_string()),
    }
}

/// The files' text, one after the other, each ending its last line.
fn read_all(files: &[impl AsRef<Path>]) -> Result<String> {
    let mut text = String::new();
    for f in files {
        text.push_str(&read_text(f.as_ref())?);
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    Ok(text)
}

/// Writes `bytes` to `out`.
fn write_file(out: &Path, bytes: impl AsRef<[u8]>) -> Result<()> {
    std::fs::write(out, bytes).with_context(|| format!("writing {}", out.display()))
}

/// Writes a fit's weights or net file and says so.
fn write_weights(out: &Path, bytes: impl AsRef<[u8]>, start: Instant) -> Result<()> {
    write_file(out, bytes)?;
    println!(
        "wrote {} in {:.1} s",
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A generation's progress report: a line every hundred games.
fn progress(start: Instant) -> impl Fn(u32, u64) {
    move |done, recs| {
        if done.is_multiple_of(100) {
            eprintln!(
                "{done} games, {recs} positions, {:.1} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
}

/// Refuses a data set too small to learn from; reports its size.
fn enough(positions: usize, start: Instant) -> Result<()> {
    if positions < 10 {
        bail!("data: {positions} positions are too few to learn from");
    }
    eprintln!(
        "{positions} positions read in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Opens a generation run's output to append records to (runs add to one file).
fn open_for_append(out: &Path) -> Result<BufWriter<std::fs::File>> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map(BufWriter::new)
        .with_context(|| format!("opening {}", out.display()))
}

/// Flushes a generation run's output and says what it wrote, or names the write that failed.
/// `from` says what the positions were made from ("40 games").
fn report_written<N: std::fmt::Display>(
    n: std::io::Result<N>,
    w: &mut impl Write,
    out: &Path,
    from: &str,
    start: Instant,
) -> Result<()> {
    let n = n
        .and_then(|n| w.flush().map(|()| n))
        .with_context(|| format!("writing {}", out.display()))?;
    println!(
        "{from}, {n} positions in {:.1} s -> {}",
        start.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}
