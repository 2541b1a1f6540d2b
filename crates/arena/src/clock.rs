//! Time controls and the clock: base time and increment per move, a fixed time per move (as
//! Gomocup tournaments play), or a fixed node count or depth per move, for matches that measure
//! search changes without the noise of the clock.

use std::time::Duration;

use duel_core::RecordClock;
use serde::{Deserialize, Serialize};

use crate::SpecError;

/// A time control: base time and increment per move; or a node count or a depth per move, the
/// clock then only guarding against a player that hangs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Time at the start of the game.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// `go nodes N` for every move instead of the clock.
    pub nodes: Option<u64>,
    /// A depth limit for every move instead of the clock (UCI `go depth`, xboard `sd`,
    /// NBoard `set depth`).
    #[serde(default)]
    pub depth: Option<u32>,
    /// A fixed time for every move (UCI `go movetime`, xboard `st`, Gomocup `timeout_turn`
    /// with no game limit) instead of a game's clock: nothing saved carries over.
    #[serde(default)]
    pub movetime: Option<Duration>,
}

/// The clock that guards a node or depth limit: an hour per game.
const GUARD: Duration = Duration::from_secs(3600);

/// How far past a fixed move time a move may come before its flag falls: a tenth of the time
/// and this much more, for the pipes and the scheduler between the engine's clock and ours
/// (cutechess-cli's `timemargin`, the tolerance of Gomocup's managers).
const MOVETIME_MARGIN: Duration = Duration::from_millis(100);

impl TimeControl {
    /// Parses `10+0.1` (seconds, plus increment in seconds), `10` (no increment), or `1/move`
    /// (a fixed time per move, in seconds).
    pub fn parse(text: &str) -> Result<TimeControl, SpecError> {
        let bad = |reason: String| SpecError::new("time control", text, reason);
        let per_move = text.trim().strip_suffix("/move");
        let (base, inc) = match per_move {
            Some(t) => (t, "0"),
            None => text.split_once('+').unwrap_or((text, "0")),
        };
        let secs = |t: &str| -> Result<Duration, SpecError> {
            let v: f64 = t
                .trim()
                .parse()
                .map_err(|_| bad(format!("'{t}' is not a number of seconds")))?;
            if !(0.0..=86_400.0).contains(&v) {
                return Err(bad(format!("{v} s is out of range")));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let tc = TimeControl {
            base: secs(base)?,
            increment: secs(inc)?,
            nodes: None,
            depth: None,
            movetime: None,
        };
        if tc.base.is_zero() {
            return Err(bad(match per_move {
                Some(_) => "the time per move must be above zero".into(),
                None => "the base time must be above zero".into(),
            }));
        }
        Ok(match per_move {
            Some(_) => TimeControl::per_move_time(tc.base),
            None => tc,
        })
    }

    /// `nodes` per move, with an hour per game as the guard.
    pub fn per_move_nodes(nodes: u64) -> TimeControl {
        TimeControl {
            base: GUARD,
            increment: Duration::ZERO,
            nodes: Some(nodes),
            depth: None,
            movetime: None,
        }
    }

    /// `time` for every move.
    pub fn per_move_time(time: Duration) -> TimeControl {
        TimeControl {
            base: time + time / 10 + MOVETIME_MARGIN,
            increment: Duration::ZERO,
            nodes: None,
            depth: None,
            movetime: Some(time),
        }
    }

    /// A depth per move (and `nodes` too, if given), with an hour per game as the guard.
    pub fn per_move(nodes: Option<u64>, depth: Option<u32>) -> TimeControl {
        TimeControl {
            nodes,
            depth,
            ..TimeControl::per_move_nodes(0)
        }
    }

    /// The game clock a record or an engine is told: base and increment; None for a node or
    /// depth limit or a time per move, which no game clock describes.
    pub fn clock(&self) -> Option<RecordClock> {
        (!self.is_fixed() && self.movetime.is_none()).then_some(RecordClock {
            base: self.base,
            increment: self.increment,
        })
    }

    /// Whether the clock only guards a node or depth limit.
    pub fn is_fixed(&self) -> bool {
        self.nodes.is_some() || self.depth.is_some()
    }

    /// As PGN's `TimeControl` tag writes it: `10+0.1`; `1/move` for a time per move (PGN has
    /// no form for it: cutechess-cli's); `-` (no clock) for a node or depth limit.
    pub fn pgn(&self) -> String {
        if self.is_fixed() {
            return "-".into();
        }
        if let Some(t) = self.movetime {
            return format!("{}/move", t.as_secs_f64());
        }
        format!(
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }

    /// In words: `10+0.1`, `20000 nodes per move`, `depth 8 per move`.
    pub fn describe(&self) -> String {
        match (self.nodes, self.depth) {
            (Some(n), None) => format!("{n} nodes per move"),
            (None, Some(d)) => format!("depth {d} per move"),
            (Some(n), Some(d)) => format!("{n} nodes and depth {d} per move"),
            (None, None) => self.pgn(),
        }
    }
}

/// Both players' clocks during a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    /// Time left, the first player's first.
    pub left: [Duration; 2],
    /// The controls, the first player's first.
    pub controls: [TimeControl; 2],
}

impl Clocks {
    /// Full clocks at the start of a game.
    pub fn new(controls: [TimeControl; 2]) -> Clocks {
        Clocks {
            left: controls.map(|c| c.base),
            controls,
        }
    }

    /// Charges `used` to player `side` (0 first, 1 second) and adds the increment; false
    /// (and nothing charged) when `used` is more than was left: the flag fell. Under a time
    /// per move the clock is full again for the next move.
    pub fn charge(&mut self, side: usize, used: Duration) -> bool {
        if used > self.left[side] {
            return false;
        }
        let control = self.controls[side];
        self.left[side] = match control.movetime {
            Some(_) => control.base,
            None => self.left[side] - used + control.increment,
        };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.pgn(), "10+0.1");
        assert_eq!(TimeControl::parse("60").unwrap().increment, Duration::ZERO);
        for bad in ["x", "10+y", "-1", "0+1", "1e9"] {
            let e = TimeControl::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad) && e.starts_with("time control"), "{e}");
        }
        assert_eq!(
            TimeControl::per_move_nodes(2000).describe(),
            "2000 nodes per move"
        );
        assert_eq!(
            TimeControl::per_move(None, Some(8)).describe(),
            "depth 8 per move"
        );
        assert_eq!(TimeControl::per_move(None, Some(8)).pgn(), "-");
        let st = TimeControl::parse("1/move").unwrap();
        assert_eq!(st.movetime, Some(Duration::from_secs(1)));
        assert_eq!(
            (st.pgn(), st.describe()),
            ("1/move".into(), "1/move".into())
        );
        assert_eq!(TimeControl::parse(&st.pgn()), Ok(st));
        for bad in ["0/move", "x/move", "1+1/move"] {
            let e = TimeControl::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }

    #[test]
    fn the_flag_falls_when_the_time_is_spent() {
        let mut c = Clocks::new([TimeControl::parse("1+0.5").unwrap(); 2]);
        assert!(c.charge(0, Duration::from_millis(900)));
        assert_eq!(c.left[0], Duration::from_millis(600));
        assert!(!c.charge(1, Duration::from_millis(1001)));
        assert_eq!(c.left[1], Duration::from_secs(1));
        // A time per move: a move may take a little more than its time, never carries any
        // over, and falls past the margin.
        let st = TimeControl::parse("0.5/move").unwrap();
        let mut c = Clocks::new([st; 2]);
        assert!(c.charge(0, Duration::from_millis(560)));
        assert!(c.charge(0, Duration::from_millis(10)));
        assert_eq!(c.left[0], Duration::from_millis(650));
        assert!(!c.charge(1, Duration::from_millis(651)));
    }
}
