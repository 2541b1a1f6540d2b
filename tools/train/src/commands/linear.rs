//! What the chess and xiangqi Strong pipelines share, both run on [`crate::linear`]: the
//! self-play of `-gen`, the Texel fit of `-fit` and the match of `-match`.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use duel_core::Evaluator;

use super::{enough, open_for_append, progress, report_written, write_weights};
use super::{SelfPlayArgs, TexelArgs, ThreadedArgs};
use crate::linear::{self, Linear};

/// The options of `chess-fit` and `xiangqi-fit`.
#[derive(Args)]
pub struct FitArgs {
    #[command(flatten)]
    texel: TexelArgs,
    /// Share of each label taken from the search value recorded with the position (0 to 1;
    /// positions recorded without one keep their game result).
    #[arg(long, default_value_t = 0.0)]
    value_weight: f64,
}

impl FitArgs {
    /// The starting weights' file (`--init`), if any.
    pub(super) fn init(&self) -> Option<&Path> {
        self.texel.init.as_deref()
    }
}

/// Self-play games of a linear evaluator's game with `eval` on both sides, as `chess-gen` and
/// `xiangqi-gen` play them, appended to the `--out` file.
pub(super) fn self_play<G: Linear, E: Evaluator<G>>(eval: E, run: ThreadedArgs) -> Result<()> {
    let SelfPlayArgs {
        out,
        games,
        nodes,
        seed,
    } = run.play;
    let threads = run.threads;
    if nodes == 0 || threads == 0 {
        bail!("--nodes and --threads must be at least 1");
    }
    let mut w = open_for_append(&out)?;
    let start = Instant::now();
    let cfg = linear::GenConfig {
        games,
        nodes,
        seed,
        threads,
    };
    let n = linear::generate(eval, &cfg, &mut w, progress(start));
    report_written(n, &mut w, &out, &format!("{games} games"), start)
}

/// Plays an evaluator match, its openings' lines on stderr, and prints the summary.
pub(super) fn print_match(
    nodes: u64,
    openings: usize,
    play: impl FnOnce(fn(&str)) -> Result<String, duel_arena::ArenaError>,
) -> Result<()> {
    if nodes == 0 || openings == 0 {
        bail!("--nodes and --openings must be at least 1");
    }
    print!("{}", play(|line| eprintln!("{line}"))?);
    std::io::stdout().flush()?;
    Ok(())
}

/// A Texel fit of a linear evaluator from `init`, as `chess-fit` and `xiangqi-fit` run it:
/// prints the summary and writes the weights file, `text` turning the fitted pairs into its
/// text after a header that starts with `what`.
pub(super) fn fit<G: Linear>(
    args: &FitArgs,
    init: &[[i32; 2]],
    what: &str,
    text: impl FnOnce(Vec<[i32; 2]>, &str) -> Result<String>,
) -> Result<()> {
    let (texel, value_weight) = (&args.texel, args.value_weight);
    if !(0.0..=1.0).contains(&value_weight) {
        bail!("need a --value-weight from 0 to 1");
    }
    let start = Instant::now();
    let data_text = texel.check_and_read()?;
    let mut data = linear::Dataset::<G>::parse(&data_text).context("data")?;
    enough(data.len(), start)?;
    let cfg = linear::FitConfig {
        valid_percent: texel.valid_percent,
        epochs: texel.epochs,
        learning_rate: texel.learning_rate,
        lambda: texel.lambda,
        value_weight,
    };
    let r = linear::fit(&mut data, init, &cfg, |line| eprintln!("{line}"));
    print!("{}", r.summary);
    let header = format!(
        "duel {what}.\nWritten by duel-train {}-fit ({} positions, K = {:.4}); see README.md.",
        <G as duel_core::Game>::NAME,
        data.len(),
        r.k
    );
    write_weights(&texel.out, text(r.weights, &header)?, start)
}
