//! The options table of the UCI family's loop: every option, its type with its default and
//! bounds, and what it sets. `uci` announces the table, `setoption` finds an option in it by
//! name and the loop applies the value here, as Stockfish keeps `ucioption.cpp` apart from
//! `uci.cpp`.

use std::path::PathBuf;
use std::time::Duration;

use duel_engine::{evaluators, open, open_with, EngineError, SearchConfig, Session};

use super::{Loop, OptionKind, Reply};

/// The table's size at the start, in MiB. The bound is the facade's; a size within it that the
/// machine cannot give is refused when set, and the old table kept.
const HASH_DEFAULT: i64 = 16;
const HASH_MAX: i64 = duel_engine::HASH_MAX_MB as i64;
const THREADS_MAX: usize = 64;
const MULTIPV_MAX: i64 = 256;
/// `Move Overhead` at the start, in milliseconds.
pub(super) const OVERHEAD_DEFAULT: i64 = 10;
const OVERHEAD_MAX: i64 = 5_000;

/// `EvalFile`'s default and the value that returns to the built-in net.
const EVAL_FILE_BUILT_IN: &str = "<built-in>";

/// The most search threads worth running ([`duel_engine::threads_max`]), at most
/// [`THREADS_MAX`].
fn threads_max() -> usize {
    duel_engine::threads_max().min(THREADS_MAX)
}

/// What an option sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sets {
    /// The transposition table's size, in MiB.
    Hash,
    /// The search threads, capped at the cores this process may use.
    Threads,
    /// How many principal variations a search reports.
    MultiPv,
    /// What is kept back from the clock on every move, in milliseconds.
    MoveOverhead,
    /// Nothing: only a hint that the GUI may send `go ponder`.
    Ponder,
    /// The table, cleared (a button).
    ClearHash,
    /// The evaluator, by name, in a new session with the options and the position kept.
    Evaluator,
    /// The game (Fairy-Stockfish's way of choosing it), at its start.
    Variant,
    /// The net file of the evaluator `net`.
    EvalFile,
    /// One of the game's own on/off options (`GameInfo::SWITCHES`: chess's `UCI_Chess960`).
    Switch(&'static str),
}

/// One option of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spec {
    /// Its name, as UCI announces it.
    pub name: &'static str,
    /// Another name it answers to, which a dialect may announce it by (UCCI's `hashsize`).
    pub also: Option<&'static str>,
    /// Its type, default and bounds.
    pub kind: OptionKind,
    /// What it sets.
    pub sets: Sets,
    /// Whether `uci` announces it: `EvalFile` is read for every game but announced only for a
    /// game with a net (elsewhere the net is refused as an evaluator the game has not).
    pub announced: bool,
}

impl Spec {
    fn new(name: &'static str, kind: OptionKind, sets: Sets) -> Self {
        Spec {
            name,
            also: None,
            kind,
            sets,
            announced: true,
        }
    }

    fn spin(name: &'static str, (default, min, max): (i64, i64, i64), sets: Sets) -> Self {
        Spec::new(name, OptionKind::Spin { default, min, max }, sets)
    }

    /// Whether `setoption` names this option with `name`: its name or its other name, in any
    /// case and without its spaces; a game's switch by its own name, in any case.
    fn answers_to(&self, name: &str) -> bool {
        match self.sets {
            Sets::Switch(_) => self.name.eq_ignore_ascii_case(name),
            _ => {
                let key = squeeze(name);
                key == squeeze(self.name) || self.also == Some(key.as_str())
            }
        }
    }

    /// A spin option's value: an integer within its bounds, else the error naming the option
    /// as the GUI named it (`given`).
    fn spin_value(&self, given: &str, value: Option<&str>) -> Result<i64, OptionError> {
        let OptionKind::Spin { min, max, .. } = self.kind else {
            unreachable!("{} is read as a spin option", self.name)
        };
        let v = value.unwrap_or("").trim();
        match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(OptionError::NotSpin {
                name: given.to_string(),
                min,
                max,
                value: v.to_string(),
            }),
        }
    }
}

/// A name in lower case without its white space: how `setoption` names are compared, and how
/// UCCI writes them.
pub(crate) fn squeeze(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The table for `game`, whose sessions have the on/off options `switches`, in the order `uci`
/// announces it.
pub(crate) fn table(game: &'static str, switches: &[&'static str]) -> Vec<Spec> {
    let evals = evaluators(game).unwrap_or(&[]);
    let mut table = vec![
        Spec {
            also: Some("hashsize"),
            ..Spec::spin("Hash", (HASH_DEFAULT, 1, HASH_MAX), Sets::Hash)
        },
        Spec::spin("Threads", (1, 1, threads_max() as i64), Sets::Threads),
        Spec::spin("MultiPV", (1, 1, MULTIPV_MAX), Sets::MultiPv),
        Spec::spin(
            "Move Overhead",
            (OVERHEAD_DEFAULT, 0, OVERHEAD_MAX),
            Sets::MoveOverhead,
        ),
        Spec::new("Ponder", OptionKind::Check { default: false }, Sets::Ponder),
        Spec::new("Clear Hash", OptionKind::Button, Sets::ClearHash),
        Spec::new(
            "Evaluator",
            OptionKind::Combo {
                default: evals.first().unwrap_or(&"").to_string(),
                vars: evals.iter().map(|e| e.to_string()).collect(),
            },
            Sets::Evaluator,
        ),
        // Fairy-Stockfish's way of choosing the game: any registered one, this loop's first.
        Spec::new(
            "UCI_Variant",
            OptionKind::Combo {
                default: game.to_string(),
                vars: duel_engine::games()
                    .iter()
                    .map(|g| g.name.to_string())
                    .collect(),
            },
            Sets::Variant,
        ),
    ];
    for &name in switches {
        let kind = OptionKind::Check { default: false };
        table.push(Spec::new(name, kind, Sets::Switch(name)));
    }
    let default = EVAL_FILE_BUILT_IN.to_string();
    table.push(Spec {
        announced: evals.contains(&"net"),
        ..Spec::new("EvalFile", OptionKind::String { default }, Sets::EvalFile)
    });
    table
}

/// Why a `setoption` was refused; the message goes to the GUI as an `info string`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OptionError {
    /// A check option's value is neither `true` nor `false`.
    #[error("option '{name}' takes true or false, not '{value}'")]
    NotCheck { name: String, value: String },
    /// A spin option's value is no integer within its range.
    #[error("option '{name}' takes an integer from {min} to {max}, not '{value}'")]
    NotSpin {
        name: String,
        min: i64,
        max: i64,
        value: String,
    },
    /// The table of the size asked for cannot be had; the old one stays.
    #[error("option 'Hash': {reason}; the table stays at {kept} MiB")]
    Hash { reason: EngineError, kept: usize },
    /// No option of this name.
    #[error("no such option '{0}'")]
    Unknown(String),
    /// The session refused the value (an evaluator, its file, a switch).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl Loop {
    /// The table for this loop's game and session.
    pub(super) fn options(&self) -> Vec<Spec> {
        let switches = self.session.as_ref().map_or(&[][..], |s| s.switches());
        let mut specs = table(self.opts.game, switches);
        if !self.dialect.chooses_game {
            specs.retain(|s| s.sets != Sets::Variant);
        }
        specs
    }

    /// `uci`'s option lines, each under the name the dialect gives it.
    pub(super) fn announce_options(&self) {
        for spec in self.options().into_iter().filter(|s| s.announced) {
            let name = (self.dialect.option_name)(&spec);
            self.say(Reply::Option {
                name,
                kind: spec.kind,
            });
        }
    }

    /// `setoption`: the option `name` names, set to `value`, or the refusal said.
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        let result = match self.options().into_iter().find(|s| s.answers_to(name)) {
            Some(spec) => self.set(&spec, name, value),
            None => Err(OptionError::Unknown(name.to_string())),
        };
        if let Err(e) = result {
            self.error(e);
        }
    }

    /// Sets what `spec` sets from `value`; `given` is the option's name as the GUI sent it.
    fn set(&mut self, spec: &Spec, given: &str, value: Option<&str>) -> Result<(), OptionError> {
        match spec.sets {
            Sets::Hash => spec.spin_value(given, value).and_then(|n| {
                self.with_config(|c| c.tt_mb = n as usize)
                    .map_err(|reason| OptionError::Hash {
                        reason,
                        kept: self.hash_mb(),
                    })
            }),
            Sets::Threads => self.set_threads(given, value),
            Sets::MultiPv => spec.spin_value(given, value).and_then(|n| {
                self.with_config(|c| c.multipv = n as usize)
                    .map_err(Into::into)
            }),
            Sets::MoveOverhead => spec.spin_value(given, value).map(|n| {
                self.overhead = Duration::from_millis(n as u64);
            }),
            Sets::Ponder => self.check_value(spec.name, value).map(|_| ()),
            Sets::ClearHash => {
                if let Some(s) = self.session.as_mut() {
                    s.new_game();
                }
                Ok(())
            }
            Sets::Evaluator => self.set_evaluator(value.unwrap_or("")).map_err(Into::into),
            Sets::Variant => self.set_game(value.unwrap_or("")).map_err(Into::into),
            Sets::EvalFile => self
                .set_eval_file(value.unwrap_or("").trim())
                .map_err(Into::into),
            Sets::Switch(switch) => self.set_switch(switch, value),
        }
    }

    /// A check option's value, in the words the dialect has for on and off (in any case), else
    /// an error naming the option.
    fn check_value(&self, name: &str, value: Option<&str>) -> Result<bool, OptionError> {
        let word = value.map(|v| v.trim().to_ascii_lowercase());
        word.as_deref()
            .and_then(self.dialect.check_word)
            .ok_or_else(|| OptionError::NotCheck {
                name: name.to_string(),
                value: word.unwrap_or_default(),
            })
    }

    /// `Threads`: capped rather than refused, so that a GUI's setting from a larger machine
    /// still gets all the cores here, not the single thread a refusal would leave.
    fn set_threads(&mut self, given: &str, value: Option<&str>) -> Result<(), OptionError> {
        let max = threads_max();
        let v = value.unwrap_or("").trim();
        match v.parse::<u64>() {
            Ok(n) if n >= 1 => {
                let used = n.min(max as u64) as usize;
                let set = self.with_config(|c| c.threads = used);
                if set.is_ok() && (used as u64) < n {
                    self.say(Reply::InfoString(format!(
                        "option 'Threads': {n} is more than the {max} cores this \
                         engine may use; {used} threads"
                    )));
                }
                set.map_err(Into::into)
            }
            _ => Err(OptionError::NotSpin {
                name: given.to_string(),
                min: 1,
                max: max as i64,
                value: v.to_string(),
            }),
        }
    }

    fn with_config(&mut self, change: impl FnOnce(&mut SearchConfig)) -> Result<(), EngineError> {
        match self.session.as_mut() {
            Some(s) => {
                let mut c = s.config().clone();
                change(&mut c);
                s.set_config(c)
            }
            None => Ok(()),
        }
    }

    /// The table's size now, in MiB.
    fn hash_mb(&self) -> usize {
        self.session.as_ref().map_or(0, |s| s.config().tt_mb)
    }

    /// `session` with the switches turned on that this loop has.
    pub(super) fn switched(&self, mut session: Box<dyn Session>) -> Box<dyn Session> {
        for name in &self.switches {
            // The names came from a session of the same game.
            if let Err(e) = session.set_switch(name, true) {
                self.error(e);
            }
        }
        session
    }

    /// Sets a switch (`UCI_Chess960`) from its option value.
    fn set_switch(&mut self, name: &'static str, value: Option<&str>) -> Result<(), OptionError> {
        let on = self.check_value(name, value)?;
        if let Some(s) = self.session.as_mut() {
            s.set_switch(name, on)?;
        }
        self.switches.retain(|&s| s != name);
        if on {
            self.switches.push(name);
        }
        Ok(())
    }

    /// Plays another game from now on (`UCI_Variant`), at its start, with its default
    /// evaluator and search profile; the table's size, threads and lines are kept.
    fn set_game(&mut self, name: &str) -> Result<(), EngineError> {
        let game = duel_engine::game_name(name)?;
        if game == self.opts.game {
            return Ok(());
        }
        let mut fresh = open(game, None)?;
        if let Some(old) = self.session.as_ref() {
            let mut c = fresh.config().clone();
            c.tt_mb = old.config().tt_mb;
            c.threads = old.config().threads;
            c.multipv = old.config().multipv;
            fresh.set_config(c)?;
        }
        self.opts.game = game;
        self.switches.clear();
        self.eval_file = None;
        self.session = Some(fresh);
        Ok(())
    }

    /// A new session with another evaluator, keeping the options and the position.
    fn set_evaluator(&mut self, name: &str) -> Result<(), EngineError> {
        let Some(old) = self.session.as_ref() else {
            return Ok(());
        };
        let file = self
            .eval_file
            .as_deref()
            .filter(|_| name.trim().eq_ignore_ascii_case("net"));
        let mut fresh = self.switched(open_with(self.opts.game, Some(name), file)?);
        fresh.set_config(old.config().clone())?;
        fresh.set_position(&old.position(), &[])?;
        self.session = Some(fresh);
        Ok(())
    }

    /// Reads the net file now, so a bad one is named at once and the last good one kept; the
    /// evaluator `net` uses it from here on.
    fn set_eval_file(&mut self, value: &str) -> Result<(), EngineError> {
        let path = match value {
            "" | EVAL_FILE_BUILT_IN | "<empty>" => None,
            v => Some(PathBuf::from(v)),
        };
        if let Some(p) = &path {
            open_with(self.opts.game, Some("net"), Some(p))?;
        }
        self.eval_file = path;
        match self.session.as_ref().map(|s| s.evaluator()) {
            Some("net") => self.set_evaluator("net"),
            _ => Ok(()),
        }
    }
}
