//! A UCI engine as a player: `position` and `go` with both clocks at every move, `info` lines
//! read for the record, `bestmove` as the answer.

use std::time::{Duration, Instant};

use duel_core::GameInfo;
use duel_protocol::uci::{shift_ranks, Command, Go, Info, Reply};
use duel_search::Limits;

use super::process::{probe_answer, Heard, Process, Said};
use super::{Answer, Player, ProgramSpec, Thought, Turn, Value};
use crate::{ArenaError, TimeControl};

/// A running UCI engine.
pub struct UciClient {
    p: Process,
    /// Whether the engine announced `UCI_Variant` (Fairy-Stockfish, duel): it is then told
    /// the game at each new game.
    variants: bool,
}

impl UciClient {
    /// Starts the engine: `uci` (its name from `id name`), the options, `isready`.
    pub fn start(spec: &ProgramSpec) -> Result<UciClient, ArenaError> {
        let mut p = Process::start(&spec.command)?;
        let mut variants = false;
        let mut announced = Vec::new();
        p.handshake(&Command::Uci, |l| match Reply::parse(l) {
            Ok(Reply::IdName(n)) => Said::Name(n),
            Ok(Reply::Option { name, .. }) => {
                variants |= name.eq_ignore_ascii_case("UCI_Variant");
                announced.push(name);
                Said::Nothing
            }
            Ok(Reply::UciOk) => Said::Done(None),
            _ => Said::Nothing,
        })?;
        p.check_options(&spec.options, &announced)?;
        p.send_all(spec.options.iter().map(|(name, value)| Command::SetOption {
            name: name.clone(),
            value: Some(value.clone()),
        }))?;
        let mut e = UciClient { p, variants };
        e.ready()?;
        Ok(e)
    }

    fn ready(&mut self) -> Result<(), ArenaError> {
        self.p.ask(&Command::IsReady, |l| {
            matches!(Reply::parse(l), Ok(Reply::ReadyOk))
        })
    }

    /// Reads the engine's thinking until its move or `deadline`. Other lines pass, as UCI
    /// says unknown ones must; a `bestmove` that does not read is garbage, since no other
    /// answer will come.
    fn answer(&mut self, deadline: Instant) -> Result<Answer, ArenaError> {
        let mut thought = Thought::default();
        self.p.answer(deadline, |line| match Reply::parse(line) {
            Ok(Reply::BestMove { mv, .. }) => {
                let mv = mv.unwrap_or_else(|| "(none)".into());
                Heard::Answer(Answer::Move(mv, thought))
            }
            Ok(Reply::Info(info)) => {
                heard(&mut thought, &info);
                Heard::Nothing
            }
            Err(e) if line.split_whitespace().next() == Some("bestmove") => {
                Heard::unreadable(line, e)
            }
            _ => Heard::Nothing,
        })
    }

    /// The engine's move in `pos` within `limits` (`go depth`, `nodes`, `movetime`), a new
    /// game each time, as `duel suite --engine` asks: the move, its depth, the time taken.
    pub fn probe<G: GameInfo>(
        &mut self,
        pos: &G,
        limits: &Limits,
        patience: Duration,
    ) -> Result<(Answer, Duration), ArenaError> {
        self.p.send(&Command::UciNewGame)?;
        self.ready()?;
        self.p
            .send(&Command::Position(super::position_of(pos, Vec::new())))?;
        self.p.send(&Command::Go(Go {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.time.map(|t| t.as_millis().max(1) as i64),
            ..Go::default()
        }))?;
        probe_answer(
            self,
            patience,
            |e| e.p.send(&Command::Stop),
            |e, deadline| e.answer(deadline),
        )
    }
}

/// Takes in one `info` line: only the first line of a MultiPV search, and only a line with a
/// value (a bare `info depth` line, a new iteration begun, does not replace the depth of the
/// value shown).
fn heard(thought: &mut Thought, info: &Info) {
    if info.multipv.is_some_and(|n| n != 1) {
        return;
    }
    if let Some(score) = info.score {
        thought.value = Some(match score {
            duel_protocol::uci::Score::Cp(v) => Value::Cp(v),
            duel_protocol::uci::Score::Mate(m) => Value::Mate(m),
        });
        thought.depth = info.depth;
    }
}

impl<G: GameInfo> Player<G> for UciClient {
    fn name(&self) -> &str {
        &self.p.name
    }

    fn new_game(&mut self, _start: &G, _tc: TimeControl) -> Result<(), ArenaError> {
        if self.variants {
            self.p.send(&Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some(G::NAME.into()),
            })?;
        }
        self.p.send(&Command::UciNewGame)?;
        self.ready()
    }

    fn think(&mut self, turn: &Turn<'_, G>) -> Result<Answer, ArenaError> {
        // Ranks as Fairy-Stockfish counts them only for an engine that speaks its dialect
        // (it announced `UCI_Variant`); Pikafish and the engines made for one game write the
        // game's own notation.
        let up = match self.variants {
            true => i32::from(G::UCI_RANK_OFFSET),
            false => 0,
        };
        let moves = turn
            .move_texts()
            .iter()
            .map(|m| shift_ranks(m, up))
            .collect();
        self.p
            .send(&Command::Position(super::position_of(turn.start, moves)))?;
        let tc = turn.controls[turn.mover()];
        let ms = |d: Duration| d.as_millis() as i64;
        let go = if tc.is_fixed() {
            Go {
                nodes: tc.nodes,
                depth: tc.depth,
                ..Go::default()
            }
        } else if let Some(t) = tc.movetime {
            Go {
                movetime: Some(ms(t)),
                ..Go::default()
            }
        } else {
            Go {
                wtime: Some(ms(turn.clocks[0])),
                btime: Some(ms(turn.clocks[1])),
                winc: Some(ms(turn.controls[0].increment)),
                binc: Some(ms(turn.controls[1].increment)),
                ..Go::default()
            }
        };
        self.p.send(&Command::Go(go))?;
        Ok(match self.answer(turn.deadline)? {
            Answer::Move(mv, t) => Answer::Move(shift_ranks(&mv, -up), t),
            other => other,
        })
    }

    fn interrupt(&mut self) -> Result<(), ArenaError> {
        self.p.send(&Command::Stop)?;
        self.ready()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an engine said while thinking becomes the move's comment: the last value with
    /// its depth, MultiPV's other lines and `info string` ignored.
    #[test]
    fn thoughts_become_notes() {
        let ms = Duration::from_millis;
        assert_eq!(Thought::default().note(ms(531)), "0.531s");
        let mut t = Thought::default();
        let hear = |t: &mut Thought, line: &str| {
            if let Ok(Reply::Info(info)) = Reply::parse(line) {
                heard(t, &info)
            }
        };
        for line in [
            "info depth 11 seldepth 15 score cp 35 nodes 100 pv e2e4",
            "info depth 12 seldepth 16 multipv 1 score cp -7 upperbound nodes 900 pv e2e4",
            "info depth 12 multipv 2 score cp -50 nodes 950 pv d2d4",
            "info string depth 30 score cp 999",
            "info depth 13",
            "info currmove e2e4 currmovenumber 1",
        ] {
            hear(&mut t, line);
        }
        assert_eq!(t.note(ms(1200)), "-0.07/12 1.200s");
        hear(&mut t, "info depth 20 score mate -3 pv e1e2");
        assert_eq!(t.note(ms(5)), "-M3/20 0.005s");
        hear(&mut t, "info depth 21 score mate 2 pv e1e2");
        assert_eq!(t.note(ms(5)), "+M2/21 0.005s");
        // Whatever number an engine prints, the note is written without a panic.
        hear(&mut t, "info depth 1 score mate -2147483648");
        assert_eq!(t.note(ms(5)), "-M2147483648/1 0.005s");
    }
}
