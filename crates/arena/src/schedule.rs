//! Scheduling a match: which games are played (all of them, or one shard's), by how many
//! runners at once, each with its own pair of players, and the running score as they end.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use duel_core::GameInfo;
use serde::{Deserialize, Serialize};

use crate::adjudicate::Adjudication;
use crate::player::{Maker, Player};
use crate::{play_game, ArenaError, Opening, ParseError, Played, Standings, TimeControl};

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
    pub fn parse(text: &str) -> Result<Shard, ParseError> {
        let bad = |reason: &str| ParseError::new("shard", text, reason);
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
                while !halt.load(Ordering::Relaxed) {
                    let Some(&g) = games.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
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
            let played = match played {
                Ok(p) if error.is_none() => p,
                Ok(_) => {
                    let _ = go_on.send(false);
                    continue;
                }
                Err(e) => {
                    halt.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                    let _ = go_on.send(false);
                    continue;
                }
            };
            standings.add(g, played.result.half_points(g));
            if !on_game(g, &played, &standings) {
                halt.store(true, Ordering::Relaxed);
            }
            let _ = go_on.send(!halt.load(Ordering::Relaxed));
        }
        error.map_or(Ok(standings), Err)
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

    #[test]
    fn pgn_dates_pad_month_and_day() {
        let d = time::Date::from_calendar_date(2026, time::Month::March, 7).unwrap();
        assert_eq!(pgn_date(d), "2026.03.07");
    }
}
