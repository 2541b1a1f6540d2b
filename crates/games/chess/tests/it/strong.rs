//! Strong's contract: colour symmetry, evaluation equal to features · weights, the committed
//! weights' sanity, and (ignored by default) its speed.

use std::hint::black_box;
use std::time::Instant;

use duel_chess::endgame::scales as eg_scales;
use duel_chess::strong::{blend, feature_name, features, phase, Weights, N_FEATURES};
use duel_chess::{Chess, Pst, Strong};
use duel_core::{Evaluator, Game, SplitMix64};

use crate::common::positions;

/// Weights with every feature set, so that a sign or index slip anywhere shows.
fn random_weights(seed: u64) -> Weights {
    let mut rng = SplitMix64::new(seed);
    let mut w = Weights::zero();
    for i in 0..N_FEATURES {
        w.set(
            i,
            [rng.below(201) as i32 - 100, rng.below(201) as i32 - 100],
        );
    }
    w
}

#[test]
fn colour_flipped_positions_evaluate_the_same() {
    let evals = [
        Strong::default(),
        Strong::new(random_weights(1)),
        Strong::new(Weights::hand()),
    ];
    for pos in positions() {
        let fen = pos.to_text();
        let m = Chess::from_text(&duel_chess::mirror_fen(&fen))
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        for e in &evals {
            assert_eq!(e.evaluate(&pos), e.evaluate(&m), "{fen}");
        }
    }
}

#[test]
fn evaluation_is_features_times_weights() {
    let mut f = Vec::new();
    for w in [Weights::committed().clone(), random_weights(2)] {
        let strong = Strong::new(w.clone());
        for pos in positions() {
            features(&pos, &mut f);
            let (mut mg, mut eg) = (0, 0);
            for &(i, c) in &f {
                let [wm, we] = w.get(usize::from(i));
                mg += wm * i32::from(c);
                eg += we * i32::from(c);
            }
            let white = blend(mg, eg, phase(&pos), eg_scales(pos.board()));
            assert_eq!(strong.white_value(&pos), white, "{}", pos.to_text());
            let stm = if pos.board().side_to_move() == cozy_chess::Color::White {
                white
            } else {
                -white
            };
            assert_eq!(strong.evaluate(&pos), stm);
        }
    }
}

/// The fit starts from Pst's values: in this form they must give exactly Pst's evaluation,
/// except in the drawish endings Strong scales down (a rule, not a weight).
#[test]
fn hand_weights_are_pst() {
    let hand = Strong::new(Weights::hand());
    let mut compared = 0;
    for pos in positions() {
        if eg_scales(pos.board()) != [64, 64] {
            continue;
        }
        compared += 1;
        assert_eq!(hand.evaluate(&pos), Pst.evaluate(&pos), "{}", pos.to_text());
    }
    assert!(compared > 5000, "{compared}");
}

#[test]
fn a_queen_up_is_winning_and_the_start_is_level() {
    let s = Strong::default();
    // White has an extra queen; both sides to move.
    for fen in [
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1",
    ] {
        let pos = Chess::from_text(fen).unwrap();
        assert!(s.white_value(&pos) > 700, "{fen}: {}", s.white_value(&pos));
    }
    // Level but for the move: the side to move has the same (small, positive) edge either way.
    let start = s.evaluate(&Chess::start());
    let black_to_move = Chess::from_text(&duel_chess::START_FEN.replace(" w ", " b ")).unwrap();
    assert_eq!(s.evaluate(&black_to_move), start);
    assert!((0..=40).contains(&start), "{start}");
    assert_eq!(s.name(), "strong");
}

#[test]
fn committed_weights_are_sane_and_round_trip() {
    let w = Weights::committed();
    let named = |n: &str| w.get((0..N_FEATURES).find(|&i| feature_name(i) == n).unwrap());
    let [pawn_mg, pawn_eg] = named("material.pawn");
    // A pawn is worth less in the middlegame; the fits so far gave 79 to 88.
    assert!((60..=130).contains(&pawn_mg), "pawn mg {pawn_mg}");
    assert!(pawn_eg > 60, "pawn eg {pawn_eg}");
    let order = [
        "material.pawn",
        "material.knight",
        "material.rook",
        "material.queen",
    ];
    for pair in order.windows(2) {
        assert!(named(pair[0])[0] < named(pair[1])[0], "{pair:?}");
    }
    assert_eq!(&Weights::parse(&w.to_text("a comment")).unwrap(), w);
    assert!(
        Weights::parse("material.pawn 100 100").is_err(),
        "incomplete"
    );
    assert!(Weights::parse("no.such 1 2").is_err());
    assert!(Weights::parse("material.pawn x 2").is_err());
}

/// `cargo test --release -p duel-chess --test it strong:: -- --ignored --nocapture`
#[test]
#[ignore]
fn speed() {
    let positions = positions();
    let strong = Strong::default();
    for (name, f) in [
        ("strong", &|p: &Chess| strong.evaluate(p) as i64 as f64),
        ("pst", &|p: &Chess| Pst.evaluate(p) as i64 as f64),
    ] as [(&str, &dyn Fn(&Chess) -> f64); 2]
    {
        let rounds = 50;
        let start = Instant::now();
        let mut sum = 0.0;
        for _ in 0..rounds {
            for p in &positions {
                sum += f(black_box(p));
            }
        }
        black_box(sum);
        let n = (rounds * positions.len()) as f64;
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {:.2} M evals/s ({:.0} ns each, {n} evaluations)",
            n / secs / 1e6,
            secs / n * 1e9
        );
    }
}

/// The White-minus-Black count of the feature called `name` in `fen`.
fn count(fen: &str, name: &str) -> i32 {
    let pos = Chess::from_text(fen).unwrap();
    let mut f = Vec::new();
    features(&pos, &mut f);
    let index = (0..N_FEATURES)
        .find(|&i| feature_name(i) == name)
        .unwrap_or_else(|| panic!("no feature {name}"));
    f.iter()
        .find(|&&(i, _)| usize::from(i) == index)
        .map_or(0, |&(_, c)| i32::from(c))
}

/// Hand-checked positions for the pawn, outpost, threat, tempo and king-danger terms.
#[test]
fn features_count_what_they_name() {
    // A knight on d5 defended by the c4 pawn, no black pawn to chase it; c4 passed, its path
    // free; the stop square c5 is 4 king moves from e1 and 3 from e8.
    let fen = "4k3/8/8/3N4/2P5/8/8/4K3 w - - 0 1";
    assert_eq!(count(fen, "outpost.knight"), 1);
    assert_eq!(count(fen, "pawn.passed.rank4"), 1);
    assert_eq!(count(fen, "pawn.passed.free.rank4"), 1);
    assert_eq!(count(fen, "pawn.passed.own_king.rank4"), 4);
    assert_eq!(count(fen, "pawn.passed.their_king.rank4"), 3);
    assert_eq!(count(fen, "tempo"), 1);
    assert_eq!(count(&fen.replace(" w ", " b "), "tempo"), -1);
    // A black pawn on c6 blocks the path and takes the outpost away (it can attack d5).
    let fen = "4k3/8/2p5/3N4/2P5/8/8/4K3 w - - 0 1";
    assert_eq!(count(fen, "outpost.knight"), 0);
    assert_eq!(count(fen, "pawn.passed.free.rank4"), 0);
    // d3 has both neighbours ahead of it and e5 covers d4: backward; it defends c4 and e4.
    let fen = "4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1";
    assert_eq!(count(fen, "pawn.backward"), 1);
    assert_eq!(count(fen, "pawn.supported"), 2);
    assert_eq!(count(fen, "pawn.isolated"), -1);
    assert_eq!(count("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", "pawn.phalanx"), 2);
    // The e4 pawn attacks the queen; the queen is hit by the knight too; the rook hits nothing.
    let fen = "4k3/8/8/3q4/4PN2/8/8/R3K3 w - - 0 1";
    assert_eq!(count(fen, "threat.by_pawn"), 1);
    assert_eq!(count(fen, "threat.by_minor"), 1);
    assert_eq!(count(fen, "threat.by_rook"), 0);
    // Queen (5 units) and rook (3) both on the king's zone: two attackers, 8 units.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3RQ1K1 w - - 0 1";
    assert_eq!(count(fen, "king.danger.attackers2"), 0);
    let fen = "6k1/5ppp/8/6Q1/8/8/5PPP/3R2K1 w - - 0 1";
    assert_eq!(count(fen, "king.danger.attackers1"), 5);
    let fen = "6k1/6pp/8/6Q1/8/8/6PP/5RK1 w - - 0 1";
    assert_eq!(count(fen, "king.danger.attackers2"), 8);
    // Checks ready against the king on g8 (guarded by its g7 pawn). The knight on d5
    // reaches e7 and f6, both knight checks, but g7 covers f6; the rook on c1 reaches c8 on
    // the eighth rank; the bishop on a1 sees the long diagonal up to g7, where no bishop
    // checks from.
    let fen = "6k1/6p1/8/3N4/8/8/8/B1R1K3 w - - 0 1";
    assert_eq!(count(fen, "king.check.knight"), 1, "e7");
    assert_eq!(count(fen, "king.check.rook"), 1, "c8");
    assert_eq!(count(fen, "king.check.bishop"), 0);
    // Storm, for White's king on g1: black pawns on h3 (two ranks in front) and f4 (three).
    let fen = "4k3/pp6/8/8/5p2/7p/8/6K1 w - - 0 1";
    assert_eq!(count(fen, "king.storm.1"), 0);
    assert_eq!(count(fen, "king.storm.2"), 1);
    assert_eq!(count(fen, "king.storm.3"), 1);
    // White has no pawn on f, g or h (3 open files); Black's f4 pawn leaves d and e (2).
    assert_eq!(count(fen, "king.open_files"), 1);
    let fen = "4k3/3ppp2/8/8/8/8/8/6K1 w - - 0 1";
    assert_eq!(count(fen, "king.open_files"), 3);
    // The checks ready above are also safe: nothing of Black's hits e7 or c8.
    let fen = "6k1/6p1/8/3N4/8/8/8/B1R1K3 w - - 0 1";
    assert_eq!(count(fen, "king.safe_check.knight"), 1, "e7");
    assert_eq!(count(fen, "king.safe_check.rook"), 1, "c8");
    // The rook hits the undefended knight on d5 (the knight hits nothing); with the e6 pawn
    // defending it, nothing hangs.
    assert_eq!(
        count("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "threat.hanging"),
        1
    );
    assert_eq!(
        count("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", "threat.hanging"),
        0
    );
    // White's king takes aim at the lone d2 pawn, which no black pawn defends.
    let fen = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1";
    assert_eq!(count(fen, "threat.by_king"), 1);
    assert_eq!(count(fen, "threat.weak_pawn"), 1);
    // d4 is passed: blocked by the knight on d5, or free to advance safely without it.
    assert_eq!(
        count(
            "4k3/8/8/3n4/3P4/8/8/4K3 w - - 0 1",
            "pawn.passed.blocked.rank4"
        ),
        1
    );
    let fen = "4k3/8/8/8/3P4/8/8/4K3 w - - 0 1";
    assert_eq!(count(fen, "pawn.passed.blocked.rank4"), 0);
    assert_eq!(count(fen, "pawn.passed.safe.rank4"), 1);
    // The king on e6 guards d5: the advance is no longer safe.
    assert_eq!(
        count("8/8/4k3/8/3P4/8/8/4K3 w - - 0 1", "pawn.passed.safe.rank4"),
        0
    );
    assert_eq!(
        count("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", "pawn.connected.rank4"),
        2
    );
    assert_eq!(count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "rook.seventh"), 1);
    assert_eq!(count("3k4/8/R7/8/8/8/8/4K3 w - - 0 1", "rook.seventh"), 0);
    // The c1 bishop and the b2 pawn are both on dark squares, the a2 pawn on a light one.
    let fen = "4k3/8/8/8/8/8/PP6/2B1K3 w - - 0 1";
    assert_eq!(count(fen, "bishop.same_colour_pawns"), 1);
    // The knight on d2 stands behind the d3 pawn, next to its king.
    let fen = "4k3/8/8/8/8/3P4/3N4/4K3 w - - 0 1";
    assert_eq!(count(fen, "minor.behind_pawn"), 1);
    assert_eq!(count(fen, "king.defenders"), 1);
    // To the a2 pawn: 4 king moves from e1, 6 from e8.
    assert_eq!(
        count("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "king.pawn_distance"),
        -2
    );
    // d2-d3 would hit the knight on c4.
    assert_eq!(
        count("4k3/8/8/8/2n5/8/3P4/4K3 w - - 0 1", "threat.pawn_push"),
        1
    );
    // White's twelve squares of c-f on ranks 2-4 against Black's eight (c7-f7 hold pawns).
    assert_eq!(count("4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", "space"), 4);
}

/// Strong's search hooks are Pst's (they depend on the rules and material only): a hook
/// Strong forgot to pass on would fall back to the trait's default and switch a search
/// feature off unseen.
#[test]
fn search_hooks_are_pst_s() {
    let strong = Strong::default();
    let (mut a, mut b, mut moves) = (Vec::new(), Vec::new(), Vec::new());
    for pos in positions().iter().step_by(7) {
        strong.noisy_moves(pos, &mut a);
        Pst.noisy_moves(pos, &mut b);
        assert_eq!(a, b, "{}", pos.to_text());
        assert_eq!(strong.null_move_ok(pos), Pst.null_move_ok(pos));
        assert_eq!(strong.extend(pos), Pst.extend(pos));
        pos.generate_moves(&mut moves);
        for &m in &moves {
            assert_eq!(strong.move_hint(pos, m), Pst.move_hint(pos, m));
            for t in [-500, -100, 0, 100, 500] {
                assert_eq!(
                    strong.exchange_at_least(pos, m, t),
                    Pst.exchange_at_least(pos, m, t),
                    "{} {m} {t}",
                    pos.to_text()
                );
            }
        }
    }
}

#[test]
fn drawish_endings_are_scaled() {
    let scales = |fen: &str| eg_scales(Chess::from_text(fen).unwrap().board());
    // Rook against bishop, no pawns: the rook keeps an eighth, and the bishop, which cannot
    // mate, nothing.
    assert_eq!(scales("4k3/8/8/8/8/8/4b3/R3K3 w - - 0 1"), [8, 0]);
    // A rook pawn and the wrong bishop against the cornered king: nothing either.
    assert_eq!(scales("7k/8/7P/5BK1/8/8/8/8 b - - 0 1"), [0, 0]);
    // A queen against a rook still wins.
    assert_eq!(scales("4k3/8/8/8/8/8/4r3/Q3K3 w - - 0 1"), [64, 8]);
    // Bishops on opposite colours (f8 dark, d1 light) with pawns, none passed: a quarter.
    assert_eq!(scales("4kb2/p7/8/8/8/8/P7/3BK3 w - - 0 1"), [16, 16]);
    // The same colour: no scaling.
    assert_eq!(scales("4kb2/p7/8/8/8/8/P7/2B1K3 w - - 0 1"), [64, 64]);
    assert_eq!(scales(duel_chess::START_FEN), [64, 64]);
}
