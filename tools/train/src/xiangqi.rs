//! Xiangqi: the [`Linear`] description of [`duel_xiangqi::Strong`] for the self-play data,
//! Texel fit and match of [`crate::linear`].

use duel_xiangqi::strong::{feature_name, features, phase, pst_feature};
use duel_xiangqi::Xiangqi;

use crate::linear::Linear;

impl Linear for Xiangqi {
    const PHASE_MAX: i32 = duel_xiangqi::strong::PHASE_MAX;
    const PIECES: &'static [&'static str] = &[
        "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
    ];

    /// No promotions in xiangqi: a capture is the only noisy move.
    fn quiet(&self, mv: Self::Move) -> bool {
        !self.in_check() && self.board().captured(mv).is_none()
    }

    fn features(&self, out: &mut Vec<(u16, i8)>) {
        features(self, out);
    }

    fn phase(&self) -> i32 {
        phase(self)
    }

    fn feature_name(i: usize) -> String {
        feature_name(i)
    }

    /// The folded points each kind can stand on: the general and advisors in the palace, the
    /// elephants on their seven points, soldiers on their files until they cross the river.
    fn pst_features(p: usize) -> Vec<usize> {
        let reachable = |f: usize, r: usize| match p {
            0 => f >= 3 && r <= 2,
            1 => (f == 3 && (r == 0 || r == 2)) || (f == 4 && r == 1),
            2 => matches!((f, r), (2, 0) | (0, 2) | (4, 2) | (2, 4)),
            // Before the river a soldier only goes forward, on its own file.
            6 => r >= 5 || (r >= 3 && f.is_multiple_of(2)),
            _ => true,
        };
        (0..50)
            .filter(|&i| reachable(i % 5, i / 5))
            .map(|i| pst_feature(p, i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::{fit, openings, play_game, self_player, Dataset, FitConfig, SCORE_CLAMP};
    use duel_xiangqi::strong::Weights;
    use duel_xiangqi::{Material, Strong};

    /// A few short games, their records read back, a fit run on them, and the fitted weights
    /// written and read again.
    #[test]
    fn a_tiny_generation_and_fit_run() {
        let o = openings::<Xiangqi>(3, 4);
        assert_eq!(o.len(), 3);
        let mut text = String::new();
        for start in &o {
            let mut a = self_player(Strong::new(Weights::hand()), 200);
            let mut b = self_player(Material, 200);
            let mut fens = Vec::new();
            let r = play_game(start, &mut a, &mut b, Some(&mut fens)).unwrap();
            assert!(r <= 2 && !fens.is_empty());
            for (f, v) in fens {
                assert!(v.abs() <= SCORE_CLAMP);
                text.push_str(&format!("{f};{};{v}\n", ["0", "0.5", "1"][usize::from(r)]));
            }
        }
        let mut data = Dataset::<Xiangqi>::parse(&text).unwrap();
        assert_eq!(data.len(), text.lines().count());
        let cfg = FitConfig {
            valid_percent: 20,
            epochs: 5,
            learning_rate: 1.0,
            lambda: 0.0,
            value_weight: 0.5,
        };
        let r = fit(&mut data, Weights::hand().as_slice(), &cfg, |_| {});
        let w = Weights::from_pairs(r.weights).unwrap();
        assert_eq!(Weights::parse(&w.to_text("fitted")).unwrap(), w);
        assert!(Dataset::<Xiangqi>::parse("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1;2").is_err());
    }

    #[test]
    fn reachable_tables_are_as_the_rules_say() {
        assert_eq!(Xiangqi::pst_features(0).len(), 6);
        assert_eq!(Xiangqi::pst_features(1).len(), 3);
        assert_eq!(Xiangqi::pst_features(2).len(), 4);
        assert_eq!(Xiangqi::pst_features(6).len(), 31);
    }
}
