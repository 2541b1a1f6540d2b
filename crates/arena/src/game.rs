//! One game between two players: the opening played out, then each player asked in turn on
//! its own clock, every answer judged (a move after the flag loses, so does an illegal move, a
//! resignation, a crash, a hang or garbage), the end judged by [`crate::adjudicate`], and the
//! game written in the game's own record (PGN, GGF) with each move's value, depth and time,
//! however it ended.

use std::time::{Duration, Instant};

use duel_core::{GameInfo, RecordInfo, Side};

use crate::adjudicate::{judge, Adjudication, Fault, GameResult, WinWatch};
use crate::player::{read_move, Answer, Player, Turn};
use crate::{ArenaError, Clocks, Opening, TimeControl};

/// A finished game.
#[derive(Debug, Clone)]
pub struct Played {
    /// The result.
    pub result: GameResult,
    /// Why it ended, in words (PGN `Termination`).
    pub reason: String,
    /// The fault that lost the game, if one did: the loser's.
    pub fault: Option<Fault>,
    /// The side whose player must be made anew before it plays again: it crashed, hung or
    /// answered garbage, or did not settle after its flag fell.
    pub restart: Option<Side>,
    /// The game in the game's record format (PGN, GGF), or its moves when it has none.
    pub record: String,
    /// The final position, in the game's text form (for scores beyond the result: Othello's
    /// disc count).
    pub end: String,
}

/// How a game ended: the result, the reason, and the fault and failed side if any.
struct Ending {
    result: GameResult,
    reason: String,
    fault: Option<Fault>,
    restart: Option<Side>,
}

impl Ending {
    /// An end without a fault.
    fn of(result: GameResult, reason: String) -> Ending {
        Ending {
            result,
            reason,
            fault: None,
            restart: None,
        }
    }

    /// A loss for `side` by `fault`, for `reason`.
    fn fault(side: Side, fault: Fault, reason: String) -> Ending {
        Ending {
            result: GameResult::win_for(side.other()),
            reason,
            fault: Some(fault),
            restart: None,
        }
    }
}

/// Plays one game: `players` (the first side's first) from `opening`, each on its own
/// control of `controls`, ended early as `adjudication` says; `round` and `date` go into the
/// record. A player's error that is its fault ([`ArenaError::fault`]: a crash, a hang,
/// garbage) loses it the game, recorded as any other; any other error is returned.
pub fn play_game<G: GameInfo>(
    players: [&mut dyn Player<G>; 2],
    opening: &Opening<G>,
    controls: [TimeControl; 2],
    adjudication: &Adjudication,
    round: usize,
    date: &str,
) -> Result<Played, ArenaError> {
    let mut game = Course::new(opening, controls)?;
    let names = players.each_ref().map(|p| p.name().to_string());
    let ending = match game.contest(players, &names, adjudication) {
        Ok(ending) => ending,
        Err((side, e)) => {
            let Some((fault, what)) = e.fault() else {
                return Err(e);
            };
            Ending {
                restart: Some(side),
                ..Ending::fault(side, fault, format!("{} {what}", names[side as usize]))
            }
        }
    };
    let record = game.record(&names, &ending, round, date);
    let Ending {
        result,
        reason,
        fault,
        restart,
    } = ending;
    Ok(Played {
        result,
        reason,
        fault,
        restart,
        record,
        end: game.pos.to_text(),
    })
}

/// A game as it goes: where it started, the position and the moves, each move's comment and
/// time for the record, and the clocks.
struct Course<'a, G: GameInfo> {
    start: &'a G,
    pos: G,
    moves: Vec<G::Move>,
    notes: Vec<String>,
    times: Vec<Duration>,
    controls: [TimeControl; 2],
    clocks: Clocks,
}

impl<'a, G: GameInfo> Course<'a, G> {
    /// The game after `opening`'s moves, which take no time and have no comment.
    fn new(opening: &'a Opening<G>, controls: [TimeControl; 2]) -> Result<Self, ArenaError> {
        let (pos, moves) = opening.line()?;
        Ok(Course {
            start: &opening.start,
            pos,
            notes: vec![String::new(); moves.len()],
            times: vec![Duration::ZERO; moves.len()],
            moves,
            controls,
            clocks: Clocks::new(controls),
        })
    }

    /// The player's turn now, its flag falling at `deadline`.
    fn turn(&self, deadline: Instant) -> Turn<'_, G> {
        Turn {
            start: self.start,
            moves: &self.moves,
            pos: &self.pos,
            clocks: self.clocks.left,
            controls: self.controls,
            times: &self.times,
            deadline,
        }
    }

    /// The game from its first turn to its end, or to a player's error (with the side that
    /// met it).
    fn contest(
        &mut self,
        players: [&mut dyn Player<G>; 2],
        names: &[String; 2],
        adjudication: &Adjudication,
    ) -> Result<Ending, (Side, ArenaError)> {
        for side in [Side::First, Side::Second] {
            let me = side as usize;
            players[me]
                .new_game(self.start, self.controls[me])
                .map_err(|e| (side, e))?;
        }
        let mut watch = WinWatch::default();
        loop {
            let plies = self.moves.len();
            if let Some((result, reason)) = judge(&self.pos, plies, adjudication.max_plies) {
                return Ok(Ending::of(result, reason));
            }
            let side = self.pos.side_to_move();
            let me = side as usize;
            let step = self.step(&mut *players[me], &names[me], adjudication, &mut watch);
            if let Some(ending) = step.map_err(|e| (side, e))? {
                return Ok(ending);
            }
        }
    }

    /// The mover's move: asked of `player`, charged to its clock, judged and played; the
    /// game's end where the answer ends it (a resignation, a flag, an illegal move, a win
    /// adjudicated on the values `watch` has seen).
    fn step(
        &mut self,
        player: &mut dyn Player<G>,
        name: &str,
        adjudication: &Adjudication,
        watch: &mut WinWatch,
    ) -> Result<Option<Ending>, ArenaError> {
        let side = self.pos.side_to_move();
        let me = side as usize;
        let t0 = Instant::now();
        let left = self.clocks.left[me];
        let answer = player.think(&self.turn(t0 + left))?;
        let used = t0.elapsed();
        let text = match answer {
            Answer::Move(text, thought) if self.clocks.charge(me, used) => {
                let won = adjudication
                    .win
                    .and_then(|rule| watch.see(&rule, side, &thought));
                if let Some(result) = won {
                    return Ok(Some(Ending::of(result, "adjudication".to_string())));
                }
                self.notes.push(thought.note(used));
                self.times.push(used);
                text
            }
            Answer::Resign => {
                let reason = format!("{name} resigned");
                return Ok(Some(Ending::of(GameResult::win_for(side.other()), reason)));
            }
            late @ (Answer::Move(..) | Answer::Late) => {
                let moved = matches!(late, Answer::Move(..));
                return Ok(Some(lost_on_time(player, side, name, moved, used, left)));
            }
        };
        match read_move(&self.pos, &text) {
            Ok(mv) => {
                self.pos.play(mv);
                self.moves.push(mv);
                Ok(None)
            }
            Err(e) => {
                let reason = format!("{name} played an illegal move: {e}");
                Ok(Some(Ending::fault(side, Fault::Illegal, reason)))
            }
        }
    }

    /// The game's record in the game's format (PGN, GGF), with the match's tags, each move's
    /// comment and time, the result and why; the start, the moves and the result where the
    /// game has no format.
    fn record(&self, names: &[String; 2], ending: &Ending, round: usize, date: &str) -> String {
        let (result, reason) = (ending.result, ending.reason.as_str());
        let round = round.to_string();
        let [first_tc, second_tc] = self.controls.map(|tc| tc.pgn());
        let [first_name, second_name] = G::SIDE_NAMES;
        let mut tags = vec![
            ("Event", "duel match"),
            ("Site", "?"),
            ("Date", date),
            ("Round", round.as_str()),
            (first_name, names[0].as_str()),
            (second_name, names[1].as_str()),
        ];
        // Time odds: PGN's one TimeControl tag cannot say it, so each side gets its own tag, as
        // cutechess-cli writes them.
        let own_tags = [first_name, second_name].map(|n| format!("{n}TimeControl"));
        if first_tc == second_tc {
            tags.push(("TimeControl", first_tc.as_str()));
        } else {
            tags.push((own_tags[0].as_str(), first_tc.as_str()));
            tags.push((own_tags[1].as_str(), second_tc.as_str()));
        }
        tags.push(("Termination", reason));
        let info = RecordInfo {
            names: [names[0].as_str(), names[1].as_str()],
            tags: &tags,
            notes: &self.notes,
            result: Some(result.pgn()),
            termination: Some(reason),
            clocks: self.controls.map(|c| c.clock()),
            times: &self.times,
        };
        G::record(self.start, &self.moves, &info).unwrap_or_else(|| {
            // No format of the game's own: PGN's tags, so that the players and the result are
            // named as in every other record, then the start, the moves and the result.
            let texts = self.turn(Instant::now()).move_texts();
            let tags = duel_core::pgn::write_tags(info.pgn_tags(G::SIDE_NAMES, result.pgn()));
            let start = self.start.to_text();
            let movetext = [start.as_str(), &texts.join(" "), result.pgn()].join(" ");
            format!("{tags}\n{}\n", movetext.trim_start())
        })
    }
}

/// The end of a game whose mover `side` (`name`) let its flag fall: its move came after
/// `left` (`moved`), or none came. A player that does not stop when told would play on into
/// its next game, so it is made anew.
fn lost_on_time<G: GameInfo>(
    player: &mut dyn Player<G>,
    side: Side,
    name: &str,
    moved: bool,
    used: Duration,
    left: Duration,
) -> Ending {
    let secs = |d: Duration| d.as_secs_f64();
    let how = match moved {
        true => format!(
            "its move took {:.3}s, {:.3}s were left",
            secs(used),
            secs(left)
        ),
        false => format!("no move in the {:.3}s left", secs(left)),
    };
    let reason = format!("{name} lost on time: {how}");
    let mut end = Ending::fault(side, Fault::Time, reason);
    if player.interrupt().is_err() {
        end.restart = Some(side);
    }
    end
}
