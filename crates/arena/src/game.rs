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
    let start = &opening.start;
    let (mut pos, mut moves) = opening.line()?;
    let mut notes: Vec<String> = vec![String::new(); moves.len()];
    let mut times = vec![Duration::ZERO; moves.len()];
    let names = players.each_ref().map(|p| p.name().to_string());
    let mut players = players;
    let mut clocks = Clocks::new(controls);
    let mut watch = WinWatch::default();
    // The game as it goes, until its end or a player's error (with the side that met it).
    let mut contest = || -> Result<Ending, (Side, ArenaError)> {
        for side in [Side::First, Side::Second] {
            let me = side as usize;
            players[me]
                .new_game(start, controls[me])
                .map_err(|e| (side, e))?;
        }
        loop {
            if let Some((result, reason)) = judge(&pos, moves.len(), adjudication.max_plies) {
                return Ok(Ending {
                    result,
                    reason,
                    fault: None,
                    restart: None,
                });
            }
            let side = pos.side_to_move();
            let me = side as usize;
            let t0 = Instant::now();
            let left = clocks.left[me];
            let turn = Turn {
                start,
                moves: &moves,
                pos: &pos,
                clocks: clocks.left,
                controls,
                times: &times,
                deadline: t0 + left,
            };
            let answer = players[me].think(&turn).map_err(|e| (side, e))?;
            let used = t0.elapsed();
            let secs = |d: Duration| d.as_secs_f64();
            let text = match answer {
                Answer::Move(text, thought) if clocks.charge(me, used) => {
                    let won = adjudication
                        .win
                        .and_then(|rule| watch.see(&rule, side, &thought));
                    if let Some(result) = won {
                        return Ok(Ending {
                            result,
                            reason: "adjudication".to_string(),
                            fault: None,
                            restart: None,
                        });
                    }
                    notes.push(thought.note(used));
                    times.push(used);
                    text
                }
                Answer::Resign => {
                    return Ok(Ending {
                        result: GameResult::win_for(side.other()),
                        reason: format!("{} resigned", names[me]),
                        fault: None,
                        restart: None,
                    })
                }
                late @ (Answer::Move(..) | Answer::Late) => {
                    let how = match late {
                        Answer::Move(..) => format!(
                            "its move took {:.3}s, {:.3}s were left",
                            secs(used),
                            secs(left)
                        ),
                        _ => format!("no move in the {:.3}s left", secs(left)),
                    };
                    let reason = format!("{} lost on time: {how}", names[me]);
                    let mut end = Ending::fault(side, Fault::Time, reason);
                    // A player that does not stop when told would play on into its next game.
                    if players[me].interrupt().is_err() {
                        end.restart = Some(side);
                    }
                    return Ok(end);
                }
            };
            match read_move(&pos, &text) {
                Ok(mv) => {
                    pos.play(mv);
                    moves.push(mv);
                }
                Err(e) => {
                    let reason = format!("{} played an illegal move: {e}", names[me]);
                    return Ok(Ending::fault(side, Fault::Illegal, reason));
                }
            }
        }
    };
    let ending = match contest() {
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
    let Ending {
        result,
        reason,
        fault,
        restart,
    } = ending;
    let round = round.to_string();
    let [first_tc, second_tc] = controls.map(|tc| tc.pgn());
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
    tags.push(("Termination", reason.as_str()));
    let info = RecordInfo {
        names: [names[0].as_str(), names[1].as_str()],
        tags: &tags,
        notes: &notes,
        result: Some(result.pgn()),
        termination: Some(&reason),
        clocks: controls.map(|c| c.clock()),
        times: &times,
    };
    let record = G::record(start, &moves, &info).unwrap_or_else(|| {
        let texts = Turn {
            start,
            moves: &moves,
            pos: &pos,
            clocks: clocks.left,
            controls,
            times: &times,
            deadline: Instant::now(),
        }
        .move_texts();
        format!("{} {} {}\n", start.to_text(), texts.join(" "), result.pgn())
    });
    Ok(Played {
        result,
        reason,
        fault,
        restart,
        record,
        end: pos.to_text(),
    })
}
