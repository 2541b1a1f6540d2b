//! [`Strong`], duel's fitted xiangqi evaluation: linear in its weights, so that a logistic fit
//! on game results (Texel's method, `duel-train xiangqi-fit`) finds them by gradient descent,
//! as chess's Strong is made.
//!
//! The value is tapered: `(mg·phase + eg·(32 − phase)) / 32`, with the phase counted from the
//! chariots (4 each), horses and cannons (2 each) on the board. `mg = Σ w_mg[i]·x[i]` and
//! `eg = Σ w_eg[i]·x[i]` over integer features `x`, each counted for Red minus the same count
//! for Black, points seen from each side's own back rank and folded onto the left half of the
//! board (xiangqi is left-right symmetric, so a table needs 50 points, not 90).
//!
//! The features: material; piece-square tables; the mobility of horses, chariots and cannons
//! (a table by number of moves: a horse's unblocked jumps, a chariot's points up to and onto
//! an enemy piece, a cannon's slides and its capture over a screen); horse steps blocked at
//! the leg and elephant steps blocked at the eye; king safety: missing advisors and elephants
//! times the enemy's attacking pieces, cannons on the enemy general's file by the number of
//! pieces between (none: the "hollow" central cannon; two: a screen away from a check), a
//! cannon on the general's back rank, the palace points each attacking kind reaches, and a
//! general whose file has nothing of its own in front; crossed soldiers side by side; enemy
//! pieces attacked and not defended, and enemy chariots attacked by lesser pieces; a tempo
//! for the side to move.
//!
//! [`features`] lists a position's features sparsely for the fitter; [`Strong::evaluate`]
//! walks the same code with an accumulator in place of the list ([`duel_core::features`]), so
//! the two cannot disagree.

use std::sync::{Arc, OnceLock};

use duel_core::features::{sparse, Sink, Weighted};
use duel_core::weights::Pairs;
use duel_core::{Evaluator, Side};

use crate::board::{file_of, points, rank_of, Board, Kind, Reach, Square, FILES};
use crate::eval::{hand_table, PIECE_VALUES};
use crate::{Material, Move, Xiangqi};

/// Phase weight per kind (general .. soldier).
const PHASE_WEIGHTS: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
/// The phase with every chariot, horse and cannon on the board.
pub const PHASE_MAX: i32 = 32;

/// Points of a folded table: 10 ranks of 5 files (a to e; i to f fold onto them).
const TABLE: usize = 50;

// Feature indices. Each block's size is its table's length.
const MATERIAL: usize = 0; // advisor, elephant, horse, chariot, cannon, soldier
const PST: usize = MATERIAL + 6; // 7 kinds × 50 points
/// Mobility tables (horse, chariot, cannon): one weight per number of moves.
const MOBILITY_SIZES: [usize; 3] = [9, 18, 18];
const MOBILITY: [usize; 3] = [
    PST + 7 * TABLE,
    PST + 7 * TABLE + MOBILITY_SIZES[0],
    PST + 7 * TABLE + MOBILITY_SIZES[0] + MOBILITY_SIZES[1],
];
const HORSE_BLOCKED: usize = MOBILITY[2] + MOBILITY_SIZES[2];
const ELEPHANT_BLOCKED: usize = HORSE_BLOCKED + 1;
/// Advisors missing (0 to 2) times the enemy's chariots, horses and cannons; then elephants.
const ADVISORS_MISSING: usize = ELEPHANT_BLOCKED + 1;
const ELEPHANTS_MISSING: usize = ADVISORS_MISSING + 1;
/// Our cannons on the enemy general's file, by the pieces between: 0, 1, 2, 3 or more.
const CANNON_FILE: usize = ELEPHANTS_MISSING + 1;
/// Our cannons on the enemy general's rank with at most one piece between.
const CANNON_RANK: usize = CANNON_FILE + 4;
/// Enemy palace points reached by our horses, chariots, cannons.
const PALACE_ATTACK: usize = CANNON_RANK + 1;
/// Our general's file holds no piece of ours in front of it.
const KING_OPEN_FILE: usize = PALACE_ATTACK + 3;
/// Crossed soldiers with a crossed soldier of ours beside them.
const PAWN_LINKED: usize = KING_OPEN_FILE + 1;
/// Enemy pieces (not the general) we attack that nothing of theirs defends.
const THREAT_HANGING: usize = PAWN_LINKED + 1;
/// Enemy chariots our other pieces attack.
const THREAT_CHARIOT: usize = THREAT_HANGING + 1;
const TEMPO: usize = THREAT_CHARIOT + 1;
/// The number of features (and of weight pairs).
pub const N_FEATURES: usize = TEMPO + 1;

const KIND_NAMES: [&str; 7] = [
    "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
];
const MOBILE: [&str; 3] = ["horse", "chariot", "cannon"];

/// `side`'s view of a point: ranks from its own back rank, files folded onto a to e.
fn folded(sq: Square, side: Side) -> usize {
    let (f, r) = (file_of(sq), rank_of(sq));
    let r = if side == Side::First { r } else { 9 - r };
    usize::from(r) * 5 + usize::from(f.min(FILES - 1 - f))
}

/// The feature of kind `kind` (0 = general .. 6 = soldier) on folded point `p` (rank · 5 +
/// file, from its own side) in the piece-square tables.
pub fn pst_feature(kind: usize, p: usize) -> usize {
    PST + kind * TABLE + p
}

/// The palace points of `side`.
const fn palace(side: usize) -> u128 {
    let mut m = 0u128;
    let base = if side == 0 { 0 } else { 7 };
    let mut r = 0;
    while r < 3 {
        let mut f = 3;
        while f < 6 {
            m |= 1u128 << ((base + r) * 9 + f);
            f += 1;
        }
        r += 1;
    }
    m
}
const PALACES: [u128; 2] = [palace(0), palace(1)];

/// The phase: [`PHASE_MAX`] with every chariot, horse and cannon on the board, 0 with none.
pub fn phase(pos: &Xiangqi) -> i32 {
    board_phase(pos.board())
}

fn board_phase(b: &Board) -> i32 {
    let side = |s| {
        b.pieces(s)
            .map(|(_, p)| PHASE_WEIGHTS[p.kind as usize])
            .sum::<i32>()
    };
    (side(Side::First) + side(Side::Second)).min(PHASE_MAX)
}

/// One side's reach, found before either side's features so that each can see the other's.
struct Reaches {
    /// Every point its pieces attack or protect.
    hits: u128,
    /// The reach of each of its pieces, by point order (16 at most).
    reach: [(Square, Kind, Reach); 16],
    n: usize,
}

impl Reaches {
    fn of(b: &Board, side: Side) -> Reaches {
        let mut s = Reaches {
            hits: 0,
            reach: [(0, Kind::King, Reach::default()); 16],
            n: 0,
        };
        for (sq, p) in b.pieces(side).take(16) {
            let r = b.reach(sq);
            s.hits |= r.hits;
            s.reach[s.n] = (sq, p.kind, r);
            s.n += 1;
        }
        s
    }

    fn pieces(&self) -> &[(Square, Kind, Reach)] {
        &self.reach[..self.n]
    }
}

/// Every feature of `side`'s pieces, signed `sign` (+1 Red, −1 Black).
fn side<S: Sink>(b: &Board, side: Side, sign: i32, sink: &mut S, ours: &Reaches, theirs: &Reaches) {
    let them = side.other();
    let own = b.occupied(side);
    let enemy = b.occupied(them);
    let (mut counts, mut attackers) = ([0i32; 7], 0);
    for &(_, kind, _) in theirs.pieces() {
        if matches!(kind, Kind::Horse | Kind::Chariot | Kind::Cannon) {
            attackers += 1;
        }
    }
    let their_king = b.king(them);
    let our_king = b.king(side);
    let enemy_palace = PALACES[them as usize];
    let (mut palace_hits, mut blocked_legs, mut blocked_eyes) = ([0i32; 3], 0, 0);
    let mut chariot_threats = 0;
    let mut crossed = 0u128;
    for &(sq, kind, r) in ours.pieces() {
        let k = kind as usize;
        counts[k] += 1;
        sink.add(pst_feature(k, folded(sq, side)), sign);
        match kind {
            Kind::Horse | Kind::Chariot | Kind::Cannon => {
                let m = k - Kind::Horse as usize;
                let moves = (r.quiet.count_ones() + (r.hits & enemy).count_ones()) as usize;
                sink.add(MOBILITY[m] + moves.min(MOBILITY_SIZES[m] - 1), sign);
                palace_hits[m] += ((r.quiet | r.hits) & enemy_palace).count_ones() as i32;
                if kind == Kind::Horse {
                    blocked_legs += r.blocked as i32;
                }
            }
            Kind::Elephant => blocked_eyes += r.blocked as i32,
            Kind::Pawn => {
                let across = if side == Side::First {
                    rank_of(sq) >= 5
                } else {
                    rank_of(sq) <= 4
                };
                if across {
                    crossed |= 1u128 << sq;
                }
            }
            _ => {}
        }
        if kind != Kind::Chariot {
            for t in points(r.hits & enemy) {
                if b.piece_at(t).is_some_and(|p| p.kind == Kind::Chariot) {
                    chariot_threats += 1;
                }
            }
        }
        if kind == Kind::Cannon {
            if let Some(k) = their_king {
                if file_of(k) == file_of(sq) {
                    let between = b.pieces_between(sq, k).unwrap_or(0).min(3) as usize;
                    sink.add(CANNON_FILE + between, sign);
                } else if rank_of(k) == rank_of(sq) && b.pieces_between(sq, k).unwrap_or(2) <= 1 {
                    sink.add(CANNON_RANK, sign);
                }
            }
        }
    }
    for (k, &n) in counts.iter().enumerate().skip(1) {
        if n > 0 {
            sink.add(MATERIAL + k - 1, sign * n);
        }
    }
    let missing = |k: Kind| 2 - counts[k as usize].min(2);
    let linked = points(crossed)
        .filter(|&sq| {
            let f = file_of(sq);
            (f > 0 && crossed & (1u128 << (sq - 1)) != 0)
                || (f < 8 && crossed & (1u128 << (sq + 1)) != 0)
        })
        .count() as i32;
    let hanging = (enemy & ours.hits & !theirs.hits & !their_king.map_or(0, |k| 1u128 << k))
        .count_ones() as i32;
    let open_file = our_king.is_some_and(|k| {
        let front = points(own).filter(|&sq| {
            file_of(sq) == file_of(k) && if side == Side::First { sq > k } else { sq < k }
        });
        front.count() == 0
    });
    for (feature, n) in [
        (HORSE_BLOCKED, blocked_legs),
        (ELEPHANT_BLOCKED, blocked_eyes),
        (ADVISORS_MISSING, missing(Kind::Advisor) * attackers),
        (ELEPHANTS_MISSING, missing(Kind::Elephant) * attackers),
        (PALACE_ATTACK, palace_hits[0]),
        (PALACE_ATTACK + 1, palace_hits[1]),
        (PALACE_ATTACK + 2, palace_hits[2]),
        (KING_OPEN_FILE, i32::from(open_file)),
        (PAWN_LINKED, linked),
        (THREAT_HANGING, hanging),
        (THREAT_CHARIOT, chariot_threats),
    ] {
        if n > 0 {
            sink.add(feature, sign * n);
        }
    }
}

fn walk<S: Sink>(b: &Board, sink: &mut S) {
    let red = Reaches::of(b, Side::First);
    let black = Reaches::of(b, Side::Second);
    side(b, Side::First, 1, sink, &red, &black);
    side(b, Side::Second, -1, sink, &black, &red);
    sink.add(TEMPO, b.side_to_move().sign());
}

/// The position's features that are not zero, as (index, Red-minus-Black count), in index
/// order; `out` is cleared first. Counts lie far inside `i8` (the largest, a mobility or
/// palace count, is under 40).
pub fn features(pos: &Xiangqi, out: &mut Vec<(u16, i8)>) {
    sparse::<N_FEATURES>(|d| walk(pos.board(), d), out);
}

/// The human-readable name of feature `index` (as the weights file spells it).
pub fn feature_name(index: usize) -> String {
    match index {
        i if i < PST => format!("material.{}", KIND_NAMES[i - MATERIAL + 1]),
        i if i < MOBILITY[0] => {
            let (k, p) = ((i - PST) / TABLE, (i - PST) % TABLE);
            let point = crate::board::square_name((p / 5 * 9 + p % 5) as Square);
            format!("pst.{}.{point}", KIND_NAMES[k])
        }
        i if i < HORSE_BLOCKED => {
            let t = (0..3).rev().find(|&t| i >= MOBILITY[t]).unwrap_or(0);
            format!("mobility.{}.{}", MOBILE[t], i - MOBILITY[t])
        }
        HORSE_BLOCKED => "horse.leg_blocked".into(),
        ELEPHANT_BLOCKED => "elephant.eye_blocked".into(),
        ADVISORS_MISSING => "king.advisors_missing_x_attackers".into(),
        ELEPHANTS_MISSING => "king.elephants_missing_x_attackers".into(),
        i if i < CANNON_RANK => format!("cannon.on_king_file.between{}", i - CANNON_FILE),
        CANNON_RANK => "cannon.on_king_rank".into(),
        i if i < KING_OPEN_FILE => format!("king.palace_attack.{}", MOBILE[i - PALACE_ATTACK]),
        KING_OPEN_FILE => "king.open_file".into(),
        PAWN_LINKED => "soldier.crossed_linked".into(),
        THREAT_HANGING => "threat.hanging".into(),
        THREAT_CHARIOT => "threat.chariot".into(),
        TEMPO => "tempo".into(),
        _ => format!("unknown.{index}"),
    }
}

/// Every feature's name, in index order.
fn names() -> Vec<String> {
    (0..N_FEATURES).map(feature_name).collect()
}

/// The largest weight [`Weights::parse`] takes, either way.
pub const MAX_WEIGHT: i32 = 10_000;

pub use duel_core::weights::WeightsError;

/// The weights: a (middlegame, endgame) pair per feature, in hundredths of a soldier
/// ([`Pairs`]' `get` and `set` through `Deref`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights(Pairs);

impl std::ops::Deref for Weights {
    type Target = Pairs;

    fn deref(&self) -> &Pairs {
        &self.0
    }
}

impl std::ops::DerefMut for Weights {
    fn deref_mut(&mut self) -> &mut Pairs {
        &mut self.0
    }
}

/// The committed, fitted weights (`weights/strong.txt`; `weights/README.md` says how they were
/// made).
const COMMITTED: &str = include_str!("../weights/strong.txt");

impl Weights {
    /// All zero.
    pub fn zero() -> Weights {
        Weights(Pairs::zero(N_FEATURES))
    }

    /// One pair per feature, in feature order; None for another number of pairs.
    pub fn from_pairs(pairs: Vec<[i32; 2]>) -> Option<Weights> {
        (pairs.len() == N_FEATURES).then(|| Weights(Pairs::from_vec(pairs)))
    }

    /// The committed fitted weights, parsed once.
    pub fn committed() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| {
            Weights::parse(COMMITTED).unwrap_or_else(|e| panic!("weights/strong.txt: {e}"))
        })
    }

    /// [`Material`]'s values in this form, every other term zero: `Strong` with these
    /// evaluates exactly as `Material` does (its tables are left-right symmetric).
    pub fn material() -> Weights {
        let mut w = Weights::zero();
        for (k, &v) in PIECE_VALUES.iter().enumerate().skip(1) {
            w.set(MATERIAL + k - 1, [v; 2]);
        }
        for k in 0..7 {
            for p in 0..TABLE {
                let v = hand_table(k, (p / 5 * 9 + p % 5) as Square);
                w.set(pst_feature(k, p), [v; 2]);
            }
        }
        w
    }

    /// Where the fit starts: [`Weights::material`] and the other terms set by hand from the
    /// game's logic. A chariot with room counts for more than one shut in, a horse more still
    /// (it is the piece a blocked leg cripples); an advisor or elephant matters more the more
    /// attackers the enemy has left; a cannon facing the general over an empty file pins the
    /// defence, one a screen away from a check threatens it; crossed soldiers side by side
    /// protect each other; an undefended piece under attack or a chariot attacked by a lesser
    /// piece usually costs material.
    pub fn hand() -> Weights {
        let mut w = Weights::material();
        let per_move = [[8, 8], [3, 4], [2, 2]];
        let typical = [4, 8, 7];
        for m in 0..3 {
            for n in 0..MOBILITY_SIZES[m] {
                let d = n as i32 - typical[m];
                w.set(MOBILITY[m] + n, [per_move[m][0] * d, per_move[m][1] * d]);
            }
        }
        for (feature, mg, eg) in [
            (HORSE_BLOCKED, -5, -5),
            (ELEPHANT_BLOCKED, -10, -5),
            (ADVISORS_MISSING, -12, -6),
            (ELEPHANTS_MISSING, -8, -4),
            (CANNON_FILE, 30, 10),
            (CANNON_FILE + 1, 10, 5),
            (CANNON_FILE + 2, 20, 5),
            (CANNON_FILE + 3, 5, 0),
            (CANNON_RANK, 15, 5),
            (PALACE_ATTACK, 8, 6),
            (PALACE_ATTACK + 1, 6, 6),
            (PALACE_ATTACK + 2, 4, 2),
            (KING_OPEN_FILE, -10, -5),
            (PAWN_LINKED, 10, 15),
            (THREAT_HANGING, 15, 15),
            (THREAT_CHARIOT, 25, 25),
            (TEMPO, 10, 10),
        ] {
            w.set(feature, [mg, eg]);
        }
        w
    }

    /// Reads `name mg eg` lines (blank lines and `#` comments skipped). Every feature must be
    /// given exactly once.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        Pairs::parse(text, &names(), MAX_WEIGHT).map(Weights)
    }

    /// The weights as [`Weights::parse`] reads them, one feature a line, after `header` (each
    /// of its lines written as a `#` comment).
    pub fn to_text(&self, header: &str) -> String {
        self.0.to_text(header, &names())
    }

    /// Red's tapered value of `board` (the side to move counts only through the tempo term).
    fn red_value(&self, b: &Board) -> i32 {
        let mut acc = Weighted::new(self.as_slice());
        walk(b, &mut acc);
        acc.sum.blend(board_phase(b), PHASE_MAX)
    }
}

/// The fitted evaluation, with weights from `weights/strong.txt` by default. Its search hooks
/// (noisy moves, move order, extensions, null-move guard) are [`Material`]'s, so that a search
/// with it differs from one with `Material` only by the values.
#[derive(Debug, Clone)]
pub struct Strong(Arc<Weights>);

/// The committed weights, shared by every `Strong::default()`.
static COMMITTED_SHARED: OnceLock<Arc<Weights>> = OnceLock::new();

impl Default for Strong {
    fn default() -> Self {
        Strong(Arc::clone(
            COMMITTED_SHARED.get_or_init(|| Arc::new(Weights::committed().clone())),
        ))
    }
}

impl Strong {
    /// Strong with other weights (the fitter's candidates, a weights file).
    pub fn new(weights: Weights) -> Strong {
        Strong(Arc::new(weights))
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.0
    }

    /// The value from Red's side, whoever is to move.
    pub fn red_value(&self, pos: &Xiangqi) -> i32 {
        self.0.red_value(pos.board())
    }
}

impl Evaluator<Xiangqi> for Strong {
    fn unit(&self) -> &'static str {
        "hundredths of a soldier as the fitted weights count it (a chariot about 1,200)"
    }

    fn name(&self) -> &'static str {
        "strong"
    }

    fn evaluate(&self, pos: &Xiangqi) -> i32 {
        self.red_value(pos) * pos.board().side_to_move().sign()
    }

    fn noisy_moves(&self, pos: &Xiangqi, moves: &mut Vec<Move>) {
        Material.noisy_moves(pos, moves);
    }

    fn move_hint(&self, pos: &Xiangqi, mv: Move) -> i32 {
        Material.move_hint(pos, mv)
    }

    fn exchange_at_least(&self, pos: &Xiangqi, mv: Move, threshold: i32) -> bool {
        Material.exchange_at_least(pos, mv, threshold)
    }

    fn extend(&self, pos: &Xiangqi) -> bool {
        Material.extend(pos)
    }

    fn null_move_ok(&self, pos: &Xiangqi) -> bool {
        Material.null_move_ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::mirror;
    use duel_core::weights::Tapered;
    use duel_core::{Game, GameInfo};

    fn pos(fen: &str) -> Xiangqi {
        Xiangqi::from_text(fen).unwrap()
    }

    /// Positions along seeded random games, and the bench positions.
    fn positions() -> Vec<Xiangqi> {
        let mut out: Vec<Xiangqi> = Xiangqi::BENCH.iter().map(|f| pos(f)).collect();
        let mut rng = duel_core::SplitMix64::new(5);
        let mut moves = Vec::new();
        for _ in 0..60 {
            let mut p = Xiangqi::start();
            for _ in 0..rng.below(100) {
                p.generate_moves(&mut moves);
                if moves.is_empty() || p.outcome().is_some() {
                    break;
                }
                p.play(moves[rng.below(moves.len())]);
            }
            out.push(pos(&p.to_text()));
        }
        out
    }

    #[test]
    fn material_weights_evaluate_as_material() {
        let strong = Strong::new(Weights::material());
        for p in positions() {
            assert_eq!(strong.evaluate(&p), Material.evaluate(&p), "{p:?}");
        }
    }

    /// From the side to move, a position and its mirror (colours swapped, ranks turned over)
    /// are worth the same; the start is worth the tempo.
    #[test]
    fn values_are_colour_symmetric() {
        let strong = Strong::new(Weights::hand());
        for p in positions() {
            let m = pos(&mirror(&p.to_text()));
            assert_eq!(strong.evaluate(&p), strong.evaluate(&m), "{p:?}");
            assert_eq!(strong.red_value(&p), -strong.red_value(&m), "{p:?}");
        }
        assert_eq!(strong.evaluate(&Xiangqi::start()), 10);
        assert_eq!(Strong::default().evaluate(&Xiangqi::start()), {
            let [mg, _] = Strong::default().weights().get(TEMPO);
            mg
        });
    }

    /// The accumulated value is the weighted sum of the listed features.
    #[test]
    fn features_agree_with_the_evaluation() {
        let w = Weights::hand();
        let mut f = Vec::new();
        for p in positions() {
            features(&p, &mut f);
            let (mut mg, mut eg) = (0, 0);
            for &(i, c) in &f {
                mg += w.get(usize::from(i))[0] * i32::from(c);
                eg += w.get(usize::from(i))[1] * i32::from(c);
            }
            let t = Tapered { mg, eg }.blend(phase(&p), PHASE_MAX);
            assert_eq!(t, Strong::new(w.clone()).red_value(&p));
        }
    }

    fn count(p: &Xiangqi, feature: usize) -> i32 {
        let mut f = Vec::new();
        features(p, &mut f);
        f.iter()
            .find(|&&(i, _)| usize::from(i) == feature)
            .map_or(0, |&(_, c)| i32::from(c))
    }

    #[test]
    fn blocked_legs_eyes_and_mobility() {
        // The red horse on b0 with its leg b1 blocked by the red chariot: two of its three
        // jumps blocked there (a2, c2), d1 free; the chariot on b1 has the rest of the rank
        // and file b up to the black horse on b9 (7 + 1 + 7 + ... ).
        let leg = pos("1n2k4/9/9/9/9/9/9/9/1R7/1N1K5 w - - 0 1");
        assert_eq!(count(&leg, HORSE_BLOCKED), 2);
        assert_eq!(count(&leg, MOBILITY[0] + 1), 1);
        // The black horse on b9 has a7, c7 and d8: three moves, counted against Red.
        assert_eq!(count(&leg, MOBILITY[0] + 3), -1);
        // Chariot on b1: a1, c1..i1 (8), b2..b8 (7), takes b9: 16.
        assert_eq!(count(&leg, MOBILITY[1] + 16), 1);
        // The elephant on e2 with its eye d3 blocked.
        let eye = pos("4k4/9/9/9/9/2B6/3N5/4B4/9/3K5 w - - 0 1");
        // (and the one on c4 towards e2, over the same eye).
        assert_eq!(count(&eye, ELEPHANT_BLOCKED), 2);
        // A cannon's moves: the slides, and the capture over the screen only.
        let cannon = pos("4k4/9/9/9/9/9/9/9/9/C1n2K3 w - - 0 1");
        // a1..a9 (9) and b0; over the screen on c0 stands its own general: 10.
        assert_eq!(count(&cannon, MOBILITY[2] + 10), 1);
    }

    #[test]
    fn central_cannons_and_open_files() {
        // A red cannon on e2 facing the black general on e9 over an empty file.
        let hollow = pos("3k5/9/9/9/9/9/9/4C4/9/5K3 b - - 0 1");
        assert_eq!(count(&hollow, CANNON_FILE), 0);
        let hollow = pos("4k4/9/9/9/9/9/9/4C4/9/3K5 b - - 0 1");
        assert_eq!(count(&hollow, CANNON_FILE), 1);
        let two = pos("4k4/4a4/9/4p4/9/9/9/4C4/9/3K5 w - - 0 1");
        assert_eq!(count(&two, CANNON_FILE + 2), 1);
        // Red's general on d0 has nothing in front on file d; Black's on e9 neither.
        assert_eq!(count(&hollow, KING_OPEN_FILE), 0);
        let shut = pos("4k4/4a4/9/9/9/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(count(&shut, KING_OPEN_FILE), 1);
    }

    #[test]
    fn weights_round_trip_and_errors_name_the_line() {
        let w = Weights::hand();
        assert_eq!(Weights::parse(&w.to_text("hand\nweights")).unwrap(), w);
        let committed = Weights::parse(COMMITTED).unwrap();
        assert_eq!(&committed, Weights::committed());
        let mut text = w.to_text("x");
        text = text.replacen("tempo 10 10", "tempo 10", 1);
        let line = text.lines().position(|l| l == "tempo 10").unwrap() + 1;
        assert_eq!(
            Weights::parse(&text),
            Err(WeightsError::Form {
                line,
                text: "tempo 10".into(),
                form: "name mg eg"
            })
        );
        let e = Weights::parse(&w.to_text("x").replace("tempo 10 10", "tempo 10 x"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("line {line}")) && e.contains("bad weight x"),
            "{e}"
        );
        assert!(matches!(
            Weights::parse("material.horse 1 2"),
            Err(WeightsError::Missing(_))
        ));
    }

    #[test]
    fn hooks_are_materials() {
        let p = pos("2r1k4/9/4c4/9/2n1R4/9/9/9/9/3K5 w - - 0 1");
        let (mut a, mut b) = (Vec::new(), Vec::new());
        Strong::default().noisy_moves(&p, &mut a);
        Material.noisy_moves(&p, &mut b);
        assert_eq!(a, b);
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        for &m in &moves {
            assert_eq!(
                Strong::default().move_hint(&p, m),
                Material.move_hint(&p, m)
            );
        }
        assert_eq!(
            Strong::default().null_move_ok(&p),
            Material.null_move_ok(&p)
        );
    }
}
