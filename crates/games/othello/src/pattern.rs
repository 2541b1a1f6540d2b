//! The pattern evaluator: the expected final disc difference as a sum of table entries, one per
//! pattern occurrence, each table indexed by the ternary contents (empty, ours, theirs) of a
//! fixed set of squares, as Logistello and Edax do. The weights are fitted by `duel-train` on
//! positions the project labelled itself (see `weights/README.md`).
//!
//! Symmetry is built in rather than fitted: each pattern class is described once (its squares in
//! one corner or row) and read from all eight images of the board under the symmetries of the
//! square. The evaluation is therefore a sum over the symmetry group and is exactly invariant
//! whatever the weights. A class whose squares are themselves symmetric (a row, a diagonal, the
//! 3×3 corner) would be read several times per occurrence; the fit sees it so ([`features`]),
//! but the evaluation reads it once, from a table folded at load time ([`REPS`]): 46 lookups
//! instead of 88, plus five small tables: mobility (the number of moves of each side),
//! potential mobility (the empty squares next to the other side's discs, for each side) and
//! the parity of the empty squares (who would play the last move if nobody passed).
//!
//! Set: the edge with its two X-squares (10 squares), the 3×3 corner (9), the 2×5 corner (10),
//! rows 2, 3 and 4 (8 each) and the diagonals of length 8 down to 4, each in all its positions
//! on the board (46 occurrences).
//!
//! Phases are buckets of four empty squares (Logistello's stages were four discs wide too): a
//! pattern that is good with 50 empties can be bad with 10.
//!
//! The weights file (its format, reading and writing it, and its errors) is
//! [`crate::pattern_file`]'s; this module is the evaluation.

use std::fmt;
use std::sync::{Arc, OnceLock};

use duel_core::{Evaluator, ProbCut, Score};

use crate::{bitboard, Estimate, Move, Othello, Textbook};

/// Number of phases (buckets of empty squares, see [`phase`]).
pub const PHASES: usize = 15;

/// The phase of a position with `empties` empty squares: four empties per bucket, 1–4 first,
/// so the last bucket (57–60 empties) holds the first plies of the game.
#[inline]
pub const fn phase(empties: u32) -> usize {
    let b = (empties.saturating_sub(1) / 4) as usize;
    if b < PHASES {
        b
    } else {
        PHASES - 1
    }
}

/// A pattern class: a set of squares read in all eight board orientations, with one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Class {
    /// Name in reports.
    pub name: &'static str,
    /// The squares in the identity orientation, digit 0 first (each square is a base-3 digit:
    /// 0 empty, 1 the side to move's disc, 2 the opponent's).
    pub squares: &'static [u8],
}

impl Class {
    /// Entries in the class's table: 3^squares.
    pub const fn size(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// The pattern classes, in table order. The fast index code in `class_index` is written
/// per class; the test `fast_indices_match_square_lists` checks it against these lists.
pub const CLASSES: [Class; 11] = [
    // The edge with both X-squares: who can take the corners, and at what cost.
    Class {
        name: "edge+2x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    Class {
        name: "corner3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Class {
        name: "corner2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Class {
        name: "row2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Class {
        name: "row3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Class {
        name: "row4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Class {
        name: "diag8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Class {
        name: "diag7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Class {
        name: "diag6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Class {
        name: "diag5",
        squares: &[3, 12, 21, 30, 39],
    },
    Class {
        name: "diag4",
        squares: &[4, 13, 22, 31],
    },
];

/// Table entries for the number of legal moves (0..=31, more is counted as 31).
pub const MOBILITY_SIZE: usize = 32;

/// Table entries for potential mobility, the number of empty squares next to the other side's
/// discs (at most 60).
pub const POTENTIAL_SIZE: usize = 64;

/// Table entries for the parity of the number of empty squares.
pub const PARITY_SIZE: usize = 2;

/// The small tables after the pattern classes: our mobility, theirs, our potential mobility,
/// theirs, parity. Each is read once per evaluation.
pub const EXTRA_SIZES: [usize; 5] = [
    MOBILITY_SIZE,
    MOBILITY_SIZE,
    POTENTIAL_SIZE,
    POTENTIAL_SIZE,
    PARITY_SIZE,
];

/// Number of [`EXTRA_SIZES`] tables.
pub const EXTRAS: usize = EXTRA_SIZES.len();

/// Orientations of the board: the eight symmetries of the square.
pub const ORIENTATIONS: usize = 8;

/// Table lookups per evaluation: every class in every orientation, then the [`EXTRAS`].
pub const FEATURES: usize = CLASSES.len() * ORIENTATIONS + EXTRAS;

/// Where each class's table starts inside one phase, then each of the [`EXTRA_SIZES`] tables;
/// the last entry is the length of one phase's weights.
pub const OFFSETS: [usize; CLASSES.len() + EXTRAS + 1] = {
    let mut off = [0; CLASSES.len() + EXTRAS + 1];
    let mut i = 0;
    while i < CLASSES.len() {
        off[i + 1] = off[i] + CLASSES[i].size();
        i += 1;
    }
    let mut k = 0;
    while k < EXTRAS {
        off[i + k + 1] = off[i + k] + EXTRA_SIZES[k];
        k += 1;
    }
    off
};

/// Weights in one phase.
pub const PHASE_LEN: usize = OFFSETS[CLASSES.len() + EXTRAS];

/// The slots (inside one phase) of the [`EXTRA_SIZES`] tables that `(p, o)` reads, `p` to
/// move: what a pattern cannot see, since it counts over the whole board.
#[inline(always)]
fn extra_slots(p: u64, o: u64) -> [usize; EXTRAS] {
    let n = CLASSES.len();
    let empty = !(p | o);
    let mob = |a: u64, b: u64| (bitboard::moves(a, b).count_ones() as usize).min(MOBILITY_SIZE - 1);
    let potential = |b: u64| (bitboard::neighbours(b) & empty).count_ones() as usize;
    [
        OFFSETS[n] + mob(p, o),
        OFFSETS[n + 1] + mob(o, p),
        OFFSETS[n + 2] + potential(o),
        OFFSETS[n + 3] + potential(p),
        OFFSETS[n + 4] + (empty.count_ones() & 1) as usize,
    ]
}

/// Weights are stored in 1/64 of a disc: the rounding of the 51 entries an evaluation adds
/// (about 0.03 disc in all) stays below the evaluation's unit of 1/16 disc, and most weights
/// fit the one-byte code of the file.
pub const WEIGHT_SCALE: f64 = 64.0;

/// From the weights' unit (1/64 disc) to the evaluation's (1/16 disc).
const EVAL_SHIFT: u32 = 2;

/// For each 8-bit set, its value read as base-3 digits that are all 0 or 1: the index of a row
/// with our discs on those bits. Theirs count twice, so a row's index is `B3[p] + 2 * B3[o]`.
static B3: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 == 1 {
                v += 3u16.pow(k);
            }
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The ternary index of the 8-bit sets `p` and `o` (disjoint).
#[inline(always)]
fn tern(p: u64, o: u64) -> u32 {
    u32::from(B3[(p & 0xFF) as usize]) + 2 * u32::from(B3[(o & 0xFF) as usize])
}

/// Mirror a-file <-> h-file.
#[inline(always)]
fn flip_h(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Mirror rank 1 <-> rank 8.
#[inline(always)]
fn flip_v(x: u64) -> u64 {
    x.swap_bytes()
}

/// Mirror along the a1–h8 diagonal (file <-> rank).
#[inline(always)]
fn transpose(x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (x ^ (x << 28));
    let x = x ^ t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    let x = x ^ t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The board `x` in orientation `g` (0..8): bit 0 flips the ranks, bit 1 the files, bit 2
/// transposes afterwards. The eight are the whole symmetry group of the square.
#[inline(always)]
pub fn orient(x: u64, g: usize) -> u64 {
    let x = if g & 1 != 0 { flip_v(x) } else { x };
    let x = if g & 2 != 0 { flip_h(x) } else { x };
    if g & 4 != 0 {
        transpose(x)
    } else {
        x
    }
}

/// Gathers the squares of `mask`, which must lie on distinct files, into the top byte at their
/// file's bit: each bit is shifted up by whole ranks only, and no two meet, so nothing carries.
#[inline(always)]
fn gather_files(x: u64, mask: u64) -> u64 {
    (x & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56
}

const DIAG8: u64 = 0x8040_2010_0804_0201;
const DIAG7: u64 = 0x0080_4020_1008_0402;
const DIAG6: u64 = 0x0000_8040_2010_0804;
const DIAG5: u64 = 0x0000_0080_4020_1008;
const DIAG4: u64 = 0x0000_0000_8040_2010;

/// The index of class `c` (a constant after inlining) in one orientation `(p, o)` of the
/// board, written per class for speed; the base-3 digits follow [`CLASSES`]' square lists.
#[inline(always)]
fn class_index(c: usize, p: u64, o: u64) -> u32 {
    let row = |r: u32, mask: u64| tern((p >> (8 * r)) & mask, (o >> (8 * r)) & mask);
    let bit = |sq: u32| ((p >> sq) & 1) as u32 + 2 * ((o >> sq) & 1) as u32;
    let diag =
        |mask: u64, file: u32| tern(gather_files(p, mask) >> file, gather_files(o, mask) >> file);
    match c {
        0 => row(0, 0xFF) + 6561 * bit(9) + 19683 * bit(14),
        1 => row(0, 7) + 27 * row(1, 7) + 729 * row(2, 7),
        2 => row(0, 31) + 243 * row(1, 31),
        3 => row(1, 0xFF),
        4 => row(2, 0xFF),
        5 => row(3, 0xFF),
        6 => diag(DIAG8, 0),
        7 => diag(DIAG7, 1),
        8 => diag(DIAG6, 2),
        9 => diag(DIAG5, 3),
        _ => diag(DIAG4, 4),
    }
}

/// Every class's table slot in one orientation: a loop of constant length that unrolls.
#[inline(always)]
fn all_indices(p: u64, o: u64, out: &mut [u32]) {
    for (c, slot) in out.iter_mut().enumerate().take(CLASSES.len()) {
        *slot = OFFSETS[c] as u32 + class_index(c, p, o);
    }
}

/// The eight orientations of `x`, in the order of [`orient`], sharing the work.
#[inline(always)]
fn orientations(x: u64) -> [u64; ORIENTATIONS] {
    let (v, h) = (flip_v(x), flip_h(x));
    let vh = flip_v(h);
    [
        x,
        v,
        h,
        vh,
        transpose(x),
        transpose(v),
        transpose(h),
        transpose(vh),
    ]
}

/// For each class, the orientations the evaluation reads: one per distinct set of squares
/// (the lowest-numbered orientation of each), as a bit set over orientations. A class whose
/// squares are symmetric is read in fewer orientations, through a table that holds the sum of
/// the weights of the orientations skipped ([`Pattern::from_weights`] folds them); the test
/// `reps_are_one_per_square_set` checks these sets.
pub const REPS: [u8; CLASSES.len()] = [
    0b0101_0011, // edge+2x: mirror-symmetric, pairs (0,2) (1,3) (4,5) (6,7)
    0b0000_1111, // corner3x3: symmetric about its diagonal, pairs (g, g+4)
    0b1111_1111, // corner2x5: no symmetry
    0b0101_0011, // row2
    0b0101_0011, // row3
    0b0101_0011, // row4
    0b0000_0011, // diag8: four orientations per diagonal
    0b0000_1111, // diag7..diag4: symmetric about the other diagonal
    0b0000_1111,
    0b0000_1111,
    0b0000_1111,
];

/// The table slots (inside one phase) of every class in every orientation, then of the
/// [`EXTRAS`]: the unfolded form of the evaluation, which the fitting code trains.
#[inline]
pub fn features(p: u64, o: u64) -> [u32; FEATURES] {
    let mut f = [0u32; FEATURES];
    let n = CLASSES.len();
    let (ps, os) = (orientations(p), orientations(o));
    for g in 0..ORIENTATIONS {
        let slot = &mut f[g * n..(g + 1) * n];
        all_indices(ps[g], os[g], slot);
    }
    for (dst, slot) in f[n * ORIENTATIONS..].iter_mut().zip(extra_slots(p, o)) {
        *dst = slot as u32;
    }
    f
}

/// The pattern evaluator. Cloning shares the tables. `Pattern::default()` evaluates with the
/// committed weights ([`COMMITTED`], read by [`crate::pattern_file`]).
#[derive(Clone)]
pub struct Pattern {
    /// `PHASES` blocks of `PHASE_LEN` weights, in 1/64 disc, as fitted and stored.
    weights: Arc<[i16]>,
    /// The same with the tables of symmetric classes folded (see [`REPS`]): what `raw` reads.
    folded: Arc<[i16]>,
    /// Which reads each square is a digit of: for rating siblings from their parent.
    squares: &'static SquareReads,
}

/// The table reads of one evaluation: every class in each orientation [`REPS`] names.
const READS: usize = {
    let mut n = 0;
    let mut c = 0;
    while c < CLASSES.len() {
        n += REPS[c].count_ones() as usize;
        c += 1;
    }
    n
};

/// The most reads one square is a digit of.
const READS_PER_SQUARE: usize = 8;

/// For each square, the reads (numbered as [`read_indices`] lists them) that have it as a
/// digit, with that digit's weight 3^k: a disc placed or turned there moves those indices by
/// a multiple of it.
struct SquareReads {
    len: [u8; 64],
    reads: [[(u8, u16); READS_PER_SQUARE]; 64],
}

impl SquareReads {
    fn get() -> &'static SquareReads {
        static TABLE: OnceLock<SquareReads> = OnceLock::new();
        TABLE.get_or_init(|| {
            let mut t = SquareReads {
                len: [0; 64],
                reads: [[(0, 0); READS_PER_SQUARE]; 64],
            };
            let mut j = 0u8;
            for g in 0..ORIENTATIONS {
                for (c, class) in CLASSES.iter().enumerate() {
                    if REPS[c] >> g & 1 == 0 {
                        continue;
                    }
                    for (k, &q) in class.squares.iter().enumerate() {
                        let s = (0..64)
                            .find(|&s| orient(1u64 << s, g) == 1u64 << q)
                            .expect("orientations are permutations");
                        let n = usize::from(t.len[s]);
                        t.reads[s][n] = (j, 3u16.pow(k as u32));
                        t.len[s] += 1;
                    }
                    j += 1;
                }
            }
            t
        })
    }
}

/// The table slots orientation `G` reads in `(p, o)`, already oriented, appended at `j`.
#[inline(always)]
fn indices_orientation<const G: usize>(p: u64, o: u64, out: &mut [u32; READS], j: &mut usize) {
    for c in 0..CLASSES.len() {
        if REPS[c] >> G & 1 != 0 {
            out[*j] = OFFSETS[c] as u32 + class_index(c, p, o);
            *j += 1;
        }
    }
}

/// Every slot (inside one phase) an evaluation reads, orientation by orientation, classes in
/// order within each: the terms `raw` adds, in a list.
#[inline]
fn read_indices(p: u64, o: u64) -> [u32; READS] {
    let (ps, os) = (orientations(p), orientations(o));
    let mut out = [0; READS];
    let mut j = 0;
    indices_orientation::<0>(ps[0], os[0], &mut out, &mut j);
    indices_orientation::<1>(ps[1], os[1], &mut out, &mut j);
    indices_orientation::<2>(ps[2], os[2], &mut out, &mut j);
    indices_orientation::<3>(ps[3], os[3], &mut out, &mut j);
    indices_orientation::<4>(ps[4], os[4], &mut out, &mut j);
    indices_orientation::<5>(ps[5], os[5], &mut out, &mut j);
    indices_orientation::<6>(ps[6], os[6], &mut out, &mut j);
    indices_orientation::<7>(ps[7], os[7], &mut out, &mut j);
    out
}

/// The folded table entries orientation `G` reads in `(p, o)`, already oriented.
#[inline(always)]
fn sum_orientation<const G: usize>(t: &[i16], p: u64, o: u64) -> i32 {
    let mut s = 0;
    for c in 0..CLASSES.len() {
        if REPS[c] >> G & 1 != 0 {
            s += i32::from(t[OFFSETS[c] + class_index(c, p, o) as usize]);
        }
    }
    s
}

/// The squares orientation `g` reads for class `c`, as physical squares of the board.
fn squares_read(c: usize, g: usize) -> u64 {
    let class: u64 = CLASSES[c].squares.iter().map(|&sq| 1u64 << sq).sum();
    (0..64)
        .filter(|&s| orient(1u64 << s, g) & class != 0)
        .map(|s| 1u64 << s)
        .sum()
}

/// Folds the weights for the evaluation: for each class, the entry of configuration `i` becomes
/// the sum of the entries every orientation reading the same squares as orientation 0 would
/// read for it. Orientation 0 is the lowest of its set, and the other sets are its images, so
/// the same folded table serves every orientation in [`REPS`]. Returns the folded weights and
/// how many sums did not fit an i16 (and were clamped).
fn fold(w: &[i16]) -> (Vec<i16>, usize) {
    let mut f = w.to_vec();
    let mut clamped = 0;
    for (c, class) in CLASSES.iter().enumerate() {
        let read0 = squares_read(c, 0);
        let group: Vec<usize> = (0..ORIENTATIONS)
            .filter(|&g| squares_read(c, g) == read0)
            .collect();
        if group.len() == 1 {
            continue;
        }
        for i in 0..class.size() {
            let (mut bp, mut bo, mut x) = (0u64, 0u64, i);
            for &sq in class.squares {
                match x % 3 {
                    1 => bp |= 1 << sq,
                    2 => bo |= 1 << sq,
                    _ => {}
                }
                x /= 3;
            }
            let slots: Vec<usize> = group
                .iter()
                .map(|&g| OFFSETS[c] + class_index(c, orient(bp, g), orient(bo, g)) as usize)
                .collect();
            for ph in 0..PHASES {
                let base = ph * PHASE_LEN;
                let sum: i32 = slots.iter().map(|&s| i32::from(w[base + s])).sum();
                let v = sum.clamp(i32::from(i16::MIN), i32::from(i16::MAX));
                clamped += usize::from(v != sum);
                f[base + OFFSETS[c] + i] = v as i16;
            }
        }
    }
    (f, clamped)
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({} weights)", self.weights.len())
    }
}

/// The weights fitted by `duel-train` (see `weights/README.md`), as built in: the file
/// [`crate::pattern_file`] reads.
pub const COMMITTED: &[u8] = include_bytes!("../weights/pattern.bin");

impl Pattern {
    /// An evaluator from raw weights: `PHASES * PHASE_LEN` values in 1/64 disc, phase by
    /// phase, each phase laid out as [`OFFSETS`] says. `None` if the length is wrong.
    pub fn from_weights(weights: Vec<i16>) -> Option<Pattern> {
        (weights.len() == PHASES * PHASE_LEN).then(|| {
            let (folded, _) = fold(&weights);
            Pattern {
                weights: weights.into(),
                folded: folded.into(),
                squares: SquareReads::get(),
            }
        })
    }

    /// The raw weights (see [`Pattern::from_weights`]).
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// The evaluation of `p` (to move) against `o` in 1/64 disc, before rounding.
    #[inline]
    pub fn raw(&self, p: u64, o: u64) -> i32 {
        let ph = phase((!(p | o)).count_ones());
        let t = &self.folded[ph * PHASE_LEN..(ph + 1) * PHASE_LEN];
        let (ps, os) = (orientations(p), orientations(o));
        // One call per orientation with the orientation a constant, so that the class loop
        // unrolls into straight code without the skipped classes (a loop over both was
        // compiled to a jump table per class, three times slower).
        let sum = sum_orientation::<0>(t, ps[0], os[0])
            + sum_orientation::<1>(t, ps[1], os[1])
            + sum_orientation::<2>(t, ps[2], os[2])
            + sum_orientation::<3>(t, ps[3], os[3])
            + sum_orientation::<4>(t, ps[4], os[4])
            + sum_orientation::<5>(t, ps[5], os[5])
            + sum_orientation::<6>(t, ps[6], os[6])
            + sum_orientation::<7>(t, ps[7], os[7]);
        sum + extra_slots(p, o)
            .iter()
            .map(|&s| i32::from(t[s]))
            .sum::<i32>()
    }
}

impl Estimate for Pattern {
    fn estimate(&self, p: u64, o: u64) -> i32 {
        // An arithmetic shift rounds towards minus infinity; add half a unit to round to nearest.
        (self.raw(p, o) + (1 << (EVAL_SHIFT - 1))) >> EVAL_SHIFT
    }

    /// The children's indices differ from the parent's only where the move put and turned
    /// discs: the parent's are computed once (from the side of `o`, who moves next), and each
    /// child adds, for the reads it changes, the difference of two table entries to the
    /// parent's sum. The same entries are added as in `raw`, so the values are identical.
    fn estimate_children(&self, p: u64, o: u64, moves: u64, visit: &mut dyn FnMut(i32) -> bool) {
        if moves == 0 {
            return;
        }
        // Every child has one empty square fewer, hence the same phase.
        let ph = phase((!(p | o)).count_ones() - 1);
        let t = &self.folded[ph * PHASE_LEN..(ph + 1) * PHASE_LEN];
        let base = read_indices(o, p);
        let sum: i32 = base.iter().map(|&i| i32::from(t[i as usize])).sum();
        let mut delta = [0u32; READS];
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = bitboard::flips(p, o, sq);
            let (cp, co) = (o & !f, p | f | (1 << sq));
            // From the mover's side: the placed disc is a 2 (theirs), a turned one goes 1 -> 2.
            let mut touched = 0u64;
            let mut add = |s: usize, times: u32| {
                let len = usize::from(self.squares.len[s]);
                for &(j, w) in &self.squares.reads[s][..len] {
                    delta[usize::from(j)] += times * u32::from(w);
                    touched |= 1 << j;
                }
            };
            add(sq as usize, 2);
            let mut fl = f;
            while fl != 0 {
                add(fl.trailing_zeros() as usize, 1);
                fl &= fl - 1;
            }
            let mut raw = sum;
            while touched != 0 {
                let j = touched.trailing_zeros() as usize;
                touched &= touched - 1;
                let (old, new) = (base[j] as usize, (base[j] + delta[j]) as usize);
                raw += i32::from(t[new]) - i32::from(t[old]);
                delta[j] = 0;
            }
            raw += extra_slots(cp, co)
                .iter()
                .map(|&s| i32::from(t[s]))
                .sum::<i32>();
            if !visit((raw + (1 << (EVAL_SHIFT - 1))) >> EVAL_SHIFT) {
                return;
            }
        }
    }
}

/// Multi-ProbCut's error model for this evaluator with the engine search: the standard
/// deviation, in 1/16 disc, of (depth-d value − depth-d' value) ≈ c0 + c1·empties + c2·d +
/// c3·d'. Fitted on 1,600 positions of duel's own games searched to depth 10 by
/// `duel-train othello-probcut --positions 1600 --depth 10` (weighted RMS of the fit 0.78
/// disc over 240 cells; docs/BENCHMARKS.md, "Othello: Multi-ProbCut").
const PROBCUT_SIGMA: [f64; 4] = [88.519, -0.8679, 6.0938, -11.3182];

/// The shallowest node depth given a ProbCut test: below it the test costs as much as it saves.
const PROBCUT_MIN_DEPTH: u32 = 3;

/// The test's depth for a node of depth `d`: about half, of the same parity, since an odd and
/// an even depth differ by the side that moved last, and that bias would cost accuracy.
pub const fn probcut_depth(d: u32) -> u32 {
    let h = 2 * (d / 4) + (d & 1);
    if h == 0 {
        d.saturating_sub(2)
    } else {
        h
    }
}

/// `PROBCUT_SIGMA`'s value for a test of depth `shallow` at a node of depth `deep`, at least
/// one disc.
pub fn probcut_sigma(empties: u32, deep: u32, shallow: u32) -> i32 {
    let [c0, c1, c2, c3] = PROBCUT_SIGMA;
    let s = c0 + c1 * f64::from(empties) + c2 * f64::from(deep) + c3 * f64::from(shallow);
    (s.round() as i32).max(16)
}

impl Evaluator<Othello> for Pattern {
    fn unit(&self) -> &'static str {
        "sixteenths of a disc of final margin (16 is one disc)"
    }

    fn name(&self) -> &'static str {
        "patterns"
    }

    fn evaluate(&self, pos: &Othello) -> i32 {
        let v = self.estimate(pos.player(), pos.opponent());
        v.clamp(-Score::MAX_HEURISTIC, Score::MAX_HEURISTIC)
    }

    /// The textbook's ordering: its corner rule, then its square table. Cheap, and the search's
    /// table move and history do most of the ordering anyway (sorting by each child's value
    /// took fewer nodes but lost at equal time: docs/BENCHMARKS.md, "Othello: the pattern
    /// evaluation, version 2").
    fn move_hint(&self, pos: &Othello, mv: Move) -> i32 {
        Textbook::default().move_hint(pos, mv)
    }

    /// One test per node, from depth 3, at [`probcut_depth`] with [`probcut_sigma`].
    fn probcut(&self, pos: &Othello, depth: u32, check: usize) -> Option<ProbCut> {
        if check > 0 || depth < PROBCUT_MIN_DEPTH {
            return None;
        }
        let shallow = probcut_depth(depth);
        Some(ProbCut {
            depth: shallow,
            sigma: probcut_sigma(pos.empties().count_ones(), depth, shallow),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square `sq` moved by orientation `g`, computed through the bitboard maps.
    fn orient_square(sq: u8, g: usize) -> u8 {
        orient(1u64 << sq, g).trailing_zeros() as u8
    }

    /// The index of class `c` in orientation `g`, square by square from the square list.
    fn slow_index(p: u64, o: u64, c: usize, g: usize) -> u32 {
        let (p, o) = (orient(p, g), orient(o, g));
        CLASSES[c].squares.iter().rev().fold(0, |acc, &sq| {
            acc * 3 + ((p >> sq) & 1) as u32 + 2 * ((o >> sq) & 1) as u32
        })
    }

    fn random_position(rng: &mut duel_core::SplitMix64) -> (u64, u64) {
        let a = rng.next() & rng.next() | rng.next() & rng.next() & rng.next();
        let b = rng.next() & !a;
        (a, b & rng.next())
    }

    #[test]
    fn probcut_tests_are_shallower_of_the_same_parity_and_from_depth_three() {
        let p = Pattern::default();
        let start = <Othello as duel_core::Game>::start();
        assert_eq!(p.probcut(&start, 2, 0), None);
        for d in PROBCUT_MIN_DEPTH..40 {
            let t = p.probcut(&start, d, 0).expect("a test from depth 3");
            assert!(t.depth < d && t.depth >= 1, "{d}: {}", t.depth);
            assert_eq!((d - t.depth) % 2, 0, "{d}: {}", t.depth);
            assert!(t.sigma >= 16, "{d}: sigma {}", t.sigma);
            assert_eq!(p.probcut(&start, d, 1), None, "one test a node");
        }
        // The fitted model at a few points, in discs: about 4 to 6, as measured.
        for (e, d) in [(14, 8), (30, 10), (40, 6), (50, 12)] {
            let s = probcut_sigma(e, d, probcut_depth(d));
            assert!((48..=112).contains(&s), "{e} empties, depth {d}: {s}");
        }
    }

    #[test]
    fn orientations_are_the_eight_symmetries() {
        let mut images: Vec<Vec<u8>> = (0..8)
            .map(|g| (0..64).map(|sq| orient_square(sq, g)).collect())
            .collect();
        for img in &images {
            let mut s = img.clone();
            s.sort_unstable();
            assert_eq!(s, (0..64).collect::<Vec<u8>>(), "a permutation");
            // Distances between neighbours are kept: it is a symmetry of the board.
            for sq in 0..64u8 {
                let (f, r) = (img[sq as usize] % 8, img[sq as usize] / 8);
                if sq % 8 < 7 {
                    let n = img[sq as usize + 1];
                    assert_eq!(f.abs_diff(n % 8) + r.abs_diff(n / 8), 1);
                }
            }
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn fast_indices_match_square_lists() {
        let mut rng = duel_core::SplitMix64::new(7);
        for _ in 0..2000 {
            let (p, o) = random_position(&mut rng);
            let f = features(p, o);
            for g in 0..ORIENTATIONS {
                for c in 0..CLASSES.len() {
                    let fast = f[g * CLASSES.len() + c] - OFFSETS[c] as u32;
                    assert_eq!(fast, slow_index(p, o, c, g), "{} g={g}", CLASSES[c].name);
                    assert!((fast as usize) < CLASSES[c].size());
                }
            }
        }
    }

    #[test]
    fn reps_are_one_per_square_set() {
        for c in 0..CLASSES.len() {
            let mut seen = Vec::new();
            let mut reps = 0u8;
            for g in 0..ORIENTATIONS {
                let s = squares_read(c, g);
                if !seen.contains(&s) {
                    seen.push(s);
                    reps |= 1 << g;
                }
            }
            assert_eq!(reps, REPS[c], "{}", CLASSES[c].name);
        }
    }

    #[test]
    fn children_rated_together_as_one_by_one() {
        let pat = Pattern::default();
        let mut rng = duel_core::SplitMix64::new(5);
        for _ in 0..3000 {
            let (p, o) = random_position(&mut rng);
            let m = bitboard::moves(p, o);
            let mut got = Vec::new();
            pat.estimate_children(p, o, m, &mut |v| {
                got.push(v);
                true
            });
            let mut want = Vec::new();
            let mut b = m;
            while b != 0 {
                let sq = b.trailing_zeros();
                b &= b - 1;
                let f = bitboard::flips(p, o, sq);
                want.push(pat.estimate(o & !f, p | f | (1 << sq)));
            }
            assert_eq!(got, want, "{p:#x} {o:#x}");
        }
    }

    #[test]
    fn folded_evaluation_equals_the_full_sum() {
        // Random weights, so that a wrong fold cannot hide behind a symmetric fit.
        let mut rng = duel_core::SplitMix64::new(11);
        let w: Vec<i16> = (0..PHASES * PHASE_LEN)
            .map(|_| (rng.below(2001) as i16) - 1000)
            .collect();
        let pat = Pattern::from_weights(w.clone()).unwrap();
        for _ in 0..2000 {
            let (p, o) = random_position(&mut rng);
            let ph = phase((!(p | o)).count_ones());
            let full: i32 = features(p, o)
                .iter()
                .map(|&i| i32::from(w[ph * PHASE_LEN + i as usize]))
                .sum();
            assert_eq!(pat.raw(p, o), full);
        }
    }

    #[test]
    fn committed_weights_fold_without_clamping() {
        assert_eq!(fold(Pattern::default().weights()).1, 0);
    }

    #[test]
    fn phases_cover_the_game() {
        assert_eq!(phase(0), 0);
        assert_eq!(phase(4), 0);
        assert_eq!(phase(5), 1);
        assert_eq!(phase(60), PHASES - 1);
        assert_eq!(PHASE_LEN, OFFSETS[OFFSETS.len() - 1]);
    }
}
