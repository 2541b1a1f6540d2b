//! Benchmark only: duel against the [`minimax`] crate (version 0.6) on the same work.
//!
//! The adapters here let the `minimax` crate play duel's own games with duel's own evaluators,
//! so both libraries search exactly the same rules, the same move order and the same static
//! values:
//! - [`Duel`] implements [`minimax::Game`] for any [`duel_core::Game`] (the duel position is the
//!   `minimax` state, made and unmade in place like duel does);
//! - [`DuelEval`] implements [`minimax::Evaluator`] for any [`duel_core::Evaluator`];
//! - [`Counted`] is [`Duel`] with a move counter, for strategies that report no node count
//!   (`minimax::Negamax`); it is only used in separate counting runs, never in timed ones.
//!
//! The binary (`cargo run --release -p duel-bench-minimax`) prints the comparison table.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use duel_connect4::{Connect4, Threats};
use duel_core::{Evaluator, Game, Outcome, Score};
use duel_tictactoe::{OpenLines, TicTacToe};
use minimax::{Evaluation, Winner};

/// A duel game seen through `minimax`'s [`minimax::Game`] trait. Never instantiated: `minimax`
/// games are rules objects, the state is the duel position itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct Duel<G>(PhantomData<fn() -> G>);

/// Tic-tac-toe for `minimax`.
pub type MmTicTacToe = Duel<TicTacToe>;
/// Connect Four for `minimax`.
pub type MmConnect4 = Duel<Connect4>;

/// How a finished duel game ended, in `minimax`'s terms. duel's outcome is seen from the side
/// to move, who cannot move on: a loss means the player who just moved won.
pub fn winner(outcome: Outcome) -> Winner {
    match outcome {
        Outcome::Loss => Winner::PlayerJustMoved,
        Outcome::Win => Winner::PlayerToMove,
        Outcome::Draw => Winner::Draw,
    }
}

impl<G: Game> minimax::Game for Duel<G> {
    type S = G;
    type M = G::Move;

    #[inline]
    fn generate_moves(state: &G, moves: &mut Vec<G::Move>) -> Option<Winner> {
        // duel clears the list and leaves it empty exactly when the game is over.
        state.generate_moves(moves);
        if moves.is_empty() {
            state.outcome().map(winner)
        } else {
            None
        }
    }

    #[inline]
    fn apply(state: &mut G, m: G::Move) -> Option<G> {
        state.play(m);
        None
    }

    #[inline]
    fn undo(state: &mut G, m: G::Move) {
        state.undo(m);
    }

    #[inline]
    fn get_winner(state: &G) -> Option<Winner> {
        state.outcome().map(winner)
    }

    #[inline]
    fn zobrist_hash(state: &G) -> u64 {
        state.hash()
    }

    fn notation(state: &G, m: G::Move) -> Option<String> {
        Some(state.format_move(m))
    }

    fn table_index(m: G::Move) -> u16 {
        G::move_index(m) as u16
    }

    fn max_table_index() -> u16 {
        (G::MOVE_INDICES - 1) as u16
    }
}

/// Moves played by [`Counted`] games since the last [`reset_count`].
static MOVES_PLAYED: AtomicU64 = AtomicU64::new(0);

/// Zeroes the move counter of [`Counted`].
pub fn reset_count() {
    MOVES_PLAYED.store(0, Ordering::Relaxed);
}

/// Moves played by [`Counted`] games since the last [`reset_count`]. Every move played enters
/// one node, so a search visited this many nodes plus its root.
pub fn moves_played() -> u64 {
    MOVES_PLAYED.load(Ordering::Relaxed)
}

/// [`Duel`] with a global move counter: for counting the nodes of a `minimax` strategy that does
/// not report them. Slower than [`Duel`]; not for timing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counted<G>(PhantomData<fn() -> G>);

impl<G: Game> minimax::Game for Counted<G> {
    type S = G;
    type M = G::Move;

    fn generate_moves(state: &G, moves: &mut Vec<G::Move>) -> Option<Winner> {
        <Duel<G> as minimax::Game>::generate_moves(state, moves)
    }

    fn apply(state: &mut G, m: G::Move) -> Option<G> {
        MOVES_PLAYED.fetch_add(1, Ordering::Relaxed);
        state.play(m);
        None
    }

    fn undo(state: &mut G, m: G::Move) {
        state.undo(m);
    }

    fn get_winner(state: &G) -> Option<Winner> {
        state.outcome().map(winner)
    }

    fn zobrist_hash(state: &G) -> u64 {
        state.hash()
    }

    fn table_index(m: G::Move) -> u16 {
        G::move_index(m) as u16
    }

    fn max_table_index() -> u16 {
        (G::MOVE_INDICES - 1) as u16
    }
}

/// A duel evaluator seen through `minimax`'s [`minimax::Evaluator`] trait; `M` is the
/// `minimax` game it evaluates for ([`Duel`] or [`Counted`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct DuelEval<E, M = ()> {
    /// The duel evaluator.
    pub eval: E,
    _game: PhantomData<fn() -> M>,
}

impl<E, M> DuelEval<E, M> {
    /// Wraps `eval`.
    pub fn new(eval: E) -> Self {
        DuelEval {
            eval,
            _game: PhantomData,
        }
    }
}

/// duel's heuristic value as a `minimax` evaluation. duel clamps heuristics to
/// `±Score::MAX_HEURISTIC` (28,999), which fits an `i16` and stays clear of `minimax`'s
/// proven-result band (within 100 of `±i16::MAX`).
#[inline]
pub fn to_evaluation(v: i32) -> Evaluation {
    Score::heuristic(v).0 as Evaluation
}

macro_rules! duel_eval {
    ($game:ident) => {
        impl<G: Game, E: Evaluator<G>> minimax::Evaluator for DuelEval<E, $game<G>> {
            type G = $game<G>;

            #[inline]
            fn evaluate(&self, s: &G) -> Evaluation {
                to_evaluation(self.eval.evaluate(s))
            }

            fn generate_noisy_moves(&self, s: &G, moves: &mut Vec<G::Move>) {
                self.eval.noisy_moves(s, moves);
            }
        }
    };
}
duel_eval!(Duel);
duel_eval!(Counted);

/// The open-lines evaluator for `minimax`'s tic-tac-toe.
pub fn mm_open_lines() -> DuelEval<OpenLines, MmTicTacToe> {
    DuelEval::new(OpenLines)
}

/// The threats evaluator for `minimax`'s Connect Four.
pub fn mm_threats(eval: Threats) -> DuelEval<Threats, MmConnect4> {
    DuelEval::new(eval)
}

/// A `minimax` value as a duel [`Score`] for display: proven results become `win`/`loss` (the
/// distance is not recoverable from `minimax`'s root value), heuristics stay as they are.
pub fn describe_evaluation(v: Evaluation) -> String {
    if v >= minimax::BEST_EVAL - 100 {
        "win".to_string()
    } else if v <= minimax::WORST_EVAL + 100 {
        "loss".to_string()
    } else {
        Score(v as i32).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_search::{Reference, ReferenceOptions};
    use minimax::Strategy;

    /// Every position of tic-tac-toe by ply, finished games not expanded.
    const TTT_PERFT: [u64; 10] = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];

    #[test]
    fn perft_agrees_tictactoe() {
        let mut pos = TicTacToe::start();
        let counts = minimax::perft::<MmTicTacToe>(&mut pos, 9, false);
        assert_eq!(counts, TTT_PERFT);
        for (d, &n) in TTT_PERFT.iter().enumerate() {
            assert_eq!(duel_core::perft(&mut pos, d as u32), n);
        }
        // The whole game tree: 549,946 positions, the root included.
        assert_eq!(counts.iter().sum::<u64>(), 549_946);
        assert_eq!(pos, TicTacToe::start(), "perft left the position changed");
    }

    #[test]
    fn perft_agrees_connect4() {
        // Column 4 full at ply 6 takes 7 lines out of 7^7.
        let expected = [1, 7, 49, 343, 2401, 16807, 117_649, 823_536];
        let mut pos = Connect4::start();
        let counts = minimax::perft::<MmConnect4>(&mut pos, 7, false);
        assert_eq!(counts, expected);
        for (d, &n) in expected.iter().enumerate().take(6) {
            assert_eq!(duel_core::perft(&mut pos, d as u32), n);
        }
        // A position with wins in reach: finished games must stop both counts alike.
        let mut mid = Connect4::from_text("4455").unwrap();
        let mm = minimax::perft::<MmConnect4>(&mut mid, 5, false);
        for (d, &n) in mm.iter().enumerate() {
            assert_eq!(duel_core::perft(&mut mid, d as u32), n, "depth {d}");
        }
        assert_eq!(mm[1], 7);
    }

    #[test]
    fn tictactoe_solve_agrees() {
        let start = TicTacToe::start();
        let mut negamax = minimax::Negamax::new(mm_open_lines(), 9);
        assert!(negamax.choose_move(&start).is_some());
        assert_eq!(negamax.root_value(), 0, "tic-tac-toe is a draw");
        let duel =
            Reference::AlphaBetaSoft.search(&start, &OpenLines, 9, ReferenceOptions::default());
        assert_eq!(duel.value, Score::DRAW);

        // X (1, 2) to move with 3 open: a win for the side to move, in one ply.
        let won = TicTacToe::from_text("1425").unwrap();
        let mut negamax = minimax::Negamax::new(mm_open_lines(), 9);
        assert_eq!(negamax.choose_move(&won), Some(2));
        assert_eq!(negamax.root_value(), minimax::BEST_EVAL);
        let duel =
            Reference::AlphaBetaSoft.search(&won, &OpenLines, 9, ReferenceOptions::default());
        assert_eq!(duel.value, Score::win_in(1));
        assert_eq!(duel.best, Some(2));
    }

    /// Same evaluator, same depth, no proven results in reach: the two libraries' root values
    /// must be equal, not just of the same sign.
    #[test]
    fn heuristic_values_agree() {
        let ttt = TicTacToe::from_text("5").unwrap();
        let mut negamax = minimax::Negamax::new(mm_open_lines(), 2);
        negamax.choose_move(&ttt);
        let duel = Reference::Negamax.search(&ttt, &OpenLines, 2, ReferenceOptions::default());
        assert_eq!(negamax.root_value() as i32, duel.value.0);

        for text in ["", "44", "4435"] {
            let pos = Connect4::from_text(text).unwrap();
            let eval = Threats::heuristic_only();
            let mut negamax = minimax::Negamax::new(mm_threats(eval), 5);
            negamax.choose_move(&pos);
            let duel = Reference::AlphaBetaSoft.search(&pos, &eval, 5, ReferenceOptions::default());
            assert!(!duel.value.is_decisive(), "{text}: {}", duel.value);
            assert_eq!(
                negamax.root_value() as i32,
                duel.value.0,
                "position '{text}'"
            );
        }
    }

    #[test]
    fn counted_counts_nodes() {
        // Negamax without pruning reaches every node: at depth 9 the whole tree but the root.
        reset_count();
        let mut pos = TicTacToe::start();
        let counts = minimax::perft::<Counted<TicTacToe>>(&mut pos, 2, false);
        assert_eq!(counts, [1, 9, 72]);
        // Depth 1 counts its moves in bulk; depth 2 plays the 9 first moves.
        assert_eq!(moves_played(), 9);
    }
}
