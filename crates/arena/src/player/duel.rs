//! duel itself as a player, in this process: any evaluator of the game, the search options
//! and limits of its own, no protocol in between. `duel:eval=pattern,nodes=2000,lmr=off` is
//! read by [`DuelSpec::parse`].

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use duel_core::{Evaluator, EvaluatorVisitor, GameInfo};
use duel_search::timeman::{budget, Clock};
use duel_search::{Limits, SearchConfig, Searcher};

use super::{Answer, Player, Thought, Turn, Value};
use crate::{ArenaError, SpecError, TimeControl};

/// Sets one search option.
type Set<T> = fn(&mut SearchConfig, T);

/// The search switches a spec may set, by name, on or off.
const SWITCHES: &[(&str, Set<bool>)] = &[
    ("tt", |c, on| c.use_tt = on),
    ("aspiration", |c, on| c.aspiration = on),
    ("mtdf", |c, on| c.mtdf = on),
    ("quiescence", |c, on| c.quiescence = on),
    ("nullmove", |c, on| c.profile.null_move = on),
    ("lmr", |c, on| c.profile.lmr = on),
    ("exact", |c, on| c.exact_hook = on),
    ("candidates", |c, on| c.candidates = on),
    ("iterative", |c, on| c.iterative = on),
    ("iir", |c, on| c.profile.iir = on),
    ("lmp", |c, on| c.profile.late_move_pruning = on),
    ("improving", |c, on| c.improving = on),
    ("continuation", |c, on| c.profile.continuation = on),
    ("exchange", |c, on| c.profile.exchange_pruning = on),
    ("sparechecks", |c, on| c.profile.exchange_spares_checks = on),
    ("correction", |c, on| c.profile.correction = on),
    ("extensions", |c, on| c.extensions = on),
];

/// The search margins a spec may set, by name, in the evaluator's units (0 turns them off).
const MARGINS: &[(&str, Set<i32>)] = &[
    ("futility", |c, v| c.profile.futility = v),
    ("singular", |c, v| c.profile.singular = v),
    ("probcut", |c, v| c.profile.probcut = v),
];

/// The keys of a spec besides the switches and margins.
const KEYS: &[&str] = &["eval", "file", "hash", "threads", "nodes", "depth"];

/// An in-process duel player: `duel`, or `duel:KEY=VALUE,...` with keys `eval` (an evaluator
/// of the game), `file` (its weights), `hash` (MiB), `threads`, `nodes` and `depth` (its own
/// limit per move, instead of the match's), the search switches (`tt`, `aspiration`, `mtdf`,
/// `quiescence`, `nullmove`, `lmr`, `exact`, `iterative`, `iir`, `lmp`, `improving`,
/// `continuation`, `exchange`, `correction`, `extensions`: `on` or `off`) and margins (`futility`,
/// `singular`, and `probcut`, Multi-ProbCut's selectivity in hundredths of a sigma). Unset
/// options are the game's own (its search profile), on one thread.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DuelSpec {
    /// The spec as given, which names the player.
    pub text: String,
    /// The evaluator; the game's default when None.
    pub eval: Option<String>,
    /// The evaluator's weights file.
    pub file: Option<PathBuf>,
    /// Table size in MiB (16 when None).
    pub hash: Option<usize>,
    /// Search threads (1 when None).
    pub threads: Option<usize>,
    /// Nodes per move, overriding the match's limits.
    pub nodes: Option<u64>,
    /// Depth per move, overriding the match's limits.
    pub depth: Option<u32>,
    /// Switches and margins, by name, in the order given.
    pub settings: Vec<(String, i32)>,
}

impl DuelSpec {
    /// Reads a player spec: `duel` or `duel:KEY=VALUE,...`; None for anything else (an engine's
    /// command line, such as `duel uci`).
    pub fn parse(text: &str) -> Result<Option<DuelSpec>, SpecError> {
        let t = text.trim();
        let rest = match t.strip_prefix("duel") {
            Some("") => "",
            Some(r) if r.starts_with(':') => &r[1..],
            _ => return Ok(None),
        };
        let bad = |reason: String| SpecError::new("player", t, reason);
        let mut spec = DuelSpec {
            text: t.to_string(),
            ..DuelSpec::default()
        };
        for pair in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(bad(format!("'{pair}' is not KEY=VALUE")));
            };
            let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
            let number = |what: &str| -> Result<u64, SpecError> {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| bad(format!("{key} takes {what}, not '{value}'")))
            };
            match key.as_str() {
                "eval" => spec.eval = Some(value.to_ascii_lowercase()),
                "file" => spec.file = Some(PathBuf::from(value)),
                "hash" => {
                    let mb = number("a size in MiB")?;
                    if mb as usize > duel_search::tt::MAX_MB {
                        return Err(bad(format!(
                            "hash takes at most {} MiB",
                            duel_search::tt::MAX_MB
                        )));
                    }
                    spec.hash = Some(mb as usize)
                }
                "threads" => spec.threads = Some(number("a count from 1")?.min(256) as usize),
                "nodes" => spec.nodes = Some(number("a count from 1")?),
                "depth" => spec.depth = Some(number("a depth from 1")?.min(200) as u32),
                k if SWITCHES.iter().any(|(n, _)| *n == k) => {
                    let on = match value.to_ascii_lowercase().as_str() {
                        "on" | "true" | "1" => 1,
                        "off" | "false" | "0" => 0,
                        _ => return Err(bad(format!("{k} takes on or off, not '{value}'"))),
                    };
                    spec.settings.push((key, on));
                }
                k if MARGINS.iter().any(|(n, _)| *n == k) => {
                    let v = value
                        .parse::<i32>()
                        .ok()
                        .filter(|v| (0..=10_000).contains(v))
                        .ok_or_else(|| bad(format!("{k} takes 0 to 10000, not '{value}'")))?;
                    spec.settings.push((key, v));
                }
                other => {
                    let known: Vec<&str> = KEYS
                        .iter()
                        .copied()
                        .chain(SWITCHES.iter().map(|s| s.0))
                        .chain(MARGINS.iter().map(|s| s.0))
                        .collect();
                    return Err(bad(format!(
                        "unknown key '{other}' (known: {})",
                        known.join(", ")
                    )));
                }
            }
        }
        Ok(Some(spec))
    }

    /// The search options for `G`: the game's profile on one thread, then the spec's.
    pub fn config<G: GameInfo>(&self) -> SearchConfig {
        let mut c = SearchConfig {
            threads: self.threads.unwrap_or(1),
            ..SearchConfig::with_profile(&G::SEARCH_PROFILE)
        };
        if let Some(mb) = self.hash {
            c.tt_mb = mb;
        }
        for (key, v) in &self.settings {
            if let Some((_, set)) = SWITCHES.iter().find(|(n, _)| n == key) {
                set(&mut c, *v != 0);
            }
            if let Some((_, set)) = MARGINS.iter().find(|(n, _)| n == key) {
                set(&mut c, *v);
            }
        }
        c
    }

    /// The player for game `G`; an evaluator the game lacks is refused by name.
    pub fn player<G: GameInfo>(&self) -> Result<Box<dyn Player<G>>, ArenaError> {
        let eval = self.eval.as_deref().unwrap_or(G::EVALUATORS[0]);
        G::with_evaluator(eval, self.file.as_deref(), self)?
    }
}

impl<G: GameInfo> EvaluatorVisitor<G> for &DuelSpec {
    type Output = Result<Box<dyn Player<G>>, ArenaError>;

    fn visit<E: Evaluator<G>>(self, eval: E) -> Self::Output {
        let mut searcher = Searcher::new(eval, SearchConfig::with_profile(&G::SEARCH_PROFILE));
        searcher.set_config(self.config::<G>())?;
        Ok(Box::new(DuelPlayer {
            name: self.text.clone(),
            searcher,
            nodes: self.nodes,
            depth: self.depth,
            tc: TimeControl::per_move(None, None),
        }))
    }
}

/// What the clock keeps for the match runner on each move.
const OVERHEAD: Duration = Duration::from_millis(10);

/// duel searching in this process: a [`Searcher`] of `G` with evaluator `E`.
pub struct DuelPlayer<G: GameInfo, E: Evaluator<G>> {
    name: String,
    searcher: Searcher<G, E>,
    nodes: Option<u64>,
    depth: Option<u32>,
    tc: TimeControl,
}

impl<G: GameInfo, E: Evaluator<G>> DuelPlayer<G, E> {
    /// A player named `name` searching with `searcher`; `nodes` and `depth`, when given,
    /// replace the match's limits.
    pub fn new(
        name: &str,
        searcher: Searcher<G, E>,
        nodes: Option<u64>,
        depth: Option<u32>,
    ) -> Self {
        DuelPlayer {
            name: name.to_string(),
            searcher,
            nodes,
            depth,
            tc: TimeControl::per_move(None, None),
        }
    }
}

impl<G: GameInfo, E: Evaluator<G>> Player<G> for DuelPlayer<G, E> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _start: &G, tc: TimeControl) -> Result<(), ArenaError> {
        self.searcher.new_game();
        self.tc = tc;
        Ok(())
    }

    fn think(&mut self, turn: &Turn<'_, G>) -> Result<Answer, ArenaError> {
        let t0 = Instant::now();
        let (nodes, depth) = match (self.nodes, self.depth) {
            (None, None) => (self.tc.nodes, self.tc.depth),
            own => own,
        };
        let mut soft = None;
        let limits = if nodes.is_some() || depth.is_some() {
            Limits {
                nodes,
                depth,
                time: None,
            }
        } else if let Some(t) = self.tc.movetime {
            Limits::time(t.saturating_sub(OVERHEAD).max(OVERHEAD))
        } else {
            let b = budget(
                &Clock {
                    left: turn.clocks[turn.mover()],
                    increment: self.tc.increment,
                    moves_to_go: None,
                },
                OVERHEAD,
            );
            soft = Some(b.soft);
            Limits::time(b.hard)
        };
        let stop = self.searcher.stop_flag();
        let report = self.searcher.search(turn.pos, &limits, |_| {
            // No new iteration after the soft limit.
            if soft.is_some_and(|s| t0.elapsed() >= s) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let Some(best) = report.best else {
            return Ok(Answer::Resign);
        };
        let value = match report.value.plies_to_end() {
            Some(p) if report.value.is_win() => Value::Mate((p + 1) / 2),
            Some(p) => Value::Mate(-(p + 1) / 2),
            None => Value::Cp(report.value.0),
        };
        let thought = Thought {
            depth: Some(report.depth),
            value: Some(value),
        };
        Ok(Answer::Move(turn.pos.format_move(best), thought))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read_and_bad_ones_named() {
        assert_eq!(DuelSpec::parse("duel uci"), Ok(None));
        assert_eq!(DuelSpec::parse("stockfish"), Ok(None));
        let s = DuelSpec::parse("duel").unwrap().unwrap();
        assert_eq!((s.text.as_str(), s.eval.as_deref()), ("duel", None));
        let s = DuelSpec::parse("duel:eval=Pattern, nodes=2000,lmr=off,futility=0")
            .unwrap()
            .unwrap();
        assert_eq!(s.eval.as_deref(), Some("pattern"));
        assert_eq!(s.nodes, Some(2000));
        let c = s.config::<duel_chess::Chess>();
        assert!(!c.profile.lmr && c.profile.futility == 0 && c.profile.null_move && c.threads == 1);
        let c = DuelSpec::parse("duel:extensions=off,probcut=150")
            .unwrap()
            .unwrap()
            .config::<duel_chess::Chess>();
        assert!(!c.extensions && c.profile.probcut == 150);
        for (bad, says) in [
            ("duel:eval", "KEY=VALUE"),
            ("duel:nodes=0", "nodes"),
            ("duel:lmr=maybe", "on or off"),
            ("duel:speed=9", "unknown key 'speed'"),
            ("duel:hash=999999999", "hash"),
        ] {
            let e = DuelSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains(bad), "{bad}: {e}");
        }
        let e = DuelSpec::parse("duel:eval=nope")
            .unwrap()
            .unwrap()
            .player::<duel_othello::Othello>()
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("nope") && e.contains("pattern"), "{e}");
    }
}
