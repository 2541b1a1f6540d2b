//! The sequential probability ratio test a tournament manager runs on a match, so that a match
//! stops as soon as its games tell two hypotheses apart instead of after a fixed count: H0,
//! "the first engine is `elo0` stronger", against H1, "it is `elo1` stronger".
//!
//! The model is cutechess-cli's (and OpenBench's first): Elo in the BayesElo sense, where a
//! draw is a game neither side won by enough, with the draw margin ("draw Elo") estimated from
//! the games so far. Each hypothesis then gives win, draw and loss probabilities, and the
//! log-likelihood ratio of the games is the sum over them of count × ln(p1 / p0). The test
//! accepts H1 when the ratio reaches ln((1 − β) / α) and H0 when it falls to ln(β / (1 − α))
//! (Wald's bounds): α is the chance of accepting H1 when H0 holds, β the other way round.

use serde::{Deserialize, Serialize};

use crate::stats::Tally;
use crate::SpecError;

/// The hypotheses and error rates of a test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1, above `elo0`.
    pub elo1: f64,
    /// The false-positive rate: accepting H1 when H0 holds.
    pub alpha: f64,
    /// The false-negative rate: accepting H0 when H1 holds.
    pub beta: f64,
}

/// What a test has concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// H0 accepted: the difference is at most about `elo0`.
    H0,
    /// H1 accepted: the difference is at least about `elo1`.
    H1,
}

impl Sprt {
    /// `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (α and β 0.05 when left out), as in `0,5` or
    /// `-3,1,0.05,0.1`.
    pub fn parse(text: &str) -> Result<Sprt, SpecError> {
        let bad = |why: &str| {
            SpecError::new(
                "bad SPRT",
                text,
                format!("{why} (expected ELO0,ELO1[,ALPHA,BETA])"),
            )
        };
        let numbers = text
            .split(',')
            .map(|w| w.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| bad("not a list of numbers"))?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => return Err(bad("two or four numbers")),
        };
        if elo1 <= elo0 {
            return Err(bad("ELO1 must be above ELO0"));
        }
        if elo0.abs() >= 1000.0 || elo1.abs() >= 1000.0 {
            return Err(bad("the Elo bounds must lie within ±1000"));
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err(bad("ALPHA and BETA must lie between 0 and 0.5"));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after the games of `t`: 0 until there is at
    /// least one win, one draw and one loss, since the draw margin cannot be estimated before
    /// (cutechess-cli waits the same way).
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.wins == 0 || t.draws == 0 || t.losses == 0 {
            return 0.0;
        }
        let n = f64::from(t.games());
        let (w, d, l) = (f64::from(t.wins), f64::from(t.draws), f64::from(t.losses));
        // The draw margin that makes the observed win and loss rates come out of the model.
        let draw_elo = 200.0 * ((1.0 - n / w) * (1.0 - n / l)).log10();
        let p0 = probabilities(self.elo0, draw_elo);
        let p1 = probabilities(self.elo1, draw_elo);
        w * (p1[0] / p0[0]).ln() + d * (p1[1] / p0[1]).ln() + l * (p1[2] / p0[2]).ln()
    }

    /// The verdict after the games of `t`, if the ratio has reached a bound.
    pub fn verdict(&self, t: &Tally) -> Option<Verdict> {
        let llr = self.llr(t);
        let (low, high) = self.bounds();
        if llr >= high {
            Some(Verdict::H1)
        } else if llr <= low {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// Win, draw and loss probabilities of the first engine when it is `elo` stronger in the
/// BayesElo sense with draw margin `draw_elo`.
fn probabilities(elo: f64, draw_elo: f64) -> [f64; 3] {
    let below = |x: f64| 1.0 / (1.0 + 10f64.powf(x / 400.0));
    let win = below(draw_elo - elo);
    let loss = below(draw_elo + elo);
    [win, 1.0 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn the_ratio_of_a_published_example() {
        // jw1912/SPRT's README: 4307 wins, 4063 losses, 8620 draws, [0, 3], cutechess-cli's
        // model: "LLR: 2.47 (-2.94, 2.94)".
        let s = Sprt::parse("0,3").unwrap();
        assert!((s.llr(&tally(4307, 8620, 4063)) - 2.4673).abs() < 1e-3);
        let (low, high) = s.bounds();
        assert!((low + 2.944).abs() < 1e-3 && (high - 2.944).abs() < 1e-3);
        assert_eq!(s.verdict(&tally(4307, 8620, 4063)), None);
    }

    #[test]
    fn lopsided_matches_are_decided_and_even_ones_favour_h0() {
        let s = Sprt::parse("0,10").unwrap();
        assert_eq!(s.verdict(&tally(300, 300, 100)), Some(Verdict::H1));
        assert_eq!(s.verdict(&tally(100, 300, 300)), Some(Verdict::H0));
        // An even score is H0's own value: the ratio falls as the games add up.
        let a = s.llr(&tally(100, 200, 100));
        let b = s.llr(&tally(400, 800, 400));
        assert!(a < 0.0 && b < a, "{a} {b}");
        // Nothing is concluded before a win, a draw and a loss.
        assert_eq!(s.llr(&tally(50, 0, 0)), 0.0);
    }

    #[test]
    fn bad_tests_are_refused_by_name() {
        for (text, why) in [
            ("5", "two or four"),
            ("0,x", "numbers"),
            ("5,0", "above"),
            ("0,5,0.6,0.05", "ALPHA"),
            ("0,5,0.05", "two or four"),
            ("0,2000", "1000"),
        ] {
            let e = Sprt::parse(text).unwrap_err().to_string();
            assert!(e.contains(why) && e.contains(text), "{text}: {e}");
        }
        assert_eq!(
            Sprt::parse("-1.5, 3.5, 0.1, 0.2"),
            Ok(Sprt {
                elo0: -1.5,
                elo1: 3.5,
                alpha: 0.1,
                beta: 0.2
            })
        );
    }
}
