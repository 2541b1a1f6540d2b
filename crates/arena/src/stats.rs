//! The score of a match: wins, draws and losses ([`Tally`]), the pairs of games that shared an
//! opening ([`Pairs`]), and the Elo difference with its 95% interval ([`elo_interval`]), the one
//! Elo computation of the workspace (`duel match` and `duel-train`'s matches both use it); and
//! the games each player lost by its own fault, by kind ([`Faults`]).

use std::collections::HashMap;

use crate::{Fault, GameResult};

/// Wins, draws and losses of the first player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score fraction.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// The Elo difference and its 95% interval (low, high), from the trinomial variance of
    /// the per-game score; None before any game. A score of 0 or 1 has no finite Elo: the
    /// bound is clamped at ±1000.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        elo_interval(&[
            (f64::from(self.wins), 1.0),
            (f64::from(self.draws), 0.5),
            (f64::from(self.losses), 0.0),
        ])
    }

    /// Counts a game in which the first player scored `half_points` (2 a win, 1 a draw).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }
}

/// The game pairs of a match (one opening, colours swapped) by the first player's points in
/// the pair: `counts[k]` pairs scored k half-points (0, ½, 1, 1½, 2 points), the
/// "pentanomial" counts fastchess and fishtest print. The two games of a pair share an
/// opening, so their results are correlated: a lopsided opening tends to give each side one
/// win. The variance of pair scores counts that; the per-game variance does not, and overstates
/// the error when openings are lopsided.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Pairs by the first player's half-points in them, 0 to 4.
    pub counts: [u32; 5],
}

impl Pairs {
    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The Elo difference and its 95% interval from the variance of pair scores; None before
    /// any pair.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let groups: Vec<(f64, f64)> = (0..5)
            .map(|k| (f64::from(self.counts[k]), k as f64 / 4.0))
            .collect();
        elo_interval(&groups)
    }
}

/// The games each player of a match lost by a [`Fault`], by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Faults {
    /// `counts[p][k]`: player `p`'s (0 the first, 1 the second) faults of kind
    /// `Fault::ALL[k]`.
    pub counts: [[u32; 4]; 2],
}

impl Faults {
    /// Counts `fault`, which ended game `index` (from 0) with `result`, against the player
    /// who lost it: the first player has the first side in even games and the second in odd
    /// ones. A draw has no loser and is not counted.
    pub fn add(&mut self, index: usize, result: GameResult, fault: Fault) {
        let loser = match result.half_points(index) {
            0 => 0,
            2 => 1,
            _ => return,
        };
        self.counts[loser][fault as usize] += 1;
    }

    /// Player `p`'s faults of every kind.
    pub fn total(&self, p: usize) -> u32 {
        self.counts[p].iter().sum()
    }
}

/// The running score of a match as its games end, in any order: the tally, the pairs whose
/// two games (`2k` and `2k + 1`, one opening) have both ended, and the faults.
#[derive(Debug, Clone, Default)]
pub struct Standings {
    /// Every game so far.
    pub tally: Tally,
    /// Every complete pair so far.
    pub pairs: Pairs,
    /// The games lost by a fault so far, by player and kind.
    pub faults: Faults,
    /// The first player's half-points in each game whose pair has not ended, by pair.
    unpaired: HashMap<usize, u8>,
}

impl Standings {
    /// Counts game `index` (from 0), in which the first player scored `half_points`.
    pub fn add(&mut self, index: usize, half_points: u8) {
        self.tally.add(half_points);
        match self.unpaired.remove(&(index / 2)) {
            Some(other) => self.pairs.counts[usize::from(half_points + other)] += 1,
            None => {
                self.unpaired.insert(index / 2, half_points);
            }
        }
    }
}

/// The Elo difference and its 95% interval for samples of scores given as (count, score in
/// 0..=1) groups, from their mean and the sample variance of the mean; None for no samples. A
/// mean of 0 or 1 has no finite Elo: the bounds are clamped at ±1000.
pub fn elo_interval(groups: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = groups.iter().map(|g| g.0).sum();
    if n == 0.0 {
        return None;
    }
    let mean = groups.iter().map(|(c, x)| c * x).sum::<f64>() / n;
    let var = groups
        .iter()
        .map(|(c, x)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    Some((elo(mean), elo(mean - 1.96 * se), elo(mean + 1.96 * se)))
}

/// The Elo difference of a score fraction, clamped at ±1000 (a score of 0 or 1 has none).
pub fn elo(score: f64) -> f64 {
    let p = score.clamp(1e-6, 1.0 - 1e-6);
    (-400.0 * (1.0 / p - 1.0).log10()).clamp(-1000.0, 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Elo figures checked by hand: 75% is +190.8 Elo; an even score is 0 with a symmetric
    /// interval; the interval narrows as games add up.
    #[test]
    fn elo_from_a_tally() {
        let t = Tally {
            wins: 50,
            draws: 0,
            losses: 0,
        };
        assert_eq!(t.elo().unwrap().0, 1000.0);
        let t = Tally {
            wins: 60,
            draws: 30,
            losses: 10,
        };
        let (e, lo, hi) = t.elo().unwrap();
        assert!((e - 190.85).abs() < 0.05, "{e}");
        assert!(lo < e && e < hi);
        let even = Tally {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let (e, lo, hi) = even.elo().unwrap();
        assert!(e.abs() < 1e-9 && (lo + hi).abs() < 1e-6);
        let more = Tally {
            wins: 300,
            draws: 400,
            losses: 300,
        };
        let (_, lo2, hi2) = more.elo().unwrap();
        assert!(hi2 - lo2 < (hi - lo) / 3.0);
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn elo_from_pairs() {
        // Forty pairs: ten lost ½–1½, twenty split 1–1, ten won 1½–½. Mean ½, pair scores
        // ¼, ½, ¾: variance (10 + 10) · (¼)² / 40 = 1/32, so the half-width is
        // 1.96 · √(1/32 / 40) = 0.0548 of the score, about 38 Elo either way.
        let p = Pairs {
            counts: [0, 10, 20, 10, 0],
        };
        assert_eq!(p.pairs(), 40);
        let (e, lo, hi) = p.elo().unwrap();
        assert!(e.abs() < 1e-9 && (lo + hi).abs() < 1e-6, "{e} {lo} {hi}");
        assert!((hi - 38.2).abs() < 0.1, "{hi}");
        // If each even pair was a win and a loss, the eighty games are 30 wins, 20 draws and
        // 30 losses, with a per-game variance of 3/16: an interval of about ±66 Elo. The pairs
        // see that each lopsided opening gave both players a win.
        let t = Tally {
            wins: 30,
            draws: 20,
            losses: 30,
        };
        assert!(t.elo().unwrap().2 > hi);
        assert_eq!(Pairs::default().elo(), None);
    }

    /// Games count into pairs whatever order they end in.
    #[test]
    fn standings_pair_games_in_any_order() {
        let mut s = Standings::default();
        for (g, hp) in [(1, 2), (2, 1), (0, 0), (3, 1)] {
            s.add(g, hp);
        }
        assert_eq!(
            s.tally,
            Tally {
                wins: 1,
                draws: 2,
                losses: 1
            }
        );
        assert_eq!(s.pairs.counts, [0, 0, 2, 0, 0]);
    }

    /// A fault counts against the loser, whichever colour the first player had.
    #[test]
    fn faults_count_against_the_loser() {
        let mut f = Faults::default();
        f.add(0, GameResult::SecondWins, Fault::Crash);
        f.add(1, GameResult::SecondWins, Fault::Time);
        f.add(1, GameResult::FirstWins, Fault::Time);
        f.add(2, GameResult::FirstWins, Fault::Garbage);
        f.add(3, GameResult::Draw, Fault::Illegal);
        assert_eq!(f.counts, [[1, 0, 1, 0], [1, 0, 0, 1]]);
        assert_eq!((f.total(0), f.total(1)), (2, 2));
    }
}
