//! Xiangqi's Strong weights (`crates/games/xiangqi/weights/strong.txt`): chess's pipeline on
//! [`crate::linear`], `xiangqi-gen`, `xiangqi-fit` and `xiangqi-match` (Strong against
//! Material).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use duel_xiangqi::strong::Weights;
use duel_xiangqi::Xiangqi;

pub use super::linear::FitArgs;
use super::linear::{fit as linear_fit, print_match, self_play};
use super::{StrongMatchArgs, ThreadedArgs};
use crate::linear;

#[derive(Clone, Copy, ValueEnum)]
pub enum XiangqiEval {
    Material,
    Strong,
}

#[derive(Args)]
pub struct GenArgs {
    /// Evaluator of both players.
    #[arg(long, value_enum, default_value_t = XiangqiEval::Strong)]
    eval: XiangqiEval,
    /// Weights for `--eval strong` (default: the committed ones).
    #[arg(long)]
    weights: Option<PathBuf>,
    #[command(flatten)]
    run: ThreadedArgs,
}

#[derive(Args)]
pub struct MatchArgs {
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    #[command(flatten)]
    m: StrongMatchArgs,
}

/// Strong's weights from `path`, or the committed ones.
fn load_weights(path: Option<&Path>) -> Result<Weights> {
    super::load_weights(path, || Weights::committed().clone(), Weights::parse)
}

/// `xiangqi-gen`.
pub fn generate(a: GenArgs) -> Result<()> {
    match a.eval {
        XiangqiEval::Material if a.weights.is_some() => {
            bail!("--weights goes with --eval strong")
        }
        XiangqiEval::Material => self_play::<Xiangqi, _>(duel_xiangqi::Material, a.run),
        XiangqiEval::Strong => {
            let strong = duel_xiangqi::Strong::new(load_weights(a.weights.as_deref())?);
            self_play(strong, a.run)
        }
    }
}

/// `xiangqi-fit`.
pub fn fit(a: FitArgs) -> Result<()> {
    let init = match a.init() {
        Some(p) => load_weights(Some(p))?,
        None => Weights::hand(),
    };
    let what = "xiangqi Strong weights: `name mg eg`, hundredths of a soldier, features \
                Red minus Black";
    linear_fit::<Xiangqi>(&a, init.as_slice(), what, |w, h| {
        let w = Weights::from_pairs(w);
        Ok(w.context("the fit gave a pair per feature")?.to_text(h))
    })
}

/// `xiangqi-match`.
pub fn play_match(a: MatchArgs) -> Result<()> {
    let (nodes, openings, seed) = (a.nodes, a.m.openings, a.m.seed);
    let strong = (
        "strong",
        duel_xiangqi::Strong::new(load_weights(a.m.weights.as_deref())?),
    );
    let material = ("material", duel_xiangqi::Material);
    print_match(nodes, openings, |log| {
        linear::play_match(strong, material, nodes, openings, seed, log)
    })
}
