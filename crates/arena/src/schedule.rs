//! Scheduling a match: which games are played (all of them, or one shard's), by how many
//! runners at once, each with its own pair of players, and the running score as they end.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use duel_core::GameInfo;
use serde::{Deserialize, Serialize};

use crate::adjudicate::Adjudication;
use crate::player::{Maker, Player};
use crate::{play_game, ArenaError, Opening, Played, SpecError, Standings, TimeControl};

/// One part of a match split over several runs (machines, jobs): shard `index` of `count`
/// plays the pairs of games `p` with `p % count == index - 1`. Game `g`'s opening and colours
/// depend only on `g` (and the seed), so the shards together play the whole match's games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// The whole match.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Reads `K/N` (1 ≤ K ≤ N).
    pub fn parse(text: &str) -> Result<Shard, SpecError> {
        let bad = |reason: &str| SpecError::new("shard", text, reason);
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| bad("expected K/N, as 2/8"))?;
        let number = |t: &str| t.trim().parse::<usize>().ok().filter(|&x| x >= 1);
        let (Some(index), Some(count)) = (number(k), number(n)) else {
            return Err(bad("K and N must be whole numbers from 1"));
        };
        if index > count {
            return Err(bad("K must be at most N"));
        }
        Ok(Shard { index, count })
    }

    /// Whether game `g` (from 0) is this shard's: its pair (`g / 2`) is.
    pub fn has(&self, g: usize) -> bool {
        (g / 2) % self.count == self.index - 1
    }
}

/// What a match plays.
#[derive(Debug, Clone)]
pub struct Schedule<'a, G> {
    /// Games in the whole match (each opening twice, colours swapped).
    pub games: usize,
    /// The openings, taken in turn: games `2k` and `2k + 1` play opening `k` (modulo).
    pub openings: &'a [Opening<G>],
    /// The first player's control and the second's.
    pub controls: [TimeControl; 2],
    /// Games at a time, each runner with a pair of players of its own.
    pub concurrency: usize,
    /// The part of the match this run plays.
    pub shard: Shard,
    /// When games end before the rules end them.
    pub adjudication: Adjudication,
}

/// Plays the games of `schedule` between the players `first` and `second` make, reporting
/// each to `on_game` (its index from 0, the game, the standings so far) as it ends, which
/// answers whether to go on. Returns the standings.
///
/// A player that loses a game by crashing, hanging or answering garbage is made anew before
/// the runner's next game. If that fails, or a player cannot be made at the start, or meets
/// an error that is not its fault, no game is started after it, the games already running are
/// played out and reported, and the match returns the error.
///
/// Each runner takes the next game of the shard when it is free, so game `g` is played from
/// the same opening with the same colours whatever the concurrency; only the order in which
/// games end depends on it. When `on_game` says stop (a test has decided, say), no game is
/// started, the games already running are played out and reported, and the standings count
/// them all.
pub fn run_match<G: GameInfo>(
    first: &Maker<'_, G>,
    second: &Maker<'_, G>,
    schedule: &Schedule<'_, G>,
    mut on_game: impl FnMut(usize, &Played, &Standings) -> bool,
) -> Result<Standings, ArenaError> {
    if schedule.openings.is_empty() {
        return Err(ArenaError::NoOpenings);
    }
    let games: Vec<usize> = (0..schedule.games)
        .filter(|&g| schedule.shard.has(g))
        .collect();
    let date = pgn_date(time::OffsetDateTime::now_utc().date());
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    // Each report carries a channel for the answer: a runner starts no game before it hears
    // whether the match goes on, so that a decision stops it at once.
    type Report = (usize, Result<Played, ArenaError>, mpsc::Sender<bool>);
    let (tx, rx) = mpsc::channel::<Report>();
    std::thread::scope(|scope| {
        for _ in 0..schedule.concurrency.clamp(1, games.len().max(1)) {
            let tx = tx.clone();
            let (date, next, halt, games) = (&date, &next, &halt, &games);
            scope.spawn(move || {
                let (go_on, told) = mpsc::channel();
                let pair = first().and_then(|a| Ok((a, second()?)));
                let (mut a, mut b) = match pair {
                    Ok(pair) => pair,
                    Err(e) => {
                        let _ = tx.send((0, Err(e), go_on));
                        return;
                    }
                };
                // Which of this runner's players failed in its last game, if one did.
                let mut failed = None;
                while !halt.load(Ordering::Relaxed) {
                    let Some(&g) = games.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    // Made anew only now that there is a game for it: not after the last one.
                    // The player moves into `remake`, so its error ends the runner there.
                    match failed.take() {
                        Some(0) => match remake(a, first, g) {
                            Ok(p) => a = p,
                            Err(e) => {
                                let _ = tx.send((g, Err(e), go_on));
                                return;
                            }
                        },
                        Some(_) => match remake(b, second, g) {
                            Ok(p) => b = p,
                            Err(e) => {
                                let _ = tx.send((g, Err(e), go_on));
                                return;
                            }
                        },
                        None => {}
                    }
                    let openings = schedule.openings;
                    let opening = &openings[(g / 2) % openings.len()];
                    let [c1, c2] = schedule.controls;
                    let (players, controls): ([&mut dyn Player<G>; 2], _) = if g % 2 == 0 {
                        ([&mut *a, &mut *b], [c1, c2])
                    } else {
                        ([&mut *b, &mut *a], [c2, c1])
                    };
                    let played = play_game(
                        players,
                        opening,
                        controls,
                        &schedule.adjudication,
                        g + 1,
                        date,
                    );
                    // `a` has the first side in even games.
                    failed = played
                        .as_ref()
                        .ok()
                        .and_then(|p| p.restart)
                        .map(|side| side as usize ^ (g % 2));
                    if tx.send((g, played, go_on.clone())).is_err() || told.recv() != Ok(true) {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut standings = Standings::default();
        let mut error = None;
        for (g, played, go_on) in rx {
            // A game that ends after an error is still reported, so that its record is kept.
            match played {
                Ok(played) => {
                    standings.add(g, played.result.half_points(g));
                    if let Some(fault) = played.fault {
                        standings.faults.add(g, played.result, fault);
                    }
                    if !on_game(g, &played, &standings) {
                        halt.store(true, Ordering::Relaxed);
                    }
                }
                Err(e) => {
                    halt.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                }
            }
            let _ = go_on.send(!halt.load(Ordering::Relaxed));
        }
        error.map_or(Ok(standings), Err)
    })
}

/// A player made anew by `make` in place of `old`, which failed in its last game, to play
/// game `g` (from 0).
fn remake<G: GameInfo>(
    old: Box<dyn Player<G>>,
    make: &Maker<'_, G>,
    g: usize,
) -> Result<Box<dyn Player<G>>, ArenaError> {
    let engine = old.name().to_string();
    // The old one goes first: a hung engine may still be busy on a core the new one needs.
    drop(old);
    make().map_err(|e| ArenaError::Restart {
        engine,
        game: g + 1,
        cause: Box::new(e),
    })
}

/// A date as PGN's `Date` tag writes it: `2026.11.28`.
pub fn pgn_date(date: time::Date) -> String {
    let (y, m, d) = (date.year(), u8::from(date.month()), date.day());
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_pairs() {
        let s = Shard::parse("2/3").unwrap();
        let mine: Vec<usize> = (0..12).filter(|&g| s.has(g)).collect();
        assert_eq!(mine, [2, 3, 8, 9]);
        for (bad, says) in [
            ("3", "K/N"),
            ("0/2", "from 1"),
            ("3/2", "at most"),
            ("a/b", "whole"),
        ] {
            let e = Shard::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains(bad), "{e}");
        }
    }

    use std::time::Duration;

    use duel_core::Game;
    use duel_tictactoe::TicTacToe;

    use crate::player::{Answer, Thought, Turn};
    use crate::Fault;

    /// What a scripted player does at its second move and after.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Then {
        PlayOn,
        Crash,
        Garbage,
        Late,
        /// Late, and no answer to the stop either.
        Hang,
        Illegal,
        /// An error that is no fault of a game: the engine cannot do what the match asks.
        Unable,
    }

    /// A player of tic-tac-toe that plays the first free square, then as `then` says.
    struct Scripted {
        then: Then,
        moves: usize,
    }

    impl Player<TicTacToe> for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }

        fn new_game(&mut self, _: &TicTacToe, _: TimeControl) -> Result<(), ArenaError> {
            Ok(())
        }

        fn think(&mut self, turn: &Turn<'_, TicTacToe>) -> Result<Answer, ArenaError> {
            self.moves += 1;
            let engine = "scripted".to_string();
            let mut legal = Vec::new();
            turn.pos.generate_moves(&mut legal);
            let first = turn.pos.format_move(legal[0]);
            match self.then {
                _ if self.moves < 2 => Ok(Answer::Move(first, Thought::default())),
                Then::PlayOn => Ok(Answer::Move(first, Thought::default())),
                Then::Crash => Err(ArenaError::Exited {
                    engine,
                    during: " during a search",
                }),
                Then::Garbage => Err(ArenaError::Garbage {
                    engine,
                    what: "sent garbage: an unreadable answer 'bestmove'".into(),
                }),
                Then::Late | Then::Hang => Ok(Answer::Late),
                Then::Illegal => Ok(Answer::Move("0".into(), Thought::default())),
                Then::Unable => Err(ArenaError::Unable {
                    engine,
                    reason: "it cannot".into(),
                }),
            }
        }

        fn interrupt(&mut self) -> Result<(), ArenaError> {
            match self.then {
                Then::Hang => Err(ArenaError::NoAnswer {
                    engine: "scripted".into(),
                    wait: Duration::from_secs(20),
                }),
                _ => Ok(()),
            }
        }
    }

    /// Four games of tic-tac-toe against a scripted second player that does `then`, its
    /// maker failing from its call `fails_from` on (counting from 1): the match's result, the
    /// reasons of the games reported, and how many times the second player was made.
    fn against(
        then: Then,
        fails_from: usize,
    ) -> (Result<Standings, ArenaError>, Vec<String>, usize) {
        let made = AtomicUsize::new(0);
        let first = || -> Result<Box<dyn Player<TicTacToe>>, ArenaError> {
            Ok(Box::new(Scripted {
                then: Then::PlayOn,
                moves: 0,
            }))
        };
        let second = || -> Result<Box<dyn Player<TicTacToe>>, ArenaError> {
            if made.fetch_add(1, Ordering::Relaxed) + 1 >= fails_from {
                return Err(ArenaError::EmptyCommand);
            }
            Ok(Box::new(Scripted { then, moves: 0 }))
        };
        let openings = [Opening::at(TicTacToe::start())];
        let schedule = Schedule {
            games: 4,
            openings: &openings,
            controls: [TimeControl::per_move(None, Some(1)); 2],
            concurrency: 1,
            shard: Shard::WHOLE,
            adjudication: Adjudication::default(),
        };
        let mut reasons = Vec::new();
        let result = run_match(&first, &second, &schedule, |_, played, _| {
            reasons.push(played.reason.clone());
            true
        });
        (result, reasons, made.load(Ordering::Relaxed))
    }

    /// A player's fault loses it the game and the match goes on; one that failed (crashed,
    /// answered garbage, hung after its flag) is made anew before its next game, and only
    /// then; the faults are counted against it, whichever colour it had.
    #[test]
    fn a_fault_loses_the_game_and_the_match_goes_on() {
        for (then, fault, says, remade) in [
            (
                Then::Crash,
                Fault::Crash,
                "scripted crashed: the engine exited during a search",
                true,
            ),
            (
                Then::Garbage,
                Fault::Garbage,
                "scripted sent garbage: an unreadable answer 'bestmove'",
                true,
            ),
            (
                Then::Late,
                Fault::Time,
                "scripted lost on time: no move in the 3600",
                false,
            ),
            (
                Then::Hang,
                Fault::Time,
                "scripted lost on time: no move in the 3600",
                true,
            ),
            (
                Then::Illegal,
                Fault::Illegal,
                "scripted played an illegal move: '0' is not a move",
                false,
            ),
        ] {
            let (standings, reasons, made) = against(then, usize::MAX);
            let s = standings.unwrap();
            assert_eq!(s.tally.wins, 4, "{then:?}: {reasons:?}");
            assert!(reasons.iter().all(|r| r.starts_with(says)), "{reasons:?}");
            let mut counts = [[0; 4]; 2];
            counts[1][fault as usize] = 4;
            assert_eq!(s.faults.counts, counts, "{then:?}");
            assert_eq!(made, if remade { 4 } else { 1 }, "{then:?}");
        }
        let (s, reasons, made) = against(Then::PlayOn, usize::MAX);
        assert_eq!((s.unwrap().faults.total(1), made), (0, 1), "{reasons:?}");
    }

    /// A player that cannot be made again stops the match, named, after the game it failed
    /// in has been reported; an error that is no fault of a game stops it at once.
    #[test]
    fn errors_that_are_no_game_s_fault_stop_the_match() {
        let (result, reasons, _) = against(Then::Crash, 2);
        let e = result.unwrap_err().to_string();
        assert!(
            e.starts_with("scripted failed in a game and could not be started again for game 2: ")
                && e.contains("empty"),
            "{e}"
        );
        assert_eq!(reasons.len(), 1, "{reasons:?}");
        let (result, reasons, _) = against(Then::Unable, usize::MAX);
        assert!(
            matches!(result, Err(ArenaError::Unable { .. })) && reasons.is_empty(),
            "{reasons:?}"
        );
    }

    #[test]
    fn pgn_dates_pad_month_and_day() {
        let d = time::Date::from_calendar_date(2026, time::Month::March, 7).unwrap();
        assert_eq!(pgn_date(d), "2026.03.07");
    }
}
