//! The strong evaluator: the line table on hand-made lines, threats, the side to move, the
//! candidate moves, the noisy moves and the bounds.

use crate::common::{cell, setup};
use duel_core::{Evaluator, Game, GameInfo, Score, Side, SplitMix64};
use duel_gomoku::{line_kind, Gomoku, Kind, Patterns, Threat};

#[test]
fn lines_classified_by_hand() {
    // Freestyle table (five or more wins).
    assert_eq!(line_kind("XXXX*....", false), Kind::Five);
    assert_eq!(
        line_kind("XXXX*X...", false),
        Kind::Five,
        "an overline wins"
    );
    assert_eq!(line_kind("..XX*X...", false), Kind::Flex4, "open four");
    assert_eq!(
        line_kind(".OXX*X...", false),
        Kind::Block4,
        "four blocked at one end"
    );
    assert_eq!(
        line_kind("..X.*XX..", false),
        Kind::Block4,
        "broken four X.XXX"
    );
    assert_eq!(
        line_kind("X.XX*.X..", false),
        Kind::Flex4,
        "two fours in one line"
    );
    assert_eq!(line_kind("...X*X...", false), Kind::Flex3, "open three");
    assert_eq!(
        line_kind("..X.*X...", false),
        Kind::Flex3,
        "split three X.XX"
    );
    assert_eq!(line_kind("..OX*X...", false), Kind::Block3, "three blocked");
    assert_eq!(
        line_kind("..OX*XO..", false),
        Kind::None,
        "no room for five"
    );
    assert_eq!(
        line_kind("...O*X..O", false),
        Kind::None,
        "room for four only"
    );
    assert_eq!(line_kind("....*X...", false), Kind::Flex2, "open two");
    assert_eq!(line_kind("...O*X...", false), Kind::Block2, "two blocked");
    // Exactly five (standard, renju's Black): an overline is not a five.
    assert_eq!(line_kind("XXXX*....", true), Kind::Five);
    assert_ne!(line_kind("XXXX*X...", true), Kind::Five, "overline");
    assert_eq!(
        line_kind(".XXX*.X..", true),
        Kind::Block4,
        "only the left end makes five"
    );
}

#[test]
fn renju_black_overline_is_not_a_five() {
    // Black e8 f8 g8 i8 j8: h8 makes six.
    let renju = setup("renju", "e8 f8 g8 i8 j8 a1", "a3 a5 a7 a9 a11");
    let h8 = cell(&renju, "h8");
    assert_ne!(Patterns::threat(&renju, h8, Side::First), Threat::Five);
    let free = setup("", "e8 f8 g8 i8 j8 a1", "a3 a5 a7 a9 a11");
    assert_eq!(Patterns::threat(&free, h8, Side::First), Threat::Five);
    // White's overline wins under renju.
    let white = setup("renju", "a3 a5 a7 a9 a11 o1", "e8 f8 g8 i8 j8");
    assert_eq!(Patterns::threat(&white, h8, Side::Second), Threat::Five);
}

#[test]
fn threats_combine_directions() {
    // Black f8 g8 (row) and h6 h7 (column): h8 makes two open threes.
    let pos = setup("", "f8 g8 h6 h7 a1", "o1 o3 o5 o7");
    assert_eq!(
        Patterns::threat(&pos, cell(&pos, "h8"), Side::First),
        Threat::DoubleThree
    );
    assert_eq!(
        Patterns::kind(&pos, cell(&pos, "h8"), Side::First, 0),
        Kind::Flex3
    );
    // Add g8's row to a four: f8 g8 i8 with e8 blocked... e8 f8 g8 and h6 h7: h8 is four-three.
    let pos = setup("", "e8 f8 g8 h6 h7", "d8 o1 o3 o5 o7");
    assert_eq!(
        Patterns::threat(&pos, cell(&pos, "h8"), Side::First),
        Threat::FourThree
    );
}

/// The founding text: a black four blocked at one end is won for Black to move and, for
/// White to move, one cell to block.
#[test]
fn side_to_move_decides_what_a_four_is_worth() {
    let black_to_move = setup("", "e8 f8 g8 h8 a1", "d8 o1 o3 o5 o7");
    let white_to_move = setup("", "e8 f8 g8 h8 a1", "d8 o1 o3 o5");
    assert!(Patterns::default().evaluate(&black_to_move) >= 15_000);
    let v = Patterns::default().evaluate(&white_to_move);
    assert!(v.abs() < 10_000, "{v}");
    let mut moves = Vec::new();
    white_to_move.generate_moves(&mut moves);
    Patterns::default().prune_moves(&white_to_move, &mut moves);
    assert_eq!(moves, vec![cell(&white_to_move, "i8")]);
    black_to_move.generate_moves(&mut moves);
    Patterns::default().prune_moves(&black_to_move, &mut moves);
    assert_eq!(moves, vec![cell(&black_to_move, "i8")]);
}

#[test]
fn open_four_of_the_waiting_side_is_lost() {
    let pos = setup("", "e8 f8 g8 h8 a1", "o1 o3 o5 o7");
    assert!(Patterns::default().evaluate(&pos) <= -10_000);
}

/// The candidates of `pos`, by name, sorted.
fn candidate_names(pos: &Gomoku) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    Patterns::default().prune_moves(pos, &mut moves);
    let mut names: Vec<String> = moves.iter().map(|&c| pos.format_move(c)).collect();
    names.sort();
    names
}

#[test]
fn candidates_against_an_open_three() {
    // Black f8 g8 h8 with two empty cells each side; White to move, with nothing of its
    // own. Only the two ends stop it: after a far point (d8, j8) Black's other end still
    // makes an open four.
    let pos = setup("", "f8 g8 h8", "a15 o15");
    assert_eq!(candidate_names(&pos), ["e8", "i8"]);
    // Black to move against White's open three b2 b3 b4 at the edge: its answers b1, b5 and
    // b6, and Black's own fours d8, e8, i8 and j8 (with f8 g8 h8), which White must answer
    // first.
    let pos = setup("", "f8 g8 h8 c3", "b2 b3 b4 a15");
    assert_eq!(
        candidate_names(&pos),
        ["b1", "b5", "b6", "d8", "e8", "i8", "j8"]
    );
}

#[test]
fn candidates_against_a_split_three() {
    // Black f8 g8 . i8: h8 makes the open four; the far ends e8 and j8 break it too (Black's
    // h8 then makes a four blocked at one end), d8 and k8 do not.
    let pos = setup("", "f8 g8 i8", "a15 o15");
    assert_eq!(candidate_names(&pos), ["e8", "h8", "j8"]);
}

#[test]
fn candidates_against_a_four_three() {
    // Black: d8 e8 f8 blocked by White's c8 (g8 then makes a four) and g9 g10 (g8 then makes
    // an open three): g8 is a four-three point. White breaks it on g8 itself, on the four's
    // line at h8 (g8 is then no four), or on the three's at g7 or g11 (the three is then
    // blocked); g6, g12 and i8 leave it whole.
    let pos = setup("", "d8 e8 f8 g10 g9", "c8 a15 o15 o1");
    let names = candidate_names(&pos);
    assert_eq!(names, ["g11", "g7", "g8", "h8"]);
    // Every candidate breaks the four-three: after it Black has none left.
    for name in &names {
        let mut after = pos.clone();
        after.play(cell(&pos, name));
        let black_threat = Patterns::threat(&after, cell(&pos, "g8"), Side::First);
        assert!(
            !after.is_empty(cell(&pos, "g8")) || black_threat < Threat::FourThree,
            "{name}: {black_threat:?}"
        );
    }
}

#[test]
fn candidates_where_rules_need_more_than_the_codes() {
    // Under caro a stone beyond a five-cell can defend, and under renju a White stone can
    // make Black's point forbidden: against those threats every cell near the stones stays.
    for spec in ["caro", "renju"] {
        let pos = setup(spec, "f8 g8 h8", "a15 o15");
        let names = candidate_names(&pos);
        assert!(names.len() > 10, "{spec}: {names:?}");
    }
    // Under renju Black answering White's open three is restricted as under freestyle.
    let pos = setup("renju", "a1 o15 a15 h2", "f8 g8 h8 o1");
    assert_eq!(candidate_names(&pos), ["e8", "i8"]);
}

#[test]
fn candidates_generated_directly_equal_generated_then_pruned() {
    let mut rng = SplitMix64::new(11);
    let (mut direct, mut pruned) = (Vec::new(), Vec::new());
    for spec in ["", "renju", "standard", "caro:9", "7"] {
        for _ in 0..10 {
            let mut pos = Gomoku::variant(spec).unwrap();
            while pos.outcome().is_none() {
                assert!(Patterns::default().candidates(&pos, &mut direct));
                pos.generate_moves(&mut pruned);
                Patterns::default().prune_moves(&pos, &mut pruned);
                assert_eq!(direct, pruned, "{}", pos.to_text());
                pos.play(pruned[rng.below(pruned.len())]);
            }
        }
    }
}

#[test]
fn candidates_on_the_empty_board_and_never_none() {
    let pos = Gomoku::start();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    Patterns::default().prune_moves(&pos, &mut moves);
    assert_eq!(moves, vec![cell(&pos, "h8")]);
    let mut rng = SplitMix64::new(7);
    for spec in ["", "renju", "standard", "caro:9"] {
        for _ in 0..20 {
            let mut pos = Gomoku::variant(spec).unwrap();
            while pos.outcome().is_none() {
                pos.generate_moves(&mut moves);
                let all = moves.clone();
                Patterns::default().prune_moves(&pos, &mut moves);
                assert!(!moves.is_empty(), "{pos:?}");
                assert!(moves.iter().all(|m| all.contains(m)));
                let v = Patterns::default().evaluate(&pos);
                assert!(v.abs() <= Score::MAX_HEURISTIC, "{v}");
                let mut noisy = Vec::new();
                Patterns::default().noisy_moves(&pos, &mut noisy);
                assert!(noisy.iter().all(|m| all.contains(m)), "{pos:?}");
                pos.play(all[rng.below(all.len())]);
            }
        }
    }
}

#[test]
fn noisy_moves_are_fives_then_blocks_then_fours() {
    let pos = setup("", "e8 f8 g8 h8 a1", "d8 o1 o3 o5 o7");
    let mut noisy = Vec::new();
    Patterns::default().noisy_moves(&pos, &mut noisy);
    assert_eq!(noisy, vec![cell(&pos, "i8")]);
    let pos = setup("", "e8 f8 g8 h8 a1", "d8 o1 o3 o5");
    Patterns::default().noisy_moves(&pos, &mut noisy);
    assert_eq!(noisy, vec![cell(&pos, "i8")]);
    // Black f8 g8 h8 (open three), Black to move: fours only (e8, i8 open fours; d8, j8 fours).
    let pos = setup("", "f8 g8 h8 a1", "o1 o3 o5 o7");
    Patterns::default().noisy_moves(&pos, &mut noisy);
    assert_eq!(noisy.len(), 4, "{noisy:?}");
}

/// Against a five threatened by the last stone the side to move may not stand pat and the
/// search extends; not against a three, and not once the four is blocked. Quiescence's
/// moves halve at each ply, to none from its fourth: two fours and their blocks.
#[test]
fn a_threatened_five_is_forcing() {
    let mut pos = setup("", "e8 f8 g8 a1", "d8 o1 o3 o5");
    assert!(Patterns::default().may_stand_pat(&pos) && !Patterns::default().extend(&pos));
    pos.play(cell(&pos, "h8"));
    assert!(!Patterns::default().may_stand_pat(&pos) && Patterns::default().extend(&pos));
    pos.play(cell(&pos, "i8"));
    assert!(Patterns::default().may_stand_pat(&pos) && !Patterns::default().extend(&pos));
    // Caro: e8-i8 with d8 and j8 both White is no five, so the four e8-h8 with d8 White
    // threatens nothing once j8 is White too.
    let mut caro = setup("caro", "e8 f8 g8 a1", "d8 j8 o3 o5");
    caro.play(cell(&caro, "h8"));
    assert!(Patterns::default().may_stand_pat(&caro));
    let limits: Vec<_> = (0..10)
        .map(|q| Patterns::default().noisy_limit(q))
        .collect();
    let expected = [8, 4, 2, 1, 0, 0, 0, 0, 0, 0].map(Some);
    assert_eq!(limits, expected);
}

/// `patterns` reads its weights from a file when given one, and names a bad file's fault.
#[test]
fn patterns_weights_from_a_file() {
    struct Eval(Gomoku);
    impl duel_core::EvaluatorVisitor<Gomoku> for Eval {
        type Output = i32;
        fn visit<E: Evaluator<Gomoku>>(self, eval: E) -> i32 {
            eval.evaluate(&self.0)
        }
    }
    let pos = setup("", "h8 i8", "h9");
    let dir = std::env::temp_dir().join(format!("duel-gomoku-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doubled = dir.join("doubled.txt");
    let mut w = duel_gomoku::PatternWeights::committed().clone();
    for i in 0..duel_gomoku::weights::N_FEATURES {
        w.set(i, w.get(i).map(|v| 2 * v));
    }
    std::fs::write(&doubled, w.to_text("doubled")).unwrap();
    let built_in = Gomoku::with_evaluator("patterns", None, Eval(pos.clone())).unwrap();
    let from_file = Gomoku::with_evaluator("patterns", Some(&doubled), Eval(pos.clone())).unwrap();
    assert!(
        (from_file - 2 * built_in).abs() <= 1,
        "{built_in} {from_file}"
    );
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "kind.block1 1 2\n").unwrap();
    let err = Gomoku::with_evaluator("patterns", Some(&bad), Eval(pos.clone())).unwrap_err();
    assert!(
        err.to_string().contains("no weight for kind.flex1"),
        "{err}"
    );
    assert!(Gomoku::with_evaluator("textbook", Some(&bad), Eval(pos)).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
