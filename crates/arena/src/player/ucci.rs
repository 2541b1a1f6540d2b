//! A UCCI engine (ElephantEye, duel's `ucci`) as a player: UCI's cousin for xiangqi. The
//! position and both clocks go with every move, as in UCI; the differences are in the words:
//! `setoption NAME VALUE`, `go time T increment I opptime T oppincrement I`, no `movetime`
//! (a time per move is `time T movestogo 1`), times in seconds unless the engine offers
//! `usemillisec`, and `nobestmove` when it has no move to give.

use std::time::{Duration, Instant};

use duel_core::GameInfo;
use duel_protocol::ucci::{Command, Go, OptionKind, Reply};
use duel_search::Limits;

use super::process::{probe_answer, Heard, Process, Said};
use super::{Answer, Player, ProgramSpec, Thought, Turn, Value};
use crate::{ArenaError, TimeControl};

/// A running UCCI engine.
pub struct UcciClient {
    p: Process,
    /// Times go in milliseconds (the engine offered `usemillisec` and it was turned on), else
    /// in whole seconds.
    millis: bool,
    /// The engine offers the `newgame` button, pressed before each game.
    newgame: bool,
}

impl UcciClient {
    /// Starts the engine: `ucci` (its name from `id name`), `usemillisec` on if offered, the
    /// options, `isready`.
    pub fn start(spec: &ProgramSpec) -> Result<UcciClient, ArenaError> {
        let mut p = Process::start(&spec.command)?;
        let (mut millis, mut newgame) = (false, false);
        let mut announced = Vec::new();
        p.handshake(&Command::Ucci, |l| match Reply::parse(l) {
            Ok(Reply::Id { key: "name", value }) => Said::Name(value),
            Ok(Reply::Option { name, kind }) => {
                match (name.as_str(), kind) {
                    ("usemillisec", OptionKind::Check(_)) => millis = true,
                    ("newgame", OptionKind::Button) => newgame = true,
                    _ => {}
                }
                announced.push(name);
                Said::Nothing
            }
            Ok(Reply::UcciOk) => Said::Done(None),
            _ => Said::Nothing,
        })?;
        p.check_options(&spec.options, &announced)?;
        if millis {
            p.send(&Command::SetOption {
                name: "usemillisec".into(),
                value: Some("true".into()),
            })?;
        }
        p.send_all(spec.options.iter().map(|(name, value)| Command::SetOption {
            name: name.clone(),
            value: Some(value.clone()),
        }))?;
        let mut e = UcciClient { p, millis, newgame };
        e.ready()?;
        Ok(e)
    }

    fn ready(&mut self) -> Result<(), ArenaError> {
        self.p.ask(&Command::IsReady, |l| {
            matches!(Reply::parse(l), Ok(Reply::ReadyOk))
        })
    }

    /// A duration in the session's unit; at least 1, since 0 would mean no time at all.
    fn time(&self, d: Duration) -> u64 {
        let n = if self.millis {
            d.as_millis()
        } else {
            d.as_secs().into()
        };
        u64::try_from(n).unwrap_or(u64::MAX).max(1)
    }

    /// Reads the engine's thinking until its move or `deadline`. `bestmove M resign` and
    /// `nobestmove` (no move to give in a game still going) are resignations; a `bestmove`
    /// that does not read is garbage.
    fn answer(&mut self, deadline: Instant) -> Result<Answer, ArenaError> {
        let mut thought = Thought::default();
        self.p.answer(deadline, |line| match Reply::parse(line) {
            Ok(Reply::BestMove { resign: true, .. } | Reply::NoBestMove) => {
                Heard::Answer(Answer::Resign)
            }
            Ok(Reply::BestMove { mv, .. }) => Heard::Answer(Answer::Move(mv, thought)),
            Ok(Reply::Info { depth, score, .. }) => {
                thought = Thought {
                    depth: Some(depth),
                    value: Some(Value::Cp(score)),
                };
                Heard::Nothing
            }
            Err(e) if line.split_whitespace().next() == Some("bestmove") => {
                Heard::unreadable(line, e)
            }
            _ => Heard::Nothing,
        })
    }

    /// A time per move: UCCI has no `movetime`, so the move's time is the whole clock with one
    /// move to go.
    fn per_move(&self, t: Duration) -> Go {
        Go {
            time: Some(self.time(t)),
            movestogo: Some(1),
            ..Go::default()
        }
    }

    /// The engine's move in `pos` within `limits` (`go depth`, `nodes`, or a time per move),
    /// a new game each time, as `duel suite --engine` asks: the move, its depth, the time
    /// taken.
    pub fn probe<G: GameInfo>(
        &mut self,
        pos: &G,
        limits: &Limits,
        patience: Duration,
    ) -> Result<(Answer, Duration), ArenaError> {
        self.new_game_sent()?;
        self.p
            .send(&Command::Position(super::position_of(pos, Vec::new())))?;
        let go = match limits.time {
            Some(t) => self.per_move(t),
            None => Go::default(),
        };
        self.p.send(&Command::Go(Go {
            depth: limits.depth,
            nodes: limits.nodes,
            infinite: limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none(),
            ..go
        }))?;
        probe_answer(
            self,
            patience,
            |e| e.p.send(&Command::Stop),
            |e, deadline| e.answer(deadline),
        )
    }

    fn new_game_sent(&mut self) -> Result<(), ArenaError> {
        if self.newgame {
            self.p.send(&Command::SetOption {
                name: "newgame".into(),
                value: None,
            })?;
        }
        self.ready()
    }
}

impl<G: GameInfo> Player<G> for UcciClient {
    fn name(&self) -> &str {
        &self.p.name
    }

    fn new_game(&mut self, _start: &G, _tc: TimeControl) -> Result<(), ArenaError> {
        self.new_game_sent()
    }

    fn think(&mut self, turn: &Turn<'_, G>) -> Result<Answer, ArenaError> {
        self.p.send(&Command::Position(super::position_of(
            turn.start,
            turn.move_texts(),
        )))?;
        let me = turn.mover();
        let tc = turn.controls[me];
        let go = if tc.is_fixed() {
            Go {
                nodes: tc.nodes,
                depth: tc.depth,
                ..Go::default()
            }
        } else if let Some(t) = tc.movetime {
            self.per_move(t)
        } else {
            let them = turn.controls[1 - me];
            Go {
                time: Some(self.time(turn.clocks[me])),
                increment: Some(self.time(tc.increment)).filter(|_| !tc.increment.is_zero()),
                opptime: Some(self.time(turn.clocks[1 - me])),
                oppincrement: Some(self.time(them.increment)).filter(|_| !them.increment.is_zero()),
                ..Go::default()
            }
        };
        self.p.send(&Command::Go(go))?;
        self.answer(turn.deadline)
    }

    fn interrupt(&mut self) -> Result<(), ArenaError> {
        self.p.send(&Command::Stop)?;
        self.ready()
    }
}
