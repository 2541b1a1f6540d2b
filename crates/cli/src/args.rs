//! Flags shared by the subcommands, so every game takes the same ones.

use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use duel_engine::{Limits, SearchConfig, Session};

/// The help of a game argument: the registered games, from the registry.
pub fn game_help() -> String {
    let names: Vec<&str> = duel_engine::games().iter().map(|g| g.name).collect();
    format!(
        "The game: {} (`duel games` lists each with its notation)",
        names.join(", ")
    )
}

/// The position to start from.
#[derive(Debug, Clone, Args)]
pub struct PositionArgs {
    /// The position in the game's text form (`duel games` shows each game's). Default: the
    /// start position.
    #[arg(
        long,
        short = 'p',
        value_name = "P",
        default_value = "",
        hide_default_value = true,
        // Othello boards start with '-' for an empty a1; they are values, not flags.
        allow_hyphen_values = true
    )]
    pub position: String,
    /// Moves to play after --position, in the game's notation, separated by spaces or commas.
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Chess960 (chess only): castling written, and read, as the king taking its own rook
    /// (`e1h1`); with a number, the Chess960 start of that number (Scharnagl's, 0 to 959; 518
    /// is the standard start), or `random` for one drawn at random.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "")]
    pub chess960: Option<String>,
}

impl PositionArgs {
    /// Sets the session's position from the flags.
    pub fn apply(&self, s: &mut dyn Session) -> Result<()> {
        let moves: Vec<&str> = self
            .moves
            .as_deref()
            .unwrap_or("")
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|m| !m.is_empty())
            .collect();
        let mut position = self.position.clone();
        if let Some(start) = &self.chess960 {
            s.set_switch("UCI_Chess960", true).context("--chess960")?;
            if !start.is_empty() {
                if !position.is_empty() {
                    anyhow::bail!(
                        "--chess960 {start} and --position both give the start: give one"
                    );
                }
                position = numbered_start(s.game(), start)?;
            }
        }
        s.set_position(&position, &moves).with_context(|| {
            if moves.is_empty() {
                format!("bad --position '{}'", self.position)
            } else {
                format!(
                    "bad --position '{}' / --moves '{}'",
                    self.position,
                    moves.join(" ")
                )
            }
        })
    }
}

/// When a search stops. With none given, a depth chosen for the game.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Search to this depth (plies). With no --depth, --nodes or --time: the game's own
    /// depth, which `duel games` shows (play: its --level).
    #[arg(long, short = 'd', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=200))]
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    #[arg(long, short = 'n', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Stop after this much time: 500ms, 2s, 1.5s, 1m.
    #[arg(long, short = 't', value_name = "TIME", value_parser = parse_duration)]
    pub time: Option<Duration>,
}

impl LimitArgs {
    /// The limits, or the game's default depth if none was given.
    pub fn limits(&self, s: &dyn Session) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: self.time,
        };
        if l == Limits::default() {
            l.depth = Some(s.default_depth());
        }
        l
    }
}

/// A `--threads` count for this machine: threads beyond the cores this process may use only
/// take turns with each other, so more are capped to the cores, with a note on standard error
/// (as the UCI option is capped with an `info string`).
pub fn threads(asked: u32) -> usize {
    let max = duel_engine::threads_max();
    let asked = asked as usize;
    if asked > max {
        eprintln!("duel: --threads {asked} is more than the {max} cores this process may use; using {max}");
        max
    } else {
        asked
    }
}

/// The evaluator and the engine's resources.
#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// The evaluator, where the game has several (an unknown name lists the known ones).
    #[arg(long, value_name = "NAME")]
    pub eval: Option<String>,
    /// Weights for the evaluator from this file instead of the built-in ones (chess `net`: a
    /// net file written by `duel-train chess-nnue`).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<std::path::PathBuf>,
    /// Search threads (Lazy SMP above 1).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = hash_mb)]
    pub hash: usize,
}

impl EngineArgs {
    /// Opens the game with the chosen evaluator and applies the resources.
    pub fn open(&self, game: &str) -> Result<Box<dyn Session>> {
        let mut s = duel_engine::open_with(game, self.eval.as_deref(), self.eval_file.as_deref())?;
        // On top of the game's own switches (chess turns null move and LMR on).
        s.set_config(SearchConfig {
            threads: threads(self.threads),
            tt_mb: self.hash,
            ..s.config().clone()
        })?;
        Ok(s)
    }
}

/// Opens `game` with an evaluator (None: the game's default).
pub fn open_game(game: &str, eval: Option<&str>) -> Result<Box<dyn Session>> {
    Ok(duel_engine::open(game, eval)?)
}

/// Reads a table size in MiB, 1 to [`duel_engine::HASH_MAX_MB`] (UCI's `Hash` has the same
/// range).
pub fn hash_mb(text: &str) -> Result<usize> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=duel_engine::HASH_MAX_MB).contains(&n) => Ok(n),
        _ => anyhow::bail!(
            "'{text}' is not a table size: an integer from 1 to {} (MiB)",
            duel_engine::HASH_MAX_MB
        ),
    }
}

/// Reads an NBoard selectivity level (`duel_stdio::nboard::SELECTIVITY_LEVELS`).
pub fn selectivity(text: &str) -> Result<u32> {
    let levels = duel_stdio::nboard::SELECTIVITY_LEVELS;
    match text.trim().trim_end_matches('%').parse::<u32>() {
        Ok(n) if levels.iter().any(|l| l.0 == n) => Ok(n),
        _ => anyhow::bail!(
            "'{text}' is not a selectivity level: one of 73, 87, 95, 98, 99 or 100 (percent)"
        ),
    }
}

/// The longest time limit read, in seconds.
const MAX_SECONDS: f64 = 1e9;

/// Reads a duration as humantime writes it: numbers with units (`500ms`, `2s`, `1.5s`, `1m`,
/// `1h 30m`).
pub fn parse_duration(text: &str) -> Result<Duration> {
    let t = text.trim();
    let d = humantime::parse_duration(t).map_err(|e| {
        anyhow::anyhow!("'{text}' is not a time ({e}): write e.g. 500ms, 2s, 1.5s or 1m")
    })?;
    if d.is_zero() {
        anyhow::bail!("time '{text}' must be more than zero");
    }
    // A billion seconds is over thirty years: beyond it a limit is a typo.
    if d.as_secs_f64() > MAX_SECONDS {
        anyhow::bail!("time '{text}' is too long: at most {MAX_SECONDS:.0} s (about 31 years)");
    }
    Ok(d)
}

/// An engine option, `NAME=VALUE`.
pub fn parse_option(text: &str) -> Result<(String, String)> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => anyhow::bail!("'{text}' is not NAME=VALUE"),
    }
}

/// An engine's command line, split at whitespace; `what` names it in the error.
///
/// The program `duel` is this binary itself, wherever it is: `--second "duel uci"` works from
/// a fresh clone (`cargo run -- match ...`) as from an installed duel.
pub fn command_line(text: &str, what: &str) -> Result<Vec<String>> {
    let mut words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        anyhow::bail!("the {what} engine's command is empty");
    }
    if words[0] == "duel" {
        let exe = std::env::current_exe().context("cannot find the duel executable")?;
        words[0] = exe.to_string_lossy().into_owned();
    }
    Ok(words)
}

/// The position text of `game`'s numbered start `start` (chess: the Chess960 start of
/// Scharnagl's number, 0 to 959), or of one drawn at random for `random`.
fn numbered_start(game: &str, start: &str) -> Result<String> {
    let entry = duel_engine::game(game)?;
    let count = entry.numbered_starts;
    if count == 0 {
        anyhow::bail!("{} has no numbered starts for --chess960", entry.title);
    }
    let n = if start == "random" {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        duel_core::SplitMix64::new(nanos).below(count as usize) as u32
    } else {
        match start.parse::<u32>() {
            Ok(n) if n < count => n,
            _ => anyhow::bail!(
                "--chess960 takes a start number from 0 to {} or 'random', not '{start}'",
                count - 1
            ),
        }
    };
    entry
        .numbered_start(n)
        .with_context(|| format!("{} has no start number {n}", entry.title))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        let ok = |t| parse_duration(t).unwrap();
        assert_eq!(ok("500ms"), Duration::from_millis(500));
        assert_eq!(ok("2s"), Duration::from_secs(2));
        assert_eq!(ok("1.5s"), Duration::from_millis(1500));
        assert_eq!(ok("1m"), Duration::from_secs(60));
        assert_eq!(ok("1h 30m"), Duration::from_secs(5400));
        for bad in ["", "2", "x", "2 apples", "0s", "-1s", "1..5s", "ms"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        let e = parse_duration("2000000000s").unwrap_err().to_string();
        assert!(e.contains("too long"), "{e}");
        let e = parse_duration("99999999999999999999s")
            .unwrap_err()
            .to_string();
        assert!(e.contains("too large"), "{e}");
        assert!(parse_duration("0ms")
            .unwrap_err()
            .to_string()
            .contains("more than zero"));
        assert_eq!(ok("1000000000s"), Duration::from_secs(1_000_000_000));
    }
}
