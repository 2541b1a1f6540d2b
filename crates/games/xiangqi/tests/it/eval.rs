//! The evaluators over the perft suite's positions and random games from them: Strong with the
//! committed and the hand weights as Material, values bounded and unchanged by a move played and
//! taken back, and Strong's search hooks exactly Material's.

use duel_core::{Evaluator, Game, GameInfo, SplitMix64};
use duel_xiangqi::strong::Weights;
use duel_xiangqi::{Material, Strong, Xiangqi};

use crate::common::{perft_table, pos};

/// Plays random moves from each perft position with `eval` judging every position on the way.
fn check<E: Evaluator<Xiangqi>>(eval: &E, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let (mut moves, mut noisy, mut reference) = (Vec::new(), Vec::new(), Vec::new());
    for entry in perft_table() {
        let mut p = pos(&entry.fen);
        for _ in 0..60 {
            p.generate_moves(&mut moves);
            if moves.is_empty() || p.outcome().is_some() {
                break;
            }
            let v = eval.evaluate(&p);
            assert!(v.abs() < 20_000, "{}: {v} at {p:?}", eval.name());
            eval.noisy_moves(&p, &mut noisy);
            Material.noisy_moves(&p, &mut reference);
            assert_eq!(noisy, reference, "{p:?}");
            assert!(noisy.iter().all(|m| moves.contains(m)));
            for &m in &moves {
                assert_eq!(eval.move_hint(&p, m), Material.move_hint(&p, m));
            }
            assert_eq!(eval.null_move_ok(&p), Material.null_move_ok(&p));
            assert_eq!(eval.extend(&p), Material.extend(&p));
            let mv = moves[rng.below(moves.len())];
            p.play(mv);
            let after = eval.evaluate(&p);
            p.undo(mv);
            assert_eq!(eval.evaluate(&p), v, "{p:?}");
            p.play(mv);
            assert_eq!(eval.evaluate(&p), after);
        }
    }
}

#[test]
fn evaluators_keep_materials_hooks_and_bounded_values() {
    assert_eq!(<Xiangqi as GameInfo>::FILE_EVALUATORS, ["strong"]);
    check(&Material, 1);
    check(&Strong::default(), 2);
    check(&Strong::new(Weights::hand()), 3);
}
