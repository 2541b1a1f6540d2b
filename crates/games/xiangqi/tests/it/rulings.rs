//! The repetition rulings on hand-built cycles: perpetual check loses, a perpetual chase of an
//! unprotected piece (or of a chariot by a horse or cannon) loses, mutual checks and idle
//! moves draw; in a game on the third occurrence, in a search on the second.

use duel_core::{Game, GameInfo, Outcome, Score, Side};
use duel_xiangqi::{Ruling, Xiangqi};

use crate::common::{play, pos};

/// Plays `cycle` on `start` until the position has come back `times` times, checking that the
/// game goes on until the last, and returns the final position.
fn repeat(start: &str, cycle: &str, times: usize) -> Xiangqi {
    let mut p = pos(start);
    for i in 0..times {
        assert_eq!(p.outcome(), None, "before cycle {i}");
        play(&mut p, cycle);
    }
    assert_eq!(p.hash(), pos(start).hash());
    p
}

/// Black in check from the chariot on d5 steps between d9 and e9; the chariot follows.
const CHECKED: &str = "3k5/9/9/9/3R5/9/9/9/9/5K3 b - - 0 1";
const CHECKING: &str = "d9e9 d5e5 e9d9 e5d5";

#[test]
fn perpetual_check_loses() {
    let p = repeat(CHECKED, CHECKING, 2);
    assert_eq!(
        p.repetition_ruling(),
        Some(Ruling::PerpetualCheck { loser: Side::First })
    );
    // Black is to move: the checker, Red, has lost.
    assert_eq!(p.outcome(), Some(Outcome::Win));
    assert_eq!(GameInfo::end_reason(&p), "perpetual check");
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    assert!(moves.is_empty());
}

/// The red horse attacks the black chariot (unprotected, and it cannot take the horse back)
/// on a3 from b5 and on a6 from c7; the chariot runs between them.
const CHASED: &str = "4k4/9/9/9/1N7/9/r8/9/9/3K5 b - - 0 1";
const CHASING: &str = "a3a6 b5c7 a6a3 c7b5";

#[test]
fn a_horse_chasing_a_chariot_loses() {
    let p = repeat(CHASED, CHASING, 2);
    assert_eq!(
        p.repetition_ruling(),
        Some(Ruling::PerpetualChase { loser: Side::First })
    );
    assert_eq!(p.outcome(), Some(Outcome::Win));
    assert_eq!(GameInfo::end_reason(&p), "perpetual chase");
}

#[test]
fn chasing_a_protected_piece_is_no_chase() {
    // The same dance with a black cannon for the chariot: unprotected, it is chased; protected
    // on both points by the chariot on a9, it is not, and the repetition draws.
    let alone = repeat("4k4/9/9/9/1N7/9/c8/9/9/3K5 b - - 0 1", CHASING, 2);
    assert_eq!(
        alone.repetition_ruling(),
        Some(Ruling::PerpetualChase { loser: Side::First })
    );
    let guarded = repeat("r3k4/9/9/9/1N7/9/c8/9/9/3K5 b - - 0 1", CHASING, 2);
    assert_eq!(guarded.repetition_ruling(), Some(Ruling::Draw));
    assert_eq!(guarded.outcome(), Some(Outcome::Draw));
}

/// Red, checked by the cannon over its chariot, moves the chariot to check along the e-file;
/// Black's cannon blocks and uncovers its chariot's check; and back: every move checks.
const MUTUAL: &str = "3r5/9/4k4/9/3c5/3R5/9/4C4/7n1/3K5 w - - 0 1";

#[test]
fn mutual_perpetual_checks_draw() {
    let p = repeat(MUTUAL, "d4e4 d5e5 e4d4 e5d5", 2);
    assert_eq!(p.repetition_ruling(), Some(Ruling::Draw));
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(GameInfo::end_reason(&p), "repetition");
}

#[test]
fn an_idle_repetition_draws() {
    let idle = "4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let p = repeat(idle, "d0d1 e9e8 d1d0 e8e9", 2);
    assert_eq!(p.repetition_ruling(), Some(Ruling::Draw));
    assert_eq!(p.outcome(), Some(Outcome::Draw));
}

/// In a game the ruling comes on the third occurrence; inside a search on the second, counted
/// from the search's root; at the root itself the engine still has its moves.
#[test]
fn a_search_judges_the_first_repetition() {
    let once = repeat(CHECKED, CHECKING, 1);
    assert_eq!(once.outcome(), None);
    let mut searched = pos(CHECKED);
    searched.begin_search();
    play(&mut searched, CHECKING);
    assert_eq!(searched.outcome(), Some(Outcome::Win));
    let mut root = repeat(CHECKED, CHECKING, 2);
    root.begin_search();
    assert_eq!(root.outcome(), None);
    assert_eq!(root.repetition_ruling(), None);
}

/// A plain negamax over the rules, as a search sees them: the value with the distance to the
/// end in plies, 0 at the depth limit.
fn negamax(p: &mut Xiangqi, depth: u32, ply: i32) -> i32 {
    match p.outcome() {
        Some(Outcome::Win) => return Score::win_in(ply).0,
        Some(Outcome::Loss) => return Score::loss_in(ply).0,
        Some(Outcome::Draw) => return 0,
        None if depth == 0 => return 0,
        None => {}
    }
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut best = -Score::INF.0;
    for mv in moves {
        p.play(mv);
        best = best.max(-negamax(p, depth - 1, ply + 1));
        p.undo(mv);
    }
    best
}

/// A search sees the ruling: from the root (Black in check), the line in which Red keeps
/// checking comes back to the root in four plies, and there Red has lost; Red, searching,
/// finds better (the chariot to e8 leaves Black's general no move, and stalemate loses).
#[test]
fn the_search_scores_a_perpetual_by_the_ruling() {
    let mut p = pos(CHECKED);
    p.begin_search();
    play(&mut p, "d9e9 d5e5 e9d9");
    let again = p.parse_move("e5d5").unwrap();
    p.play(again);
    assert_eq!(p.outcome(), Some(Outcome::Win));
    assert_eq!(-negamax(&mut p, 0, 4), Score::loss_in(4).0);
    p.undo(again);
    assert_eq!(negamax(&mut p, 1, 3), Score::win_in(4).0);
}
