//! A Gomocup brain (Gomoku) as a player, driven as Piskvork drives it, the game's board as
//! [`GameInfo::gomocup_board`] gives it: `START` or `RECTSTART`
//! and `INFO rule` for each game, then `BEGIN` on the empty board, `TURN x,y` with the
//! opponent's move when the brain's board is one move behind, and otherwise (an opening's
//! stones) `RESTART` and the whole position as `BOARD`. Before each move `INFO time_left`
//! gives it the clock, and `INFO timeout_turn` the most the move may take. Gomocup has no depth
//! or node limit: only the clock.

use std::time::{Duration, Instant};

use duel_core::{GameInfo, GomocupBoard};
use duel_protocol::gomocup::{Command, Field, Info, Point, Reply};

use super::process::{Heard, Process, Said};
use super::{Answer, Player, ProgramSpec, Thought, Turn};
use crate::{ArenaError, TimeControl};

/// A running Gomocup brain.
pub struct GomocupClient {
    p: Process,
    /// The stones on the brain's board, in order, as far as the arena knows: after its
    /// answer, the game's moves and its own.
    known: Vec<(u32, u32)>,
}

fn point((x, y): (u32, u32)) -> Point {
    Point::new(x, y)
}

fn millis(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

impl GomocupClient {
    /// Starts the brain and asks `ABOUT` for its name; the options go out as `INFO key value`
    /// (`max_memory=...`, `thread_num=...`), as managers send their settings.
    pub fn start(spec: &ProgramSpec) -> Result<GomocupClient, ArenaError> {
        let mut p = Process::start(&spec.command)?;
        p.quit = "END";
        p.send_all(spec.options.iter().map(|(key, value)| {
            Command::Info(Info::Other {
                key: key.to_ascii_lowercase(),
                value: value.clone(),
            })
        }))?;
        p.handshake(&Command::About, |line| match Reply::parse(line) {
            Ok(Reply::About(fields)) => Said::Done(
                fields
                    .into_iter()
                    .find(|(k, _)| k == "name")
                    .map(|(_, v)| v),
            ),
            Ok(Reply::Message(_) | Reply::Debug(_)) => Said::Nothing,
            // An old brain answers ABOUT in free text, or not at all.
            _ => Said::Done(None),
        })?;
        Ok(GomocupClient {
            p,
            known: Vec::new(),
        })
    }

    /// The board of `pos` as the brain is told it, or why the brain cannot play it.
    fn board<G: GameInfo>(&self, pos: &G) -> Result<GomocupBoard, ArenaError> {
        pos.gomocup_board().ok_or_else(|| {
            self.p
                .unable(format!("a Gomocup brain plays Gomoku, not {}", G::TITLE))
        })
    }

    /// Waits for `OK`, skipping messages and a late move from the game before; an `ERROR`
    /// says the brain refuses.
    fn ok(&mut self, what: &str) -> Result<(), ArenaError> {
        let mut refused = None;
        self.p.wait_for(|line| match Reply::parse(line) {
            Ok(Reply::Ok) => true,
            Ok(Reply::Error(m) | Reply::Unknown(m)) => {
                refused = Some(m);
                true
            }
            _ => false,
        })?;
        match refused {
            Some(m) => Err(self.p.unable(format!("{what} refused: {m}"))),
            None => Ok(()),
        }
    }

    fn answer(&mut self, deadline: Instant) -> Result<Answer, ArenaError> {
        self.p.answer(deadline, |line| match Reply::parse(line) {
            Ok(Reply::Move(p)) => Heard::Answer(Answer::Move(p.to_string(), Thought::default())),
            // An ERROR or UNKNOWN is the brain's complaint about a line it was sent, not its
            // answer: the move is still awaited, until the flag falls. (Rapfi, its search just
            // ended, drops the word `INFO` of a line sent at once after its move and answers
            // the rest as two unknown commands; it then plays the `TURN`, as Piskvork sees.)
            Ok(Reply::Message(_) | Reply::Debug(_) | Reply::Error(_) | Reply::Unknown(_)) => {
                Heard::Nothing
            }
            // Anything else where a move is due (a SUGGEST, free text) is the brain's answer,
            // and the arena refuses it as a move.
            _ => Heard::Answer(Answer::Move(line.trim().to_string(), Thought::default())),
        })
    }
}

impl<G: GameInfo> Player<G> for GomocupClient {
    fn name(&self) -> &str {
        &self.p.name
    }

    fn new_game(&mut self, start: &G, tc: TimeControl) -> Result<(), ArenaError> {
        if tc.is_fixed() {
            return Err(self
                .p
                .unable("a Gomocup brain is limited by time only (no depth or nodes): use --tc"));
        }
        let board = self.board(start)?;
        let (w, h) = (board.width, board.height);
        self.p.send(&if w == h {
            Command::Start(w)
        } else {
            Command::RectStart {
                width: w,
                height: h,
            }
        })?;
        self.ok("the board size")?;
        self.known.clear();
        // A time per move: no limit on the game (`timeout_match 0`), the turn's limit alone.
        let game = if tc.movetime.is_some() {
            0
        } else {
            millis(tc.base)
        };
        self.p
            .send_all([Info::Rule(board.rule), Info::TimeoutMatch(game)].map(Command::Info))
    }

    fn think(&mut self, turn: &Turn<'_, G>) -> Result<Answer, ArenaError> {
        let moves = self.board(turn.pos)?.stones;
        let left = turn.clocks[turn.mover()];
        let infos = match turn.controls[turn.mover()].movetime {
            Some(t) => vec![Info::TimeoutTurn(millis(t).max(1))],
            // The move may take what is left: the brain shares it out by time_left.
            None => vec![
                Info::TimeLeft(millis(left) as i64),
                Info::TimeoutTurn(millis(left).max(1)),
            ],
        };
        self.p.send_all(infos.into_iter().map(Command::Info))?;
        let behind_one =
            moves.len() == self.known.len() + 1 && moves[..self.known.len()] == self.known[..];
        if moves.is_empty() {
            self.p.send(&Command::Begin)?;
        } else if behind_one {
            self.p.send(&Command::Turn(point(moves[moves.len() - 1])))?;
        } else {
            if !self.known.is_empty() {
                self.p.send(&Command::Restart)?;
                self.ok("RESTART")?;
            }
            // Field 1 is the brain's own stone: the side to move's.
            let mover_parity = moves.len() % 2;
            let stones = moves
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    let own = i % 2 == mover_parity;
                    (point(c), if own { Field::Own } else { Field::Opponent })
                })
                .collect();
            self.p.send(&Command::Board(stones))?;
        }
        let answer = self.answer(turn.deadline)?;
        self.known = moves;
        if let Answer::Move(text, _) = &answer {
            if let Ok(mv) = turn.pos.parse_move(text) {
                // The board after the move ends with the stone it put down.
                let mut after = turn.pos.clone();
                after.play(mv);
                self.known = self.board(&after)?.stones;
            }
        }
        Ok(answer)
    }

    fn interrupt(&mut self) -> Result<(), ArenaError> {
        // Gomocup cannot stop a search but by ending the brain: the late move is skipped when
        // the next game's START is answered, and the board is sent whole.
        self.known.clear();
        Ok(())
    }
}
