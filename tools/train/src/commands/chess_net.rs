//! Chess's net (`crates/games/chess/nets/default.nnue`): `chess-label` (positions near
//! self-play's, labelled by short searches) and `chess-nnue` (the training, then the integer
//! net the engine runs). The data of `chess-gen` trains it too.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use duel_chess::nnue::{Base, Network, KING_BUCKETS, MAX_BUCKETS};

use super::{enough, open_for_append, read_all, report_written, write_weights};
use crate::chess;
use crate::nnue::{self, FloatNet, NetConfig, NetData};

#[derive(Args)]
pub struct LabelArgs {
    /// `chess-gen` files (the FEN of each line is used).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The file to append to.
    #[arg(long)]
    out: PathBuf,
    /// Positions made from each input line.
    #[arg(long, default_value_t = 2)]
    variations: u32,
    /// Random legal moves played before each search: 0 to this many.
    #[arg(long, default_value_t = 4)]
    max_random_plies: u32,
    #[arg(long, default_value_t = 1000)]
    nodes: u64,
    /// Use every n-th input line only.
    #[arg(long, default_value_t = 1)]
    every: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Search with the network evaluation from this net file instead of Strong: once a
    /// net plays better, its searches make the better labels.
    #[arg(long)]
    net: Option<PathBuf>,
}

#[derive(Args)]
pub struct NnueArgs {
    /// `FEN;result;value` files (validation holds out the tail of the last one).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The net file to write.
    #[arg(long)]
    out: PathBuf,
    /// Percent of positions (the files' tail) held out for validation.
    #[arg(long, default_value_t = 5)]
    valid_percent: u32,
    #[arg(long, default_value_t = 30)]
    epochs: u32,
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f32,
    /// The step size is multiplied by `--drop` after this share of the epochs.
    #[arg(long, default_value_t = 0.75)]
    drop_at: f32,
    #[arg(long, default_value_t = 0.1)]
    drop: f32,
    /// Texel's K: the label of a value v is σ(K·v/400). Strong's fits found 1.17 to 1.21.
    #[arg(long, default_value_t = 1.2)]
    k: f32,
    /// Share of each label taken from the recorded search value (0 to 1).
    #[arg(long, default_value_t = 0.5)]
    value_weight: f32,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the starting weights and of the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions held out for validation (then every `--data` position trains).
    #[arg(long)]
    valid: Option<PathBuf>,
    /// Train the net to add to Strong's value instead of replacing it.
    #[arg(long)]
    residual: bool,
    /// Also train on each position in which neither side may castle mirrored left to
    /// right (files a and h swapped), with the same label: twice the positions from the
    /// same searches.
    #[arg(long)]
    mirror: bool,
    /// Sets of output weights, chosen by the number of pieces on the board (1 to 31).
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Sets of feature weights, chosen by where each side's king stands (1 or 4; see
    /// `duel_chess::nnue::king_bucket`). A net of one may start (`--init`) a training of
    /// four, and the new net then starts as the old one.
    #[arg(long, default_value_t = 1)]
    king_buckets: usize,
    /// A net file to start from instead of random weights (same hidden size, base and
    /// buckets), to train a net that plays on new data.
    #[arg(long)]
    init: Option<PathBuf>,
}

/// The net in the file at `path`.
pub(super) fn load_net(path: &Path) -> Result<Network> {
    Network::read(path).with_context(|| path.display().to_string())
}

/// `chess-label`.
pub fn label(a: LabelArgs) -> Result<()> {
    if a.nodes == 0 || a.threads == 0 || a.every == 0 || a.variations == 0 {
        bail!("--nodes, --threads, --every and --variations must be at least 1");
    }
    // The whole record is checked, as the trainer will read it, not the FEN alone.
    let roots = chess::records(&read_all(&a.data)?)
        .step_by(a.every)
        .map(|r| r.map(|r| r.pos))
        .collect::<Result<Vec<_>, _>>()
        .context("data")?;
    let net = a.net.as_deref().map(load_net).transpose()?;
    let mut w = open_for_append(&a.out)?;
    let start = Instant::now();
    let cfg = chess::LabelConfig {
        variations: a.variations,
        max_random_plies: a.max_random_plies,
        nodes: a.nodes,
        seed: a.seed,
        threads: a.threads,
    };
    let total = roots.len();
    let report = |done: usize, recs: u64| {
        if done.is_multiple_of(10_000) {
            eprintln!(
                "{done} of {total} inputs, {recs} positions, {:.1} s",
                start.elapsed().as_secs_f64()
            );
        }
    };
    let n = match net {
        None => chess::label(duel_chess::Strong::default(), &roots, &cfg, &mut w, report),
        Some(net) => chess::label(duel_chess::Net::new(net), &roots, &cfg, &mut w, report),
    };
    report_written(n, &mut w, &a.out, &format!("{total} inputs"), start)
}

/// `chess-nnue`.
pub fn train(a: NnueArgs) -> Result<()> {
    check(&a)?;
    let base = if a.residual { Base::Strong } else { Base::None };
    let init = match &a.init {
        None => None,
        Some(p) => {
            let init = || format!("--init {}", p.display());
            let net = Network::read(p).with_context(init)?;
            let start = FloatNet::start_from(&net, a.buckets, a.king_buckets, base);
            Some(start.with_context(init)?)
        }
    };
    let start = Instant::now();
    let text = read_all(&a.data)?;
    let data = NetData::parse(&text, a.k, a.value_weight, base, a.mirror).context("data")?;
    std::mem::drop(text);
    enough(data.len(), start)?;
    let cfg = NetConfig {
        epochs: a.epochs,
        batch: a.batch,
        learning_rate: a.learning_rate,
        drop_at: a.drop_at,
        drop: a.drop,
        k: a.k,
        valid_percent: a.valid_percent,
        threads: a.threads,
        seed: a.seed,
        buckets: a.buckets,
        king_buckets: a.king_buckets,
        init,
    };
    let held_out = match &a.valid {
        None => None,
        Some(f) => Some(held_out(f, &a, base)?),
    };
    let r = nnue::train(&data, held_out.as_ref(), &cfg, |line| {
        eprintln!("{line} ({:.0} s)", start.elapsed().as_secs_f64())
    });
    println!(
        "validation loss {:.6} at the start, {:.6} at the end",
        r.start_loss, r.end_loss
    );
    print!("{}", r.summary);
    write_weights(&a.out, r.net.to_bytes(), start)
}

/// Refuses settings of `chess-nnue` that cannot work.
fn check(a: &NnueArgs) -> Result<()> {
    let positive = |x: f32| x.is_finite() && x > 0.0;
    let (buckets, king_buckets) = (a.buckets, a.king_buckets);
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        bail!("--buckets {buckets}: 1 to {MAX_BUCKETS} are possible");
    }
    if !KING_BUCKETS.contains(&king_buckets) {
        bail!("--king-buckets {king_buckets}: {KING_BUCKETS:?} are possible");
    }
    if a.valid_percent >= 100
        || a.epochs == 0
        || a.batch == 0
        || a.threads == 0
        || !positive(a.learning_rate)
        || !positive(a.k)
        || !(0.0..=1.0).contains(&a.drop_at)
        || !(0.0..=1.0).contains(&a.drop)
        || !(0.0..=1.0).contains(&a.value_weight)
    {
        bail!(
            "need --valid-percent below 100, --epochs, --batch and --threads at least 1, a \
             positive --learning-rate and --k, and --drop-at, --drop and --value-weight from 0 \
             to 1"
        );
    }
    Ok(())
}

/// The positions of `--valid`, labelled as the training's (never mirrored).
fn held_out(f: &Path, a: &NnueArgs, base: Base) -> Result<NetData> {
    let t = read_all(&[f])?;
    let v = NetData::parse(&t, a.k, a.value_weight, base, false)
        .with_context(|| f.display().to_string())?;
    if v.is_empty() {
        bail!("{}: no positions to validate on", f.display());
    }
    Ok(v)
}
