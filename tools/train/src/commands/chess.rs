//! Chess's Strong weights (`crates/games/chess/weights/strong.txt`): `chess-gen` (self-play
//! at fixed nodes, quiet positions labelled by the game's result; also the data of the net's
//! pipeline), `chess-fit` (Texel's fit) and `chess-match` (Strong against Pst).

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use duel_chess::strong::Weights;
use duel_chess::Chess;

use super::chess_net::load_net;
pub use super::linear::FitArgs;
use super::linear::{fit as linear_fit, print_match, self_play};
use super::{StrongMatchArgs, ThreadedArgs};
use crate::{chess, linear};

#[derive(Clone, Copy, ValueEnum)]
pub enum ChessEval {
    Pst,
    Strong,
}

#[derive(Args)]
pub struct GenArgs {
    /// Evaluator of both players.
    #[arg(long, value_enum, default_value_t = ChessEval::Pst)]
    eval: ChessEval,
    /// Weights for `--eval strong` (default: the committed ones).
    #[arg(long)]
    weights: Option<PathBuf>,
    #[command(flatten)]
    run: ThreadedArgs,
    /// Both players use the network evaluation from this net file (`--eval` is then
    /// not given): game results from the best evaluator duel has.
    #[arg(long, conflicts_with_all = ["eval", "weights"])]
    net: Option<PathBuf>,
}

#[derive(Args)]
pub struct MatchArgs {
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    #[command(flatten)]
    m: StrongMatchArgs,
}

/// Strong's weights from `path`, or the committed ones.
fn load_weights(path: Option<&Path>) -> Result<Weights> {
    super::load_weights(path, || Weights::committed().clone(), Weights::parse)
}

/// `chess-gen`.
pub fn generate(a: GenArgs) -> Result<()> {
    let net = a.net.as_deref().map(load_net).transpose()?;
    if a.weights.is_some() && matches!(a.eval, ChessEval::Pst) {
        bail!("--weights goes with --eval strong");
    }
    match (net, a.eval) {
        (Some(net), _) => self_play(duel_chess::Net::new(net), a.run),
        (None, ChessEval::Pst) => self_play::<Chess, _>(duel_chess::Pst, a.run),
        (None, ChessEval::Strong) => {
            let weights = load_weights(a.weights.as_deref())?;
            self_play(duel_chess::Strong::new(weights), a.run)
        }
    }
}

/// `chess-fit`.
pub fn fit(a: FitArgs) -> Result<()> {
    let init = match a.init() {
        Some(p) => load_weights(Some(p))?,
        None => Weights::hand(),
    };
    let what = "chess Strong weights: `name mg eg`, centipawns, features White minus Black";
    linear_fit::<Chess>(&a, &chess::to_pairs(&init), what, |w, h| {
        Ok(chess::from_pairs(&w).to_text(h))
    })
}

/// `chess-match`.
pub fn play_match(a: MatchArgs) -> Result<()> {
    let (nodes, openings, seed) = (a.nodes, a.m.openings, a.m.seed);
    let strong = (
        "strong",
        duel_chess::Strong::new(load_weights(a.m.weights.as_deref())?),
    );
    print_match(nodes, openings, |log| {
        linear::play_match(strong, ("pst", duel_chess::Pst), nodes, openings, seed, log)
    })
}
