//! One game between two players: the opening played out, then each player asked in turn on
//! its own clock, every answer judged (a move after the flag loses, so does an illegal move or
//! a resignation), the end judged by [`crate::adjudicate`], and the game written in the
//! game's own record (PGN, GGF) with each move's value, depth and time.

use std::time::{Duration, Instant};

use duel_core::{GameInfo, RecordInfo};

use crate::adjudicate::{judge, Adjudication, GameResult, WinWatch};
use crate::player::{read_move, Answer, Player, Turn};
use crate::{ArenaError, Clocks, Opening, TimeControl};

/// A finished game.
#[derive(Debug, Clone)]
pub struct Played {
    /// The result.
    pub result: GameResult,
    /// Why it ended, in words (PGN `Termination`).
    pub reason: String,
    /// The game in the game's record format (PGN, GGF), or its moves when it has none.
    pub record: String,
    /// The final position, in the game's text form (for scores beyond the result: Othello's
    /// disc count).
    pub end: String,
}

/// Plays one game: `players` (the first side's first) from `opening`, each on its own
/// control of `controls`, ended early as `adjudication` says; `round` and `date` go into the
/// record.
pub fn play_game<G: GameInfo>(
    players: [&mut dyn Player<G>; 2],
    opening: &Opening<G>,
    controls: [TimeControl; 2],
    adjudication: &Adjudication,
    round: usize,
    date: &str,
) -> Result<Played, ArenaError> {
    let [first, second] = players;
    let start = &opening.start;
    first.new_game(start, controls[0])?;
    second.new_game(start, controls[1])?;
    let (mut pos, mut moves) = opening.line()?;
    let mut notes: Vec<String> = vec![String::new(); moves.len()];
    let mut times = vec![Duration::ZERO; moves.len()];
    let mut clocks = Clocks::new(controls);
    let names = [first.name().to_string(), second.name().to_string()];
    let players = [first, second];
    let mut watch = WinWatch::default();
    let (result, reason) = loop {
        if let Some(end) = judge(&pos, moves.len(), adjudication.max_plies) {
            break end;
        }
        let side = pos.side_to_move();
        let me = side as usize;
        let t0 = Instant::now();
        let turn = Turn {
            start,
            moves: &moves,
            pos: &pos,
            clocks: clocks.left,
            controls,
            times: &times,
            deadline: t0 + clocks.left[me],
        };
        let answer = players[me].think(&turn)?;
        let used = t0.elapsed();
        let text = match answer {
            Answer::Move(text, thought) if clocks.charge(me, used) => {
                let won = adjudication
                    .win
                    .and_then(|rule| watch.see(&rule, side, &thought));
                if let Some(r) = won {
                    break (r, "adjudication".to_string());
                }
                notes.push(thought.note(used));
                times.push(used);
                text
            }
            Answer::Resign => {
                break (
                    GameResult::win_for(side.other()),
                    format!("{} resigned", names[me]),
                )
            }
            Answer::Move(..) | Answer::Late => {
                players[me].interrupt();
                break (
                    GameResult::win_for(side.other()),
                    format!("{} lost on time", names[me]),
                );
            }
        };
        match read_move(&pos, &text) {
            Ok(mv) => {
                pos.play(mv);
                moves.push(mv);
            }
            Err(e) => {
                break (
                    GameResult::win_for(side.other()),
                    format!("{} played an illegal move: {e}", names[me]),
                );
            }
        }
    };
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
        record,
        end: pos.to_text(),
    })
}
