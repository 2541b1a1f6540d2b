//! Othello's pattern weights (`crates/games/othello/weights/pattern.bin`): `othello-gen`
//! (self-play games labelled by the exact solver), `othello-fit` (least squares per phase),
//! `othello-speed` and `othello-match` (the fitted evaluator against the textbook one).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use duel_othello::{Pattern, Textbook};
use duel_train::data::{self, GenConfig, Record};
use duel_train::{fit, matches};

use super::{open_for_append, report_written, write_file};

#[derive(Clone, Copy, ValueEnum)]
pub enum EvalName {
    Textbook,
    /// The pattern evaluator, named as the game names it (`pattern` before issue 61).
    #[value(name = "patterns", alias = "pattern")]
    Pattern,
}

#[derive(Args)]
pub struct GenArgs {
    /// Output file (records of 22 bytes).
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 1000)]
    games: u32,
    #[arg(long, default_value_t = 0)]
    first_game: u32,
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Evaluator of the move-choosing search.
    #[arg(long, value_enum, default_value_t = EvalName::Textbook)]
    eval: EvalName,
    /// Weights for `--eval patterns` (default: the committed ones).
    #[arg(long)]
    weights: Option<PathBuf>,
    #[arg(long, default_value_t = 2)]
    depth: u32,
    #[arg(long, default_value_t = 18)]
    solve_empties: u32,
    #[arg(long, default_value_t = 2)]
    min_random_plies: u32,
    #[arg(long, default_value_t = 12)]
    max_random_plies: u32,
    #[arg(long, default_value_t = 5)]
    random_percent: u32,
    #[arg(long, default_value_t = 10)]
    endgame_random_percent: u32,
    /// Multi-ProbCut selectivity of the search, in hundredths of a sigma (0: off).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..=1000))]
    probcut: i32,
}

#[derive(Args)]
pub struct FitArgs {
    /// Record files.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// Percent of games held out for validation.
    #[arg(long, default_value_t = 10)]
    valid_percent: u32,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = 200)]
    iters: u32,
    /// L2 penalty λ·Σw² (w in discs), added to the phase's sum of squared errors. 60
    /// validated best of the values tried (0.5 to 150, see weights/README.md).
    #[arg(long, default_value_t = 60.0)]
    lambda: f64,
    /// Positions this many empties outside a phase's bucket also train it.
    #[arg(long, default_value_t = 2)]
    margin: u32,
    /// Share of each label taken from the fitted evaluation of the same game's first
    /// position a phase later (0 to 1; 0: the game's result alone).
    #[arg(long, default_value_t = 0.0)]
    bootstrap: f64,
}

#[derive(Args)]
pub struct SpeedArgs {
    data: PathBuf,
    #[arg(long)]
    weights: Option<PathBuf>,
}

#[derive(Args)]
pub struct MatchArgs {
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Distinct openings (each gives two games).
    #[arg(long, default_value_t = 100)]
    openings: usize,
    /// Random legal plies per opening.
    #[arg(long, default_value_t = 8)]
    plies: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// The pattern evaluator with the weights at `weights`, or the committed ones.
pub(super) fn load_pattern(weights: Option<&PathBuf>) -> Result<Pattern> {
    match weights {
        None => Ok(Pattern::default()),
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            Pattern::from_bytes(&bytes).with_context(|| path.display().to_string())
        }
    }
}

fn read_records(path: &Path) -> Result<Vec<Record>> {
    data::read_records(path).with_context(|| format!("reading {}", path.display()))
}

/// `othello-gen`.
pub fn generate(a: GenArgs) -> Result<()> {
    if a.min_random_plies > a.max_random_plies {
        bail!("--min-random-plies is above --max-random-plies");
    }
    let games = a.games;
    let cfg = GenConfig {
        games,
        seed: a.seed,
        first_game: a.first_game,
        random_plies: (a.min_random_plies, a.max_random_plies),
        random_percent: a.random_percent,
        endgame_random_percent: a.endgame_random_percent,
        depth: a.depth,
        solve_empties: a.solve_empties,
        probcut: a.probcut,
    };
    let mut w = open_for_append(&a.out)?;
    let start = Instant::now();
    let mut next_report = 100;
    let report = |done: u32, recs: u64| {
        if done >= next_report || done == games {
            next_report += 100;
            eprintln!(
                "{done} games, {recs} positions, {:.1} s",
                start.elapsed().as_secs_f64()
            );
        }
    };
    let n = match a.eval {
        EvalName::Textbook => data::generate(&cfg, Textbook::default(), &mut w, report),
        EvalName::Pattern => {
            let p = load_pattern(a.weights.as_ref())?;
            data::generate(&cfg, p, &mut w, report)
        }
    };
    report_written(n, &mut w, &a.out, &format!("{games} games"), start)
}

/// `othello-fit`.
pub fn fit(a: FitArgs) -> Result<()> {
    let bootstrap = a.bootstrap;
    if !(0.0..=1.0).contains(&bootstrap) {
        bail!("--bootstrap {bootstrap}: a share from 0 to 1");
    }
    let mut records = Vec::new();
    for f in &a.data {
        records.append(&mut read_records(f)?);
    }
    let cfg = fit::FitConfig {
        valid_percent: a.valid_percent,
        iters: a.iters,
        lambda: a.lambda,
        margin: a.margin,
        bootstrap,
    };
    let (pattern, summary) = fit::fit(&records, &cfg);
    print!("{summary}");
    write_file(&a.out, pattern.to_bytes())?;
    println!("wrote {}", a.out.display());
    Ok(())
}

/// `othello-speed`: evaluations per second, and what a process pays once to have the
/// evaluator (reading, checking and folding its weights).
pub fn speed(a: SpeedArgs) -> Result<()> {
    let records = read_records(&a.data)?;
    let pattern = load_pattern(a.weights.as_ref())?;
    print!("{}", matches::speed(&records, &pattern));
    let bytes = match &a.weights {
        Some(p) => std::fs::read(p).with_context(|| format!("reading {}", p.display()))?,
        None => duel_othello::pattern::COMMITTED.to_vec(),
    };
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let p = Pattern::from_bytes(&bytes).map(|p| p.weights().len());
            std::hint::black_box(p.ok());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "load: {} bytes, {} weights, {:.1} ms (median of 5: parse, check, fold)",
        bytes.len(),
        pattern.weights().len(),
        times[2]
    );
    Ok(())
}

/// `othello-match`.
pub fn play_match(a: MatchArgs) -> Result<()> {
    let pattern = load_pattern(a.weights.as_ref())?;
    let result = matches::play_match(pattern, a.depth, a.openings, a.plies, a.seed, |line| {
        eprintln!("{line}")
    })?;
    print!("{result}");
    std::io::stdout().flush()?;
    Ok(())
}
