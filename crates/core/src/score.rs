use std::fmt;

/// A search value from the side to move's point of view (negamax convention).
///
/// Proven results are kept apart from heuristic values: a win in `n` plies is `WIN - n`, a loss
/// in `n` plies is `-(WIN - n)`, and every heuristic value lies strictly between the two ranges.
/// Shorter wins therefore score higher, and the distance survives the transposition table once
/// [`Score::to_tt`] and [`Score::from_tt`] re-base it on the node.
///
/// ```
/// use duel_core::Score;
///
/// let win = Score::win_in(3);
/// assert!(win.is_win() && win > Score::win_in(5)); // sooner is better
/// assert_eq!(win.plies_to_end(), Some(3));
/// assert_eq!((-win).plies_to_end(), Some(3)); // the loser's view of the same line
/// assert_eq!(Score::heuristic(40).plies_to_end(), None);
/// // Stored in a table at a node 2 plies below the root, read back there: unchanged.
/// assert_eq!(win.to_tt(2).from_tt(2), win);
/// assert_eq!(win.to_string(), "win in 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// The value of a win on the board (0 plies away).
    pub const WIN_VALUE: i32 = 30_000;
    /// The deepest ply any search may reach; mate distances beyond it are not representable.
    pub const MAX_PLY: i32 = 1_000;
    /// The largest heuristic magnitude; evaluations are clamped to it.
    pub const MAX_HEURISTIC: i32 = Self::WIN_VALUE - Self::MAX_PLY - 1;
    /// Above every value: the open bound of a full window. Fits an `i16`.
    pub const INF: Score = Score(31_000);
    /// The value of a draw.
    pub const DRAW: Score = Score(0);
    /// The textbook +INF for a win, whatever its distance.
    pub const WIN: Score = Score(Self::WIN_VALUE);
    /// The textbook -INF for a loss, whatever its distance.
    pub const LOSS: Score = Score(-Self::WIN_VALUE);

    /// A win for the side to move, `ply` plies from the root.
    pub const fn win_in(ply: i32) -> Score {
        Score(Self::WIN_VALUE - ply)
    }

    /// A loss for the side to move, `ply` plies from the root.
    pub const fn loss_in(ply: i32) -> Score {
        Score(-(Self::WIN_VALUE - ply))
    }

    /// A heuristic value, clamped so it can never be mistaken for a proven result.
    pub const fn heuristic(v: i32) -> Score {
        let v = if v > Self::MAX_HEURISTIC {
            Self::MAX_HEURISTIC
        } else if v < -Self::MAX_HEURISTIC {
            -Self::MAX_HEURISTIC
        } else {
            v
        };
        Score(v)
    }

    /// True for a proven win of the side to move.
    pub const fn is_win(self) -> bool {
        self.0 > Self::MAX_HEURISTIC && self.0 <= Self::WIN_VALUE
    }

    /// True for a proven loss of the side to move.
    pub const fn is_loss(self) -> bool {
        self.0 < -Self::MAX_HEURISTIC && self.0 >= -Self::WIN_VALUE
    }

    /// True for a proven win or loss.
    pub const fn is_decisive(self) -> bool {
        self.is_win() || self.is_loss()
    }

    /// Plies to the end of the game for a proven result, from the root of the search.
    pub const fn plies_to_end(self) -> Option<i32> {
        if self.is_win() {
            Some(Self::WIN_VALUE - self.0)
        } else if self.is_loss() {
            Some(Self::WIN_VALUE + self.0)
        } else {
            None
        }
    }

    /// Re-bases a proven result found `ply` plies below the root onto the node itself, so a
    /// table entry means "win in n plies from here" wherever the position is met again.
    pub const fn to_tt(self, ply: i32) -> Score {
        if self.is_win() {
            Score(self.0 + ply)
        } else if self.is_loss() {
            Score(self.0 - ply)
        } else {
            self
        }
    }

    /// The inverse of [`Score::to_tt`]: a stored value re-based onto a node `ply` below the root.
    pub const fn from_tt(self, ply: i32) -> Score {
        if self.is_win() {
            Score(self.0 - ply)
        } else if self.is_loss() {
            Score(self.0 + ply)
        } else {
            self
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    /// `win in 5`, `loss in 4`, `draw`-free plain numbers for heuristics (`+37`, `-12`, `0`),
    /// `+inf`/`-inf` for the open bounds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= Score::INF.0 {
            write!(f, "+inf")
        } else if self.0 <= -Score::INF.0 {
            write!(f, "-inf")
        } else if let (true, Some(n)) = (self.is_win(), self.plies_to_end()) {
            write!(f, "win in {n}")
        } else if let (true, Some(n)) = (self.is_loss(), self.plies_to_end()) {
            write!(f, "loss in {n}")
        } else if self.0 > 0 {
            write!(f, "+{}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_results_order_by_distance() {
        assert!(Score::win_in(1) > Score::win_in(3));
        assert!(Score::win_in(999) > Score::heuristic(i32::MAX));
        assert!(Score::loss_in(2) < Score::loss_in(10));
        assert!(Score::loss_in(999) < Score::heuristic(i32::MIN));
        assert_eq!(-Score::win_in(7), Score::loss_in(7));
        assert!(Score::INF > Score::WIN && -Score::INF < Score::LOSS);
        assert!(Score::INF.0 <= i16::MAX as i32);
    }

    #[test]
    fn classification() {
        assert!(Score::win_in(0).is_win() && !Score::win_in(0).is_loss());
        assert!(Score::loss_in(Score::MAX_PLY).is_loss());
        assert!(!Score::heuristic(Score::MAX_HEURISTIC).is_decisive());
        assert_eq!(Score::win_in(5).plies_to_end(), Some(5));
        assert_eq!(Score::loss_in(4).plies_to_end(), Some(4));
        assert_eq!(Score(12).plies_to_end(), None);
    }

    /// The pitfall seen in engines that got the sign wrong: a mate stored at one ply and probed
    /// at another must still mean "mate in n from the root of the probing search".
    #[test]
    fn tt_round_trip_keeps_distance_from_the_node() {
        for store_ply in [0, 1, 5, 17, 60] {
            for probe_ply in [0, 2, 5, 33] {
                for dist in [1, 2, 9, 40] {
                    // A win `dist` plies below a node at `store_ply`.
                    let at_root = Score::win_in(store_ply + dist);
                    let stored = at_root.to_tt(store_ply);
                    assert_eq!(stored, Score::win_in(dist));
                    assert_eq!(stored.from_tt(probe_ply), Score::win_in(probe_ply + dist));
                    let lost = Score::loss_in(store_ply + dist).to_tt(store_ply);
                    assert_eq!(lost, Score::loss_in(dist));
                    assert_eq!(lost.from_tt(probe_ply), Score::loss_in(probe_ply + dist));
                }
            }
        }
        assert_eq!(Score(57).to_tt(9).from_tt(3), Score(57));
    }

    #[test]
    fn display() {
        assert_eq!(Score::win_in(5).to_string(), "win in 5");
        assert_eq!(Score::loss_in(4).to_string(), "loss in 4");
        assert_eq!(Score(37).to_string(), "+37");
        assert_eq!(Score(-12).to_string(), "-12");
        assert_eq!(Score(0).to_string(), "0");
        assert_eq!(Score::INF.to_string(), "+inf");
    }
}
