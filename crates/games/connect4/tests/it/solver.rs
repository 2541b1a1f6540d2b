//! The solver against Pons' test sets, and its scores against a plain search.

use crate::common::{load, plain_value, Case};
use duel_connect4::{pons_to_score, solve_small, Connect4, Solver, Threats, MAX_SCORE, MIN_SCORE};
use duel_core::{Evaluator, Game, Outcome, Score};

/// Solves `cases` with one solver (its table kept between positions, as it may be) and checks
/// each score against the file, strong or weak.
fn check_set(cases: &[&Case], weak: bool) {
    let mut solver = Solver::new();
    for case in cases {
        let want = if weak {
            case.score.signum()
        } else {
            case.score
        };
        assert_eq!(
            solver.solve(&case.pos, weak),
            want,
            "'{}' (weak: {weak})",
            case.moves
        );
    }
}

fn every(name: &str, step: usize) -> Vec<Case> {
    load(name).into_iter().step_by(step).collect()
}

#[test]
fn strong_end_easy_l3_r1() {
    let cases = load("Test_L3_R1");
    check_set(&cases.iter().collect::<Vec<_>>(), false);
}

#[test]
fn strong_middle_easy_l2_r1() {
    let cases = load("Test_L2_R1");
    check_set(&cases.iter().collect::<Vec<_>>(), false);
}

#[test]
fn strong_begin_easy_l1_r1() {
    let cases = load("Test_L1_R1");
    check_set(&cases.iter().collect::<Vec<_>>(), false);
}

#[test]
fn strong_middle_medium_l2_r2_sample() {
    let cases = every("Test_L2_R2", 10);
    check_set(&cases.iter().collect::<Vec<_>>(), false);
}

#[test]
fn strong_begin_medium_l1_r2_sample() {
    let cases = every("Test_L1_R2", 20);
    check_set(&cases.iter().collect::<Vec<_>>(), false);
}

#[test]
fn weak_middle_l2_r1_and_l2_r2_sample() {
    let mut cases = load("Test_L2_R1");
    cases.extend(every("Test_L2_R2", 20));
    check_set(&cases.iter().collect::<Vec<_>>(), true);
}

#[test]
#[ignore = "about 5 s in release"]
fn strong_middle_medium_l2_r2_all() {
    let cases = load("Test_L2_R2");
    check_set(&cases.iter().collect::<Vec<_>>(), false);
}

#[test]
#[ignore = "about 2 minutes in release"]
fn strong_begin_medium_l1_r2_all() {
    let cases = load("Test_L1_R2");
    check_set(&cases.iter().collect::<Vec<_>>(), false);
}

#[test]
#[ignore = "about a minute in release: the first 20 hard openings"]
fn strong_begin_hard_l1_r3_first_20() {
    let cases: Vec<Case> = load("Test_L1_R3").into_iter().take(20).collect();
    check_set(&cases.iter().collect::<Vec<_>>(), false);
}

/// Each column's score is the negated score of the position after it, so the best of them is the
/// position's score, and `best_move` picks one that reaches it.
#[test]
fn best_moves_agree_with_the_position_score() {
    let mut solver = Solver::new();
    let mut cases = every("Test_L3_R1", 25);
    cases.extend(every("Test_L2_R1", 25));
    // Opening positions are easy to solve but their bad moves lead to hard ones: only the
    // longer ones here.
    cases.extend(
        every("Test_L1_R1", 10)
            .into_iter()
            .filter(|c| c.pos.ply() >= 12),
    );
    for case in &cases {
        let moves = solver.best_moves(&case.pos);
        let legal: Vec<u8> = (0..7).filter(|&c| case.pos.can_play(c)).collect();
        assert_eq!(
            moves.iter().map(|m| m.0).collect::<Vec<_>>(),
            legal,
            "'{}'",
            case.moves
        );
        let best = moves.iter().map(|m| m.1).max().unwrap();
        assert_eq!(best, case.score, "'{}': {moves:?}", case.moves);
        let (col, score) = solver.best_move(&case.pos).unwrap();
        assert_eq!(score, case.score);
        assert!(moves.contains(&(col, score)));
        for &(c, s) in &moves {
            assert!(
                (MIN_SCORE..=MAX_SCORE).contains(&s),
                "'{}' column {c}: {s}",
                case.moves
            );
        }
    }
}

/// Following the solver's best moves from a position plays out its score: the winner's last
/// stone comes exactly when the score says, a draw fills the board.
#[test]
fn playing_best_moves_realises_the_score() {
    let mut solver = Solver::new();
    for case in every("Test_L2_R1", 50) {
        let mut pos = case.pos;
        let mover = pos.side_to_move();
        let mover_stones = pos.ply() / 2;
        while let Some((col, _)) = solver.best_move(&pos) {
            pos.play(col);
        }
        let stones_of = |side| pos.stones(side).count_ones() as i32;
        match case.score.signum() {
            0 => assert_eq!(pos.outcome(), Some(Outcome::Draw), "'{}'", case.moves),
            1 => {
                assert_eq!(pos.side_to_move(), mover.other(), "'{}'", case.moves);
                assert_eq!(case.score, 22 - stones_of(mover), "'{}'", case.moves);
            }
            _ => {
                assert_eq!(pos.side_to_move(), mover, "'{}'", case.moves);
                assert_eq!(
                    case.score,
                    -(22 - stones_of(mover.other())),
                    "'{}'",
                    case.moves
                );
            }
        }
        assert!(mover_stones <= pos.stones(mover).count_ones());
    }
}

#[test]
fn finished_and_immediate_positions() {
    let mut solver = Solver::new();
    // X connects four with its fourth stone: O to move has lost, scoring the worst possible.
    let lost = Connect4::from_text("1212121").unwrap();
    assert_eq!(solver.solve(&lost, false), MIN_SCORE);
    assert_eq!(solver.solve(&lost, true), -1);
    assert_eq!(pons_to_score(&lost, MIN_SCORE), Score::loss_in(0));
    assert!(solver.best_moves(&lost).is_empty());
    assert_eq!(solver.best_move(&lost), None);
    // X wins with its fourth stone next: the best possible score.
    let win_next = Connect4::from_text("121212").unwrap();
    assert_eq!(solver.solve(&win_next, false), MAX_SCORE);
    assert_eq!(solver.best_move(&win_next), Some((0, MAX_SCORE)));
    assert_eq!(pons_to_score(&win_next, MAX_SCORE), Score::win_in(1));
    assert_eq!(solve_small(win_next.board()).0, MAX_SCORE);
}

/// `pons_to_score` against a plain negamax over the `Game` trait that knows only the rules and
/// counts plies: same value, same distance.
#[test]
fn pons_scores_convert_to_plain_search_values() {
    let mut checked = 0;
    for case in load("Test_L3_R1")
        .into_iter()
        .filter(|c| c.pos.empties() <= 10)
        .step_by(7)
    {
        let mut pos = case.pos;
        let plain = plain_value(&mut pos, -Score::INF.0, Score::INF.0, 0);
        assert_eq!(
            pons_to_score(&case.pos, case.score),
            Score(plain),
            "'{}'",
            case.moves
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} positions");
    // And a few longer ones, through the solver's own scores.
    let mut solver = Solver::new();
    for text in [
        "2252576253462244111563365343671351441",
        "23163416124767223154467471272416755633",
    ] {
        let mut pos = Connect4::from_text(text).unwrap();
        let pons = solver.solve(&pos, false);
        let plain = plain_value(&mut pos, -Score::INF.0, Score::INF.0, 0);
        assert_eq!(pons_to_score(&pos, pons), Score(plain), "'{text}'");
    }
}

/// The table-free search behind `Threats::exact` gives the file's score, and `exact` turns it
/// into the core convention.
#[test]
fn small_solver_and_exact_hook() {
    let eval = Threats::default();
    let mut hooked = 0;
    for case in load("Test_L3_R1") {
        let (score, _) = solve_small(case.pos.board());
        assert_eq!(score, case.score, "'{}'", case.moves);
        match eval.exact(&case.pos) {
            Some(s) => {
                assert!(case.pos.empties() <= eval.exact_empties);
                assert_eq!(s, pons_to_score(&case.pos, case.score));
                hooked += 1;
            }
            None => assert!(case.pos.empties() > eval.exact_empties),
        }
    }
    assert!(hooked > 100, "{hooked}");
    let off = Threats::heuristic_only();
    assert_eq!(off.exact(&Connect4::from_text("1212121").unwrap()), None);
}

#[test]
fn reset_clears_nodes_and_keeps_results() {
    let mut solver = Solver::with_table_bits(16);
    let case = &load("Test_L1_R1")[0];
    let first = solver.solve(&case.pos, false);
    let nodes = solver.nodes();
    assert!(nodes > 0);
    // A second solve reuses the table.
    assert_eq!(solver.solve(&case.pos, false), first);
    assert!(solver.nodes() - nodes < nodes, "the table did not help");
    solver.reset();
    assert_eq!(solver.nodes(), 0);
    assert_eq!(solver.solve(&case.pos, false), case.score);
    assert_eq!(solver.nodes(), nodes);
}

// ------------------------------------------------------------------ limits

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use duel_connect4::solver::{Progress, SolveBudget, Stopped, CHECK_EVERY};

/// A node limit stops a solve with sound bounds, the table stays sound for the next solve, and
/// the same limit stops at the same place every time.
#[test]
fn node_limit_stops_with_sound_bounds_and_a_sound_table() {
    let case = &load("Test_L1_R2")[0];
    let mut fresh = Solver::with_table_bits(20);
    let want = fresh.solve(&case.pos, false);
    let full = fresh.nodes();
    assert!(full > 20_000, "too easy a case: {full} nodes");
    // One solver goes through every stop, its table kept: what the stopped searches left in it
    // must not change the answer at the end.
    let mut kept = Solver::with_table_bits(20);
    let mut last = None;
    for limit in [1, 100, 5_000, full / 4, full / 2] {
        let limits = SolveBudget {
            nodes: Some(limit),
            ..SolveBudget::default()
        };
        let run = || {
            Solver::with_table_bits(20)
                .solve_limited(&case.pos, false, &limits, &mut |_| {})
                .expect_err("stopped by the limit")
        };
        let stopped = run();
        assert_eq!(run(), stopped, "the same limit stops at the same place");
        assert_eq!(stopped.nodes, limit, "stops at the limit exactly");
        assert!(
            stopped.lower.is_none_or(|l| l <= want),
            "{stopped:?} {want}"
        );
        assert!(
            stopped.upper.is_none_or(|u| u >= want),
            "{stopped:?} {want}"
        );
        last = Some(stopped);
        let kept_stop = kept.solve_limited(&case.pos, false, &limits, &mut |_| {});
        if let Err(s) = kept_stop {
            assert!(s.lower.is_none_or(|l| l <= want) && s.upper.is_none_or(|u| u >= want));
        }
    }
    assert!(last.is_some_and(|s| s.lower.is_some() || s.upper.is_some()));
    assert_eq!(kept.solve(&case.pos, false), want);
}

/// A stop flag already set and a deadline already passed both stop a solve at its first look
/// at the limits.
#[test]
fn stop_flag_and_deadline_stop_at_the_first_look() {
    let case = &load("Test_L1_R2")[0];
    let flag = AtomicBool::new(true);
    let by_flag = SolveBudget {
        stop: Some(&flag),
        ..SolveBudget::default()
    };
    let by_clock = SolveBudget {
        deadline: Some(Instant::now()),
        ..SolveBudget::default()
    };
    for limits in [by_flag, by_clock] {
        let mut solver = Solver::with_table_bits(16);
        let stopped: Stopped = solver
            .solve_limited(&case.pos, false, &limits, &mut |_| {})
            .unwrap_err();
        assert_eq!(stopped.nodes, CHECK_EVERY);
    }
}

/// Without limits, `solve_limited` is `solve`: the same score in the same nodes; each probe's
/// report narrows bounds that always hold the score, and the last one proves it.
#[test]
fn unlimited_solve_is_unchanged_and_reports_each_probe() {
    let mut reference = Solver::with_table_bits(20);
    let mut solver = Solver::with_table_bits(20);
    for case in every("Test_L1_R2", 50)
        .iter()
        .chain(&every("Test_L2_R2", 100))
    {
        let want = reference.solve(&case.pos, false);
        assert_eq!(want, case.score);
        let mut reports: Vec<Progress> = Vec::new();
        let got = solver.solve_limited(&case.pos, false, &SolveBudget::default(), &mut |p| {
            reports.push(*p)
        });
        assert_eq!(got, Ok(want), "'{}'", case.moves);
        assert_eq!(solver.nodes(), reference.nodes(), "'{}'", case.moves);
        let probes: Vec<&Progress> = reports.iter().filter(|p| p.probe.is_none()).collect();
        for w in probes.windows(2) {
            assert!(w[1].lower >= w[0].lower && w[1].nodes >= w[0].nodes);
            assert!(w[1].upper.unwrap_or(i32::MAX) <= w[0].upper.unwrap_or(i32::MAX));
        }
        for p in &probes {
            assert!(p.lower.is_none_or(|l| l <= want) && p.upper.is_none_or(|u| u >= want));
        }
        if let Some(last) = probes.last() {
            assert!(
                last.lower == Some(want) || last.upper == Some(want),
                "{last:?}"
            );
        }
    }
}
