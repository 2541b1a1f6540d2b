//! The founding text's evaluator: its features, the linear combination and the corner rule.

use duel_core::{Evaluator, Game, Score, Side};
use duel_othello::bitboard::{CORNERS, X_SQUARES};
use duel_othello::{Feature, Move, Othello, Textbook, SQUARE_WEIGHTS, WEIGHTS};

fn pos(text: &str) -> Othello {
    Othello::from_text(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The board mirrored and rotated: the eight symmetries of the square.
fn symmetries(p: &Othello) -> Vec<Othello> {
    let text = p.to_text();
    let cells: Vec<char> = text[..64].chars().collect();
    let side = &text[65..];
    type Map = fn(usize, usize) -> (usize, usize);
    let maps: [Map; 8] = [
        |f, r| (f, r),
        |f, r| (7 - f, r),
        |f, r| (f, 7 - r),
        |f, r| (7 - f, 7 - r),
        |f, r| (r, f),
        |f, r| (7 - r, f),
        |f, r| (r, 7 - f),
        |f, r| (7 - r, 7 - f),
    ];
    maps.iter()
        .map(|m| {
            let mut out = vec!['-'; 64];
            for (sq, &c) in cells.iter().enumerate() {
                let (f, r) = m(sq % 8, sq / 8);
                out[r * 8 + f] = c;
            }
            pos(&format!("{} {side}", out.iter().collect::<String>()))
        })
        .collect()
}

fn sample_positions() -> Vec<Othello> {
    let mut out: Vec<Othello> = crate::common::ffo("ffo-1-39.txt", 1, 39)
        .into_iter()
        .map(|c| c.pos)
        .collect();
    out.extend(
        crate::common::ffo("ffo-40-59.txt", 40, 59)
            .into_iter()
            .map(|c| c.pos),
    );
    out.push(Othello::start());
    out
}

/// The text's five features computed from the squares one by one, as a reader would count
/// them on the board: a reference written apart from the evaluator's bitboard code. Values are
/// from the side to move: ours minus theirs.
fn features_by_scanning(p: &Othello) -> [i32; 5] {
    let (ours, theirs) = (p.player(), p.opponent());
    let at = |bb: u64, f: i32, r: i32| {
        (0..8).contains(&f) && (0..8).contains(&r) && bb >> (r * 8 + f) & 1 == 1
    };
    let empty =
        |f: i32, r: i32| (0..8).contains(&f) && (0..8).contains(&r) && !at(ours | theirs, f, r);
    // A move: an empty square from which some direction runs over their discs to one of ours.
    let can_move = |me: u64, them: u64, f: i32, r: i32| {
        empty(f, r)
            && (-1..=1)
                .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
                .any(|(df, dr)| {
                    if (df, dr) == (0, 0) {
                        return false;
                    }
                    let (mut x, mut y, mut run) = (f + df, r + dr, 0);
                    while at(them, x, y) {
                        x += df;
                        y += dr;
                        run += 1;
                    }
                    run > 0 && at(me, x, y)
                })
    };
    let next_to = |bb: u64, f: i32, r: i32| {
        (-1..=1).any(|df| (-1..=1).any(|dr| (df, dr) != (0, 0) && at(bb, f + df, r + dr)))
    };
    let (mut squares, mut mobility, mut corners, mut potential, mut discs) = (0, 0, 0, 0, 0);
    for r in 0..8 {
        for f in 0..8 {
            let w = SQUARE_WEIGHTS[(r * 8 + f) as usize];
            let corner = (f == 0 || f == 7) && (r == 0 || r == 7);
            if at(ours, f, r) {
                squares += w;
                corners += i32::from(corner);
                discs += 1;
            } else if at(theirs, f, r) {
                squares -= w;
                corners -= i32::from(corner);
                discs -= 1;
            } else {
                mobility += i32::from(can_move(ours, theirs, f, r));
                mobility -= i32::from(can_move(theirs, ours, f, r));
                potential += i32::from(next_to(theirs, f, r));
                potential -= i32::from(next_to(ours, f, r));
            }
        }
    }
    [squares, mobility, corners, potential, discs]
}

#[test]
fn evaluation_is_the_weighted_sum_of_the_features() {
    let eval = Textbook::default();
    assert_eq!(eval.name(), "textbook");
    // The text's weights, as it gives them: square table 1, mobility 10, corners 50,
    // potential mobility 3, discs 1.
    let text_weights = [1, 10, 50, 3, 1];
    assert_eq!(WEIGHTS.map(|(_, w)| w), text_weights);
    for p in sample_positions() {
        let counted = features_by_scanning(&p);
        let by_feature: Vec<i32> = Feature::ALL.iter().map(|f| f.value(&p)).collect();
        assert_eq!(by_feature, counted, "{}", p.to_text());
        let sum: i32 = counted.iter().zip(text_weights).map(|(v, w)| v * w).sum();
        assert_eq!(eval.evaluate(&p), sum, "{}", p.to_text());
        assert!(eval.evaluate(&p).abs() <= Score::MAX_HEURISTIC);
    }
}

#[test]
fn features_counted_by_hand() {
    // Black: a1 (corner), b2 (X-square), d4. White: e5, h8 (corner). Black to move.
    let mut cells = ['-'; 64];
    for (sq, c) in [(0, 'X'), (9, 'X'), (27, 'X'), (36, 'O'), (63, 'O')] {
        cells[sq] = c;
    }
    let text = format!("{} X", cells.iter().collect::<String>());
    let p = pos(&text);
    let value = |f: Feature| f.value(&p);
    assert_eq!(value(Feature::SquareWeights), (100 - 50 - 1) - (-1 + 100));
    assert_eq!(value(Feature::Corners), 0);
    assert_eq!(value(Feature::Discs), 1);
    // Black's moves: only f6 (over e5). White's moves: c3 (over d4) and... a1-b2 has no white
    // beyond, so c3 only.
    assert_eq!(p.moves_bb().count_ones(), 1);
    assert_eq!(p.opponent_moves_bb().count_ones(), 1);
    assert_eq!(value(Feature::Mobility), 0);
    // Empties next to white's discs: 7 round e5 (d4 is taken) + 3 round h8 = 10. Next to
    // black's: b1 a2 round a1; c1 c2 a3 b3 c3 more round b2; d3 e3 c4 e4 c5 d5 more round d4.
    assert_eq!(value(Feature::PotentialMobility), 10 - 13);
}

#[test]
fn symmetric_and_antisymmetric() {
    let eval = Textbook::default();
    for p in sample_positions() {
        let v = eval.evaluate(&p);
        for s in symmetries(&p) {
            assert_eq!(eval.evaluate(&s), v, "{}", s.to_text());
        }
        // The same board with the other side to move: every feature changes sign.
        let other = match p.side_to_move() {
            Side::First => Side::Second,
            Side::Second => Side::First,
        };
        let flipped = Othello::from_bitboards(p.opponent(), p.player(), other).unwrap();
        assert_eq!(eval.evaluate(&flipped), -v);
    }
}

#[test]
fn corners_high_x_squares_low() {
    let (max, min) = (SQUARE_WEIGHTS.iter().max(), SQUARE_WEIGHTS.iter().min());
    for (sq, w) in SQUARE_WEIGHTS.iter().enumerate() {
        let bit = 1u64 << sq;
        if bit & CORNERS != 0 {
            assert_eq!(Some(w), max);
        }
        if bit & X_SQUARES != 0 {
            assert_eq!(Some(w), min);
        }
    }
}

/// The text's ordering rule: after the opponent plays b2, the corner a1 behind it comes first.
#[test]
fn corner_right_after_the_x_square() {
    // c3 black, d4 white, e5 black; white to move plays b2 (flipping c3), then a1 takes the
    // whole diagonal for black.
    let mut cells = ['-'; 64];
    for (sq, c) in [(18, 'X'), (27, 'O'), (36, 'X')] {
        cells[sq] = c;
    }
    let mut p = pos(&format!("{} O", cells.iter().collect::<String>()));
    let b2 = p.parse_move("b2").unwrap();
    let eval = Textbook::default();
    assert!(eval.move_hint(&p, b2) < 0, "X-squares are tried late");
    p.play(b2);
    let a1 = p.parse_move("a1").unwrap();
    assert_eq!(eval.move_hint(&p, a1), duel_othello::CORNER_AFTER_X_HINT);
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let first = moves
        .iter()
        .max_by_key(|&&m| eval.move_hint(&p, m))
        .unwrap();
    assert_eq!(*first, a1);
    // The same position set up from text has no last move: a1 is just a corner.
    let fresh = pos(&p.to_text());
    assert_eq!(
        eval.move_hint(&fresh, a1),
        SQUARE_WEIGHTS[0] * duel_othello::HINT_SCALE
    );
    assert_eq!(eval.move_hint(&fresh, Move::PASS), 0);
}
