//! Step 2, as an option: MTD(f) at the root.

use duel_core::{Evaluator, Game, Score};

use super::worker::Worker;

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// Step 2 (option): MTD(f). Null-window searches from the last value, moving the bounds
    /// until they meet. Needs the table to avoid re-searching everything each pass.
    pub(super) fn mtdf(&mut self, depth: u32, guess: Score) -> Score {
        let mut g = guess;
        let mut lower = -Score::INF;
        let mut upper = Score::INF;
        let mut best_pv = Vec::new();
        while lower < upper {
            let beta = if g == lower { Score(g.0 + 1) } else { g };
            g = self.pvs(depth, 0, Score(beta.0 - 1), beta, true);
            if self.stopped {
                return g;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                // A fail high names a move that reaches the value; keep its line.
                best_pv = self.stack[0].pv.clone();
            }
        }
        // The last pass may have failed low and named only some refuted move: report the line
        // of the pass that established the value as a lower bound.
        if !best_pv.is_empty() {
            self.stack[0].pv = best_pv;
        }
        g
    }
}
