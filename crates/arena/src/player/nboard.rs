//! An NBoard engine (Othello) as a player: the game so far as GGF (`set game`), then `go`,
//! and `=== MOVE/EVAL/TIME` as the answer. NBoard has no clock command: under a depth the
//! engine searches to the depth it is set to (`set depth`, from the match's `--depth` or the
//! `depth` option), and the match's clock only guards it; under a game clock the GGF carries
//! it, as the NBoard GUI sends it (`TI[2/0.02]`, or `TB` and `TW` for time odds, and each
//! move's time as the match's clock charged it, `B[F5//0.123]`), for an engine that plays by
//! it (`duel nboard --tc`). A time per move has no GGF form: the engine is told nothing, and
//! keeps to it by its own options (`duel nboard --time`).

use std::time::Instant;

use duel_core::{GameInfo, RecordInfo};
use duel_protocol::nboard::{Command, Reply};

use super::process::{Heard, Process};
use super::{Answer, Player, ProgramSpec, Thought, Turn, Value};
use crate::{ArenaError, TimeControl};

/// A running NBoard engine.
pub struct NboardClient {
    p: Process,
    /// The token of the next `ping`.
    pings: u32,
}

impl NboardClient {
    /// Starts the engine: `nboard 2` (its name from `set myname`), the options (`depth` and
    /// `contempt`, the two NBoard sets), then a `ping` answered.
    pub fn start(spec: &ProgramSpec) -> Result<NboardClient, ArenaError> {
        let mut e = NboardClient {
            p: Process::start(&spec.command)?,
            pings: 0,
        };
        e.p.send(&Command::Nboard(2))?;
        for (name, value) in &spec.options {
            let number = value.trim().parse::<i32>();
            let command = match (name.to_ascii_lowercase().as_str(), number) {
                ("depth", Ok(d)) if (1..=60).contains(&d) => Command::SetDepth(d as u32),
                ("contempt", Ok(c)) => Command::SetContempt(c),
                _ => {
                    return Err(e.p.unable(format!(
                        "NBoard sets only depth (1 to 60) and contempt (centi-discs), not \
                         '{name}={value}'"
                    )))
                }
            };
            e.p.send(&command)?;
        }
        let mut name = None;
        e.sync(|reply| {
            if let Reply::MyName(n) = reply {
                name = Some(n);
            }
        })?;
        if let Some(n) = name {
            e.p.name = n;
        }
        Ok(e)
    }

    /// `ping N` and the lines until `pong N`, each shown to `heard`.
    fn sync(&mut self, mut heard: impl FnMut(Reply)) -> Result<(), ArenaError> {
        self.pings += 1;
        let token = self.pings.to_string();
        self.p
            .ask(&Command::Ping(token.clone()), |l| match Reply::parse(l) {
                Ok(Reply::Pong(t)) if t == token => true,
                Ok(r) => {
                    heard(r);
                    false
                }
                Err(_) => false,
            })
    }

    /// The `=== MV/EVAL/TIME` line; one that does not read is garbage, not a line to skip:
    /// the engine has answered and says no more, and a depth-limited game has an hour's clock.
    fn answer(&mut self, deadline: Instant) -> Result<Answer, ArenaError> {
        self.p.answer(deadline, |line| match Reply::parse(line) {
            Ok(Reply::Best { mv, eval, .. }) => {
                let thought = Thought {
                    depth: None,
                    value: Some(Value::Cp((eval * 100.0).round() as i32)),
                };
                Heard::Answer(Answer::Move(mv, thought))
            }
            Err(e) if line.split_whitespace().next() == Some("===") => Heard::unreadable(line, e),
            _ => Heard::Nothing,
        })
    }
}

impl<G: GameInfo> Player<G> for NboardClient {
    fn name(&self) -> &str {
        &self.p.name
    }

    fn new_game(&mut self, _start: &G, tc: TimeControl) -> Result<(), ArenaError> {
        if tc.nodes.is_some() {
            return Err(self.p.unable(
                "an NBoard engine cannot be limited by nodes; use a depth or a time control",
            ));
        }
        if let Some(d) = tc.depth {
            self.p.send(&Command::SetDepth(d))?;
        }
        self.sync(|_| {})
    }

    fn think(&mut self, turn: &Turn<'_, G>) -> Result<Answer, ArenaError> {
        // Under a depth, the game as before: no clock and no times.
        let clocks = turn.controls.map(|c| c.clock());
        let info = RecordInfo {
            clocks,
            times: if clocks == [None, None] {
                &[]
            } else {
                turn.times
            },
            ..RecordInfo::default()
        };
        let game = G::record(turn.start, turn.moves, &info).ok_or_else(|| {
            self.p.unable(format!(
                "{} has no game record to send over NBoard",
                G::TITLE
            ))
        })?;
        self.p.send(&Command::SetGame(game))?;
        self.p.send(&Command::Go)?;
        self.answer(turn.deadline)
    }

    fn interrupt(&mut self) -> Result<(), ArenaError> {
        // `ping` stops a search, and its move (if any) comes before `pong`.
        self.sync(|_| {})
    }
}
