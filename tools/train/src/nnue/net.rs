//! The floating-point net the training moves: [`Network`]'s layout in floats (plus the king
//! buckets' shared rows), its forward and backward passes, and the rounding to the integer
//! net the engine runs.

use duel_chess::nnue::{output_bucket, view_king_buckets, Base, Network, HIDDEN, INPUTS, QA, QB};
use duel_core::SplitMix64;

use super::data::NetSample;
use super::LN10;

/// The same input from Black's view: colours swapped, board flipped.
fn flip(i: usize) -> usize {
    let (side, rest) = (i / 384, i % 384);
    (1 - side) * 384 + (rest & !63) + ((rest & 63) ^ 56)
}

/// The rows a White-view input adds to in White's and Black's sums, without their king
/// buckets' offsets.
fn rows(i: u16) -> [usize; 2] {
    let i = usize::from(i);
    [i, flip(i)]
}

/// Floating-point weights, laid out as [`Network`]'s, plus the king buckets' shared rows.
#[derive(Debug, Clone)]
pub struct FloatNet {
    ft_w: Vec<f32>,
    /// With several king buckets, one more set of feature rows that every bucket adds (a
    /// "factoriser"): what a piece on a square is worth wherever the king stands is learnt
    /// from every position, and each bucket's own rows learn only how its king changes that.
    /// The engine's net has the sums, one set per bucket. Empty with one king bucket.
    ft_shared: Vec<f32>,
    ft_b: Vec<f32>,
    /// Per output bucket, as [`Network`]'s.
    out_w: Vec<f32>,
    out_b: Vec<f32>,
}

/// Per-sample work space of the forward and backward passes.
pub(super) struct Scratch {
    acc: [Vec<f32>; 2],
    delta: [Vec<f32>; 2],
}

impl Scratch {
    pub(super) fn new() -> Scratch {
        Scratch {
            acc: [vec![0.0; HIDDEN], vec![0.0; HIDDEN]],
            delta: [vec![0.0; HIDDEN], vec![0.0; HIDDEN]],
        }
    }
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// Small random weights: the feature rows within ±1/√768, the output within ±1/√(2H).
    /// With several king buckets the shared rows are random and each bucket's own rows zero.
    pub(super) fn random(seed: u64, buckets: usize, king_buckets: usize) -> FloatNet {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |bound: f32| {
            let u = (rng.next() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * bound
        };
        let ft_bound = 1.0 / (INPUTS as f32).sqrt();
        let out_bound = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        let rows: Vec<f32> = (0..INPUTS * HIDDEN).map(|_| uniform(ft_bound)).collect();
        let mut net = FloatNet {
            ft_w: Vec::new(),
            ft_shared: Vec::new(),
            ft_b: vec![0.0; HIDDEN],
            out_w: (0..buckets * 2 * HIDDEN)
                .map(|_| uniform(out_bound))
                .collect(),
            out_b: vec![0.0; buckets],
        };
        net.set_rows(rows, king_buckets);
        net
    }

    /// Takes `rows` (one set, INPUTS × HIDDEN) as every one of `king_buckets` buckets' feature
    /// rows: as the shared rows beside zero bucket rows when there are several buckets.
    fn set_rows(&mut self, rows: Vec<f32>, king_buckets: usize) {
        if king_buckets == 1 {
            self.ft_w = rows;
            self.ft_shared = Vec::new();
        } else {
            self.ft_w = vec![0.0; king_buckets * INPUTS * HIDDEN];
            self.ft_shared = rows;
        }
    }

    /// The number of king buckets: as many as the sets of feature rows.
    pub(super) fn king_buckets(&self) -> usize {
        self.ft_w.len() / (INPUTS * HIDDEN)
    }

    /// The length of the shared rows for `king_buckets` buckets: none for one.
    fn shared_len(king_buckets: usize) -> usize {
        if king_buckets == 1 {
            0
        } else {
            INPUTS * HIDDEN
        }
    }

    /// The float weights an integer net was rounded from (to within half a step), to train
    /// on from there: new data for a net that already plays, where a start from random
    /// weights would have to relearn what the old data taught it.
    pub fn from_network(net: &Network) -> FloatNet {
        let (ft_w, ft_b, out_w, out_b) = net.parts();
        let f = |v: &[i16], scale: i32| v.iter().map(|&x| f32::from(x) / scale as f32).collect();
        FloatNet {
            ft_w: f(ft_w, QA),
            ft_shared: vec![0.0; FloatNet::shared_len(net.king_buckets())],
            ft_b: f(ft_b, QA),
            out_w: f(out_w, QB),
            out_b: out_b.iter().map(|&b| b as f32 / (QA * QB) as f32).collect(),
        }
    }

    /// [`FloatNet::from_network`] for a training of `buckets` output buckets and
    /// `king_buckets` king buckets on `base`. The output buckets and base must be the net's
    /// own; a net of one king bucket may start a training of several, its feature rows becoming
    /// the shared ones, so the new net starts as the old one exactly.
    pub fn start_from(
        net: &Network,
        buckets: usize,
        king_buckets: usize,
        base: Base,
    ) -> Result<FloatNet, InitError> {
        if net.buckets() != buckets || net.base() != base {
            return Err(InitError::Shape {
                buckets: net.buckets(),
                base: net.base(),
                want_buckets: buckets,
                want_base: base,
            });
        }
        let mut float = FloatNet::from_network(net);
        if net.king_buckets() == king_buckets {
            return Ok(float);
        }
        if net.king_buckets() != 1 {
            return Err(InitError::KingBuckets {
                have: net.king_buckets(),
                want: king_buckets,
            });
        }
        let rows = std::mem::take(&mut float.ft_w);
        float.set_rows(rows, king_buckets);
        Ok(float)
    }

    fn zero(buckets: usize, king_buckets: usize) -> FloatNet {
        FloatNet {
            ft_w: vec![0.0; king_buckets * INPUTS * HIDDEN],
            ft_shared: vec![0.0; FloatNet::shared_len(king_buckets)],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; buckets * 2 * HIDDEN],
            out_b: vec![0.0; buckets],
        }
    }

    /// The zero net of this one's shape (gradients, Adam's moments).
    pub(super) fn zero_like(&self) -> FloatNet {
        FloatNet::zero(self.buckets(), self.king_buckets())
    }

    /// Each view's first feature row: its king bucket's offset.
    fn bucket_rows(&self, x: &NetSample) -> [usize; 2] {
        let [white, black] = x.kings.map(usize::from);
        view_king_buckets(white, black, self.king_buckets()).map(|k| k * INPUTS)
    }

    pub(super) fn buckets(&self) -> usize {
        self.out_b.len()
    }

    /// The output weights and bias of `x`'s bucket.
    fn bucket_of(&self, x: &NetSample) -> usize {
        output_bucket(u32::from(x.len), self.buckets())
    }

    pub(super) fn add(&mut self, other: &FloatNet) {
        let pairs = [
            (&mut self.ft_w, &other.ft_w),
            (&mut self.ft_shared, &other.ft_shared),
            (&mut self.ft_b, &other.ft_b),
            (&mut self.out_w, &other.out_w),
            (&mut self.out_b, &other.out_b),
        ];
        for (a, b) in pairs {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    /// Every weight, in one fixed order (that of [`FloatNet::values`]).
    pub(super) fn params(&mut self) -> impl Iterator<Item = &mut f32> {
        self.ft_w
            .iter_mut()
            .chain(&mut self.ft_shared)
            .chain(&mut self.ft_b)
            .chain(&mut self.out_w)
            .chain(&mut self.out_b)
    }

    /// Every weight, in the order of [`FloatNet::params`].
    pub(super) fn values(&self) -> impl Iterator<Item = &f32> {
        self.ft_w
            .iter()
            .chain(&self.ft_shared)
            .chain(&self.ft_b)
            .chain(&self.out_w)
            .chain(&self.out_b)
    }

    /// Fills the hidden sums from White's view (`acc[0]`) and Black's (`acc[1]`); returns the
    /// output in units of [`CP_SCALE`] centipawns.
    pub(super) fn forward(&self, inputs: &[u16], x: &NetSample, s: &mut Scratch) -> f32 {
        let (white_to_move, base) = (x.white_to_move, x.base);
        for a in &mut s.acc {
            a.copy_from_slice(&self.ft_b);
        }
        let offsets = self.bucket_rows(x);
        for &i in inputs {
            for (view, row) in rows(i).into_iter().enumerate() {
                let at = (offsets[view] + row) * HIDDEN;
                for (a, w) in s.acc[view].iter_mut().zip(&self.ft_w[at..at + HIDDEN]) {
                    *a += w;
                }
                if let Some(w) = self.ft_shared.get(row * HIDDEN..(row + 1) * HIDDEN) {
                    for (a, w) in s.acc[view].iter_mut().zip(w) {
                        *a += w;
                    }
                }
            }
        }
        let (us, them) = if white_to_move { (0, 1) } else { (1, 0) };
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum()
        };
        let b = self.bucket_of(x);
        let out = &self.out_w[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
        dot(&s.acc[us], &out[..HIDDEN]) + dot(&s.acc[them], &out[HIDDEN..]) + self.out_b[b] + base
    }

    /// Adds the gradient of the sample's loss, times `scale`, to `grad`; returns the loss.
    pub(super) fn backward(
        &self,
        x: &NetSample,
        inputs: &[u16],
        k: f32,
        scale: f32,
        s: &mut Scratch,
        grad: &mut FloatNet,
    ) -> f32 {
        let (white_to_move, target) = (x.white_to_move, x.target);
        let y = self.forward(inputs, x, s);
        let p = 1.0 / (1.0 + (-k * LN10 * y).exp());
        let err = p - target;
        let g = scale * 2.0 * err * p * (1.0 - p) * k * LN10;
        let (us, them) = if white_to_move { (0, 1) } else { (1, 0) };
        let b = self.bucket_of(x);
        grad.out_b[b] += g;
        for (half, view) in [(0, us), (1, them)] {
            let at = (2 * b + half) * HIDDEN;
            let w = &self.out_w[at..at + HIDDEN];
            let gw = &mut grad.out_w[at..at + HIDDEN];
            let (acc, delta) = (&s.acc[view], &mut s.delta[view]);
            for j in 0..HIDDEN {
                let a = acc[j];
                gw[j] += g * screlu(a);
                delta[j] = if a > 0.0 && a < 1.0 {
                    g * w[j] * 2.0 * a
                } else {
                    0.0
                };
            }
        }
        for view in 0..2 {
            for (b, d) in grad.ft_b.iter_mut().zip(&s.delta[view]) {
                *b += d;
            }
        }
        let offsets = self.bucket_rows(x);
        for &i in inputs {
            for (view, row) in rows(i).into_iter().enumerate() {
                let at = (offsets[view] + row) * HIDDEN;
                for (g, d) in grad.ft_w[at..at + HIDDEN].iter_mut().zip(&s.delta[view]) {
                    *g += d;
                }
                if let Some(gw) = grad.ft_shared.get_mut(row * HIDDEN..(row + 1) * HIDDEN) {
                    for (g, d) in gw.iter_mut().zip(&s.delta[view]) {
                        *g += d;
                    }
                }
            }
        }
        err * err
    }

    /// The integer net the engine runs.
    pub fn quantise(&self, base: Base) -> Network {
        let q = |v: &[f32], scale: i32| -> Vec<i16> {
            v.iter()
                .map(|&x| (x * scale as f32).round() as i16)
                .collect()
        };
        let out_bias = self
            .out_b
            .iter()
            .map(|b| (b * (QA * QB) as f32).round() as i32)
            .collect();
        // Each bucket's rows with the shared rows added: the sums the engine keeps.
        let rows: Vec<f32> = if self.ft_shared.is_empty() {
            self.ft_w.clone()
        } else {
            let n = self.ft_shared.len();
            self.ft_w
                .iter()
                .enumerate()
                .map(|(i, w)| w + self.ft_shared[i % n])
                .collect()
        };
        Network::from_parts(
            base,
            q(&rows, QA),
            q(&self.ft_b, QA),
            q(&self.out_w, QB),
            out_bias,
        )
        .expect("the float net has the integer net's shape")
    }
}

/// Why a net cannot start a training (`--init`).
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    /// Its output buckets or base are not the training's.
    #[error(
        "a net of {buckets} output buckets on base {base:?}, where the training asks for \
         {want_buckets} on base {want_base:?} (--buckets, --residual)"
    )]
    Shape {
        buckets: usize,
        base: Base,
        want_buckets: usize,
        want_base: Base,
    },
    /// Its king buckets cannot become the training's.
    #[error(
        "a net of {have} king buckets, where the training asks for {want} \
         (--king-buckets; only a net of one can start a training of more)"
    )]
    KingBuckets { have: usize, want: usize },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::random_positions;
    use crate::nnue::NetData;
    use duel_chess::nnue::CP_SCALE;

    /// A training started from a net (`--init`) starts from that net exactly: its float
    /// weights round back to the same integers, and the float net evaluates as the integer
    /// one does, to within the rounding of the output.
    #[test]
    fn a_net_read_back_as_floats_is_the_same_net() {
        let shipped = Network::shipped();
        let kings = shipped.king_buckets();
        let float = FloatNet::start_from(shipped, shipped.buckets(), kings, shipped.base())
            .expect("the net's own shape");
        assert_eq!(float.quantise(shipped.base()), *shipped);
        // A training of another shape is refused by name.
        let err = FloatNet::start_from(shipped, shipped.buckets() + 1, kings, shipped.base())
            .expect_err("another bucket count")
            .to_string();
        assert!(err.contains("output buckets"), "{err}");
        let err = FloatNet::start_from(shipped, shipped.buckets(), kings, Base::Strong)
            .expect_err("another base")
            .to_string();
        assert!(err.contains("Strong"), "{err}");
        let mut data = NetData::default();
        let positions = random_positions(200, 9);
        for pos in &positions {
            data.push(pos, 0.5, 0.5);
        }
        let mut s = Scratch::new();
        for (x, pos) in data.samples.iter().zip(&positions) {
            let float_value = float.forward(data.inputs(x), x, &mut s) * CP_SCALE as f32;
            let int_value = shipped.evaluate(pos.board()) as f32;
            assert!(
                (float_value - int_value).abs() <= 2.0,
                "{}: float {float_value}, integer {int_value}",
                pos.board()
            );
        }
    }
}
