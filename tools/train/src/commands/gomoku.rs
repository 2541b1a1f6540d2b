//! Gomoku's Patterns weights (`crates/games/gomoku/weights/patterns.txt`): `gomoku-gen`
//! (self-play from random openings, positions of ordinary evaluation labelled by the game's
//! result) and `gomoku-fit` (Texel's fit, K search and Adam shared with chess).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use duel_gomoku::PatternWeights;

use super::{enough, open_for_append, progress, report_written, write_weights};
use super::{SelfPlayArgs, TexelArgs};
use crate::gomoku;

#[derive(Args)]
pub struct GenArgs {
    #[command(flatten)]
    play: SelfPlayArgs,
    /// Patterns' weights for both players (default: the committed ones).
    #[arg(long)]
    weights: Option<PathBuf>,
    #[command(flatten)]
    games_like: gomoku::GameConfig,
}

/// Patterns' weights from `path`, or the committed ones.
fn load_weights(path: Option<&Path>) -> Result<PatternWeights> {
    super::load_weights(
        path,
        || PatternWeights::committed().clone(),
        PatternWeights::parse,
    )
}

/// `gomoku-gen`.
pub fn generate(a: GenArgs) -> Result<()> {
    let play = a.play;
    if play.nodes == 0 || a.games_like.random_percent >= 100 {
        bail!("--nodes must be at least 1 and --random-percent below 100");
    }
    let start = Instant::now();
    let eval = duel_gomoku::Patterns::new(load_weights(a.weights.as_deref())?);
    let mut w = open_for_append(&play.out)?;
    let cfg = gomoku::GenConfig {
        games: play.games,
        nodes: play.nodes,
        seed: play.seed,
        like: a.games_like,
    };
    let n = gomoku::generate(eval, &cfg, &mut w, progress(start)).context("gomoku-gen")?;
    let from = format!("{} games", play.games);
    report_written(Ok(n), &mut w, &play.out, &from, start)
}

/// `gomoku-fit`.
pub fn fit(texel: TexelArgs) -> Result<()> {
    let init = match &texel.init {
        Some(p) => load_weights(Some(p))?,
        None => PatternWeights::hand(),
    };
    let start = Instant::now();
    let text = texel.check_and_read()?;
    let data = gomoku::Dataset::parse(&text).context("data")?;
    enough(data.len(), start)?;
    let cfg = gomoku::FitConfig {
        valid_percent: texel.valid_percent,
        adam: duel_train::texel::Adam {
            epochs: texel.epochs,
            learning_rate: texel.learning_rate,
            lambda: texel.lambda,
            log_every: 100,
        },
    };
    let r = gomoku::fit(&data, &init, &cfg, |line| eprintln!("{line}"));
    print!("{}", r.summary);
    let header = format!(
        "duel Gomoku Patterns weights: `name to_move waiting`, in eighths; see README.md.\n\
         Written by duel-train gomoku-fit ({} positions, K = {:.4}).",
        data.len(),
        r.k
    );
    write_weights(&texel.out, r.weights.to_text(&header), start)
}
