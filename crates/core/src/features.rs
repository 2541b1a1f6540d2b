//! The feature walk of a linear evaluator, shared by chess's and xiangqi's Strong: the code
//! that counts a position's features hands each count to a [`Sink`], so that one walk serves
//! both the evaluation ([`Weighted`]: each count weighed on the spot, middlegame and endgame
//! apart) and the fitter ([`sparse`]: the counts that are not zero, as a list). With one walk
//! for both, the evaluation and the features its weights were fitted on cannot disagree.

use crate::weights::Tapered;

/// Where a feature walk sends each feature's count, already signed (+ for the first side,
/// − for the second).
pub trait Sink {
    /// Adds `count` to feature `index`.
    fn add(&mut self, index: usize, count: i32);
}

/// Counts collected densely, one per feature of `N`, to be handed out sparsely ([`sparse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dense<const N: usize>(pub [i32; N]);

impl<const N: usize> Sink for Dense<N> {
    fn add(&mut self, index: usize, count: i32) {
        self.0[index] += count;
    }
}

/// The features `walk` counts that are not zero, as (index, count) in index order, into `out`
/// (cleared first). A count is clamped into `i8`: the walks' counts lie far inside it in any
/// reachable position.
pub fn sparse<const N: usize>(walk: impl FnOnce(&mut Dense<N>), out: &mut Vec<(u16, i8)>) {
    let mut d = Dense([0; N]);
    walk(&mut d);
    out.clear();
    out.extend(
        d.0.iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c.clamp(-128, 127) as i8)),
    );
}

/// The evaluation's sink: each count weighed on the spot by its feature's (middlegame,
/// endgame) pair, the two sums kept apart for the phase to blend.
#[derive(Debug, Clone)]
pub struct Weighted<'a> {
    weights: &'a [[i32; 2]],
    /// The weighed sums so far.
    pub sum: Tapered,
}

impl<'a> Weighted<'a> {
    /// Nothing counted yet, with one (middlegame, endgame) pair per feature.
    pub fn new(weights: &'a [[i32; 2]]) -> Self {
        Weighted {
            weights,
            sum: Tapered::default(),
        }
    }
}

impl Sink for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.sum.add(self.weights[index], count);
    }
}
