use std::time::Duration;

use duel_core::Score;

/// Counters every search keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited, the root and finished positions included (quiescence nodes too).
    pub nodes: u64,
    /// Static evaluations of leaves.
    pub evals: u64,
    /// Beta cut-offs: nodes left before all their moves were searched.
    pub cutoffs: u64,
    /// Transposition-table probes that found the position.
    pub tt_hits: u64,
    /// The deepest ply reached (quiescence and extensions included).
    pub seldepth: u32,
}

impl Stats {
    /// Adds another thread's or another search's counters.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.evals += other.evals;
        self.cutoffs += other.cutoffs;
        self.tt_hits += other.tt_hits;
        self.seldepth = self.seldepth.max(other.seldepth);
    }
}

/// What every search answers: the value and the line, with the counters that show how much work
/// it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Report<M> {
    /// The algorithm's short name (`minimax`, `alphabeta-hard`, `pvs`, ...).
    pub algorithm: &'static str,
    /// The value of the root, from the side to move.
    pub value: Score,
    /// The move chosen (None only at a finished position).
    pub best: Option<M>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The nominal depth completed.
    pub depth: u32,
    /// Counters.
    pub stats: Stats,
    /// Wall time.
    pub time: Duration,
    /// With several principal variations asked for (`SearchConfig::multipv`), every line of
    /// the last iteration as (value, line), best first; the first is `value` and `pv`. Empty
    /// otherwise.
    pub lines: Vec<(Score, Vec<M>)>,
    /// Permille of the transposition table in use by this search (0 without one).
    pub hashfull: u32,
    /// The game's final margin under perfect play (Othello: the disc difference) when the
    /// game's own solver gave the value instead of a search; None from every search.
    pub margin: Option<i32>,
    /// The search stopped in an iteration after it had found a better move than the last
    /// iteration's: `best`, `pv`, `value` and `depth` are that iteration's, and `value` is
    /// exact for that move but only a lower bound on the root's (its later moves were not
    /// searched). UCI writes it `lowerbound`.
    pub partial: bool,
}

impl<M> Report<M> {
    /// Effective branching factor: the b* with b*^depth = nodes, the textbook's measure of how
    /// well move ordering lets alpha-beta prune. For display only: no decision uses floats.
    pub fn ebf(&self) -> f64 {
        if self.depth == 0 || self.stats.nodes <= 1 {
            return 0.0;
        }
        (self.stats.nodes as f64).powf(1.0 / self.depth as f64)
    }

    /// Nodes per second (0 for a search too short to time).
    pub fn nps(&self) -> u64 {
        (self.stats.nodes as u128 * 1_000_000)
            .checked_div(self.time.as_micros())
            .unwrap_or(0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        let r = Report::<u8> {
            algorithm: "x",
            value: Score(0),
            best: None,
            pv: vec![],
            depth: 2,
            stats: Stats {
                nodes: 100,
                ..Stats::default()
            },
            time: Duration::from_millis(2),
            lines: Vec::new(),
            hashfull: 0,
            margin: None,
            partial: false,
        };
        // 100 nodes in 2 ms is 50,000 nodes per second, not 50.
        assert_eq!(r.nps(), 50_000);
        assert!((r.ebf() - 10.0).abs() < 1e-9);
    }
}
