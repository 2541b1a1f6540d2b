//! Othello's Multi-ProbCut error model (`duel_othello::pattern`'s sigma coefficients):
//! `othello-probcut` measures shallow against deep search values, or reads measured ones, and
//! fits the model.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use duel_train::probcut;

use super::othello::load_pattern;
use super::{read_text, write_file};

#[derive(Args)]
pub struct ProbcutArgs {
    /// Fit the samples in this file (written by an earlier run's `--out`) instead of
    /// measuring new ones.
    #[arg(long)]
    samples: Option<PathBuf>,
    /// Where to write the measured samples.
    #[arg(long)]
    out: Option<PathBuf>,
    #[arg(long)]
    weights: Option<PathBuf>,
    #[command(flatten)]
    plan: probcut::Plan,
}

/// `othello-probcut`.
pub fn run(a: ProbcutArgs) -> Result<()> {
    let measured = match &a.samples {
        Some(path) => probcut::read_samples(&read_text(path)?)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
        None => measure(&a)?,
    };
    print!("{}", probcut::fit(&measured).1);
    Ok(())
}

/// New samples, as the plan asks, written to `--out` when it is given.
fn measure(a: &ProbcutArgs) -> Result<Vec<probcut::Sample>> {
    let plan = &a.plan;
    // Games never stop in a position of no empty square with a move to play: a range without
    // any would be searched for forever.
    if !(1 <= plan.min_empties && plan.min_empties <= plan.max_empties && plan.max_empties <= 60) {
        bail!(
            "--min-empties {} --max-empties {}: a range within 1 to 60 is needed",
            plan.min_empties,
            plan.max_empties
        );
    }
    if plan.depth < 2 {
        bail!(
            "--depth {}: at least 2 (a test needs a shallower depth)",
            plan.depth
        );
    }
    let pattern = load_pattern(a.weights.as_ref())?;
    let start = Instant::now();
    let s = probcut::measure(&pattern, plan, |line| {
        eprintln!("{line}, {:.1} s", start.elapsed().as_secs_f64());
    });
    if let Some(path) = &a.out {
        write_file(path, probcut::write_samples(&s))?;
    }
    Ok(s)
}
