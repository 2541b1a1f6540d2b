//! Training chess's [`duel_chess::nnue::Net`] on `chess-gen` files: floating-point weights,
//! full sparse back-propagation and Adam on minibatches, then the integer weights the engine
//! runs. The loss is Texel's: the squared gap between the label and σ(K·value/400), the
//! same sigmoid and K as the Strong fit, so the net's centipawns are on the scale the search's
//! margins were tuned for.

use duel_chess::nnue::{
    king_squares, output_bucket, position_from_inputs, view_king_buckets, white_inputs, Base,
    Network, CP_SCALE, HIDDEN, INPUTS, QA, QB,
};
use duel_chess::{Chess, Strong};

use crate::chess::{records, Record, RecordError};
use duel_core::SplitMix64;
use duel_core::{Evaluator, Game, Side};

/// The trainer keeps every weight within this bound, so the integer net's products fit
/// (see `Network::screlu_dot`).
const WEIGHT_CLIP: f32 = 1.98;
const LN10: f32 = std::f32::consts::LN_10;

/// Labelled positions as White-view input indices.
#[derive(Debug, Default)]
pub struct NetData {
    base: Option<Strong>,
    inputs: Vec<u16>,
    samples: Vec<NetSample>,
}

#[derive(Debug, Clone, Copy)]
struct NetSample {
    start: u32,
    /// The number of inputs, one per piece: it also picks the output bucket.
    len: u8,
    white_to_move: bool,
    /// The white king's square and the black king's: what picks each view's king bucket.
    kings: [u8; 2],
    /// The target for the side to move, from 0 to 1.
    target: f32,
    /// The game's result for the side to move (1, 0.5 or 0): a yardstick that does not
    /// depend on the labels' blend.
    result: f32,
    /// The base evaluation for the side to move, in units of `CP_SCALE` centipawns.
    base: f32,
}

/// Texel's expected score of a value `v` in centipawns at scale `k`.
fn expected(k: f32, v: f32) -> f32 {
    1.0 / (1.0 + (-k * LN10 * v / 400.0).exp())
}

impl NetData {
    /// Reads `FEN;result;value` lines ([`crate::chess::records`]); the label is
    /// `(1 − value_weight)·result + value_weight·σ(K·value)`, turned to the side to move's: a
    /// line without a value keeps its result, a line with `?` for a result takes σ(K·value).
    /// With `base`, the net learns what is left once Strong's value is added. With `mirror`,
    /// each position in which neither side may castle is also added mirrored left to right
    /// ([`Chess::file_mirror`]).
    pub fn parse(
        text: &str,
        k: f32,
        value_weight: f32,
        base: Base,
        mirror: bool,
    ) -> Result<NetData, RecordError> {
        let mut d = NetData {
            base: (base == Base::Strong).then(Strong::default),
            ..NetData::default()
        };
        for record in records(text) {
            let Record {
                pos, result, value, ..
            } = record?;
            let value = value.map(|v| expected(k, f32::from(v)));
            let label = match (result, value) {
                (Some(r), Some(v)) => (1.0 - value_weight) * r + value_weight * v,
                (Some(r), None) => r,
                (None, Some(v)) => v,
                (None, None) => unreachable!("records refuses ? without a value"),
            };
            d.push(&pos, label, result.unwrap_or(f32::NAN));
            if let Some(m) = mirror.then(|| pos.file_mirror()).flatten() {
                d.push(&m, label, result.unwrap_or(f32::NAN));
            }
        }
        Ok(d)
    }

    /// Adds a position with its label and game result for White.
    pub fn push(&mut self, pos: &Chess, white_label: f32, white_result: f32) {
        let start = self.inputs.len() as u32;
        self.inputs.extend(white_inputs(pos).map(|i| i as u16));
        let white_to_move = pos.side_to_move() == Side::First;
        let kings = king_squares(pos).map(|sq| sq as u8);
        let base = match &self.base {
            None => 0.0,
            Some(strong) => strong.evaluate(pos) as f32 / CP_SCALE as f32,
        };
        self.samples.push(NetSample {
            base,
            start,
            len: (self.inputs.len() as u32 - start) as u8,
            white_to_move,
            kings,
            target: if white_to_move {
                white_label
            } else {
                1.0 - white_label
            },
            result: if white_to_move {
                white_result
            } else {
                1.0 - white_result
            },
        });
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn inputs(&self, s: &NetSample) -> &[u16] {
        &self.inputs[s.start as usize..s.start as usize + usize::from(s.len)]
    }
}

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
struct Scratch {
    acc: [Vec<f32>; 2],
    delta: [Vec<f32>; 2],
}

impl Scratch {
    fn new() -> Scratch {
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
    pub fn random(seed: u64, buckets: usize, king_buckets: usize) -> FloatNet {
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
    fn king_buckets(&self) -> usize {
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
    fn zero_like(&self) -> FloatNet {
        FloatNet::zero(self.buckets(), self.king_buckets())
    }

    /// Each view's first feature row: its king bucket's offset.
    fn bucket_rows(&self, x: &NetSample) -> [usize; 2] {
        let [white, black] = x.kings.map(usize::from);
        view_king_buckets(white, black, self.king_buckets()).map(|k| k * INPUTS)
    }

    fn buckets(&self) -> usize {
        self.out_b.len()
    }

    /// The output weights and bias of `x`'s bucket.
    fn bucket_of(&self, x: &NetSample) -> usize {
        output_bucket(u32::from(x.len), self.buckets())
    }

    fn add(&mut self, other: &FloatNet) {
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

    fn params(&mut self) -> impl Iterator<Item = &mut f32> {
        self.ft_w
            .iter_mut()
            .chain(&mut self.ft_shared)
            .chain(&mut self.ft_b)
            .chain(&mut self.out_w)
            .chain(&mut self.out_b)
    }

    /// Fills the hidden sums from White's view (`acc[0]`) and Black's (`acc[1]`); returns the
    /// output in units of [`CP_SCALE`] centipawns.
    fn forward(&self, inputs: &[u16], x: &NetSample, s: &mut Scratch) -> f32 {
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
    fn backward(
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

/// Training settings.
#[derive(Debug, Clone)]
pub struct NetConfig {
    pub epochs: u32,
    pub batch: usize,
    pub learning_rate: f32,
    /// The step size is multiplied by this once the epochs are this far through (0 to 1).
    pub drop_at: f32,
    pub drop: f32,
    pub k: f32,
    pub valid_percent: u32,
    pub threads: usize,
    pub seed: u64,
    /// Output buckets, by the number of pieces ([`output_bucket`]).
    pub buckets: usize,
    /// King buckets ([`king_bucket`]).
    pub king_buckets: usize,
    /// The weights to start from (of `buckets` buckets), instead of random ones.
    pub init: Option<FloatNet>,
}

/// Mean loss of `net` over `samples` against the labels and against the game results (of the
/// samples that have one), in parallel.
fn mean_loss(
    net: &FloatNet,
    data: &NetData,
    samples: &[NetSample],
    k: f32,
    threads: usize,
) -> (f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let (label, result, with_results) = std::thread::scope(|sc| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                sc.spawn(move || {
                    let mut s = Scratch::new();
                    part.iter().fold((0.0, 0.0, 0usize), |(l, r, n), x| {
                        let p =
                            expected(k, net.forward(data.inputs(x), x, &mut s) * CP_SCALE as f32);
                        let e = p - x.target;
                        if x.result.is_nan() {
                            return (l + f64::from(e * e), r, n);
                        }
                        let f = p - x.result;
                        (l + f64::from(e * e), r + f64::from(f * f), n + 1)
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .fold((0.0, 0.0, 0), |(a, b, m), (c, d, n)| (a + c, b + d, m + n))
    });
    (
        label / samples.len() as f64,
        result / with_results.max(1) as f64,
    )
}

/// Mean loss of the integer net (what the engine will see) over `samples`.
fn quantised_loss(net: &Network, data: &NetData, samples: &[NetSample], k: f32) -> f64 {
    let (mut total, mut n) = (0.0, 0usize);
    for x in samples {
        // Every recorded position is legal, so this skips nothing; a sample that cannot be
        // rebuilt only leaves this check's mean.
        let Some(pos) = rebuild(data.inputs(x), x.white_to_move) else {
            continue;
        };
        let v = net.evaluate(pos.board()) as f32 + x.base * CP_SCALE as f32;
        let e = expected(k, v) - x.target;
        total += f64::from(e * e);
        n += 1;
    }
    total / n.max(1) as f64
}

/// The position of a sample's pieces.
fn rebuild(inputs: &[u16], white_to_move: bool) -> Option<Chess> {
    position_from_inputs(inputs.iter().map(|&i| usize::from(i)), white_to_move)
}

/// What a training run reports.
pub struct NetResult {
    pub net: Network,
    /// The floating-point weights `net` was rounded from (the tests compare the two).
    #[cfg(test)]
    pub float: FloatNet,
    /// Validation loss against the labels before and after training.
    pub start_loss: f64,
    pub end_loss: f64,
    pub summary: String,
}

/// Trains a net from random weights; `report` gets a line per epoch. Without `held_out`, the
/// tail of the data (`valid_percent`) is held out, whole games together since a file keeps a
/// game's lines together.
/// With `held_out`, every position of `data` trains and `held_out`'s validate.
pub fn train(
    data: &NetData,
    held_out: Option<&NetData>,
    cfg: &NetConfig,
    mut report: impl FnMut(&str),
) -> NetResult {
    let (train, valid, vdata) = match held_out {
        Some(v) => (&data.samples[..], &v.samples[..], v),
        None => {
            let n_valid = data.len() * cfg.valid_percent as usize / 100;
            let (t, v) = data.samples.split_at(data.len() - n_valid);
            (t, v, data)
        }
    };
    let buckets = cfg.buckets.max(1);
    let mut net = match &cfg.init {
        Some(start) => {
            assert_eq!(
                (start.buckets(), start.king_buckets()),
                (buckets, cfg.king_buckets),
                "the starting net has the buckets asked for"
            );
            start.clone()
        }
        None => FloatNet::random(cfg.seed, buckets, cfg.king_buckets),
    };
    let mut m = net.zero_like();
    let mut v = net.zero_like();
    let threads = cfg.threads.max(1);
    let mut grads: Vec<FloatNet> = (0..threads).map(|_| net.zero_like()).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = SplitMix64::new(cfg.seed ^ 0x5EED);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let start_valid = mean_loss(&net, vdata, valid, cfg.k, threads);
    report(&format!(
        "epoch 0: validation loss {:.6} (results {:.6})",
        start_valid.0, start_valid.1
    ));
    for epoch in 1..=cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let lr = if epoch as f32 > cfg.drop_at * cfg.epochs as f32 {
            cfg.learning_rate * cfg.drop
        } else {
            cfg.learning_rate
        };
        let mut train_loss = 0.0f64;
        for batch in order.chunks(cfg.batch.max(1)) {
            let scale = 1.0 / batch.len() as f32;
            let part = batch.len().div_ceil(threads);
            let net_ref = &net;
            train_loss += std::thread::scope(|sc| {
                let handles: Vec<_> = batch
                    .chunks(part)
                    .zip(grads.iter_mut())
                    .map(|(ids, g)| {
                        sc.spawn(move || {
                            for x in g.params() {
                                *x = 0.0;
                            }
                            let mut s = Scratch::new();
                            ids.iter()
                                .map(|&id| {
                                    let x = &train[id as usize];
                                    let inputs = data.inputs(x);
                                    f64::from(net_ref.backward(x, inputs, cfg.k, scale, &mut s, g))
                                })
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("training thread"))
                    .sum::<f64>()
            });
            let used = batch.len().div_ceil(part);
            let (first, rest) = grads.split_at_mut(1);
            for g in &rest[..used - 1] {
                first[0].add(g);
            }
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for (((w, g), m), v) in net
                .params()
                .zip(first[0].params())
                .zip(m.params())
                .zip(v.params())
            {
                *m = beta1 * *m + (1.0 - beta1) * *g;
                *v = beta2 * *v + (1.0 - beta2) * *g * *g;
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
        let valid_loss = mean_loss(&net, vdata, valid, cfg.k, threads);
        report(&format!(
            "epoch {epoch}: training loss {:.6}, validation loss {:.6} (results {:.6}), step {lr}",
            train_loss / train.len().max(1) as f64,
            valid_loss.0,
            valid_loss.1
        ));
    }
    let base = if data.base.is_some() {
        Base::Strong
    } else {
        Base::None
    };
    let quantised = net.quantise(base);
    let float_valid = mean_loss(&net, vdata, valid, cfg.k, threads);
    let int_valid = quantised_loss(&quantised, vdata, valid, cfg.k);
    let summary = format!(
        "{} training and {} validation positions; validation loss at the end against the game \
         results {:.6}, {int_valid:.6} for the integer net against the labels\n",
        train.len(),
        valid.len(),
        float_valid.1
    );
    NetResult {
        net: quantised,
        #[cfg(test)]
        float: net,
        start_loss: start_valid.0,
        end_loss: float_valid.0,
        summary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::random_positions;
    use duel_chess::Material;
    use duel_core::Game;

    /// Labels that are a known function of the pieces (the material balance): the net must
    /// learn it (15 cp off on average where it is within six pawns, when this was written),
    /// the integer net must give what the float net gives, and a second run must give the
    /// same bytes.
    #[test]
    fn training_learns_material_and_rounding_keeps_it() {
        let k = 1.2;
        let positions = random_positions(20_000, 5);
        let mut data = NetData::default();
        for pos in &positions {
            let v = Material.evaluate(pos) as f32;
            let white = if pos.side_to_move() == Side::First {
                v
            } else {
                -v
            };
            data.push(pos, expected(k, white), 0.5);
        }
        let cfg = NetConfig {
            epochs: 30,
            batch: 256,
            learning_rate: 0.003,
            drop_at: 0.8,
            drop: 0.1,
            k,
            valid_percent: 10,
            threads: 2,
            seed: 1,
            // Several buckets, so the float and integer nets must pick the same one.
            buckets: 4,
            king_buckets: 1,
            init: None,
        };
        let r = train(&data, None, &cfg, |_| {});
        assert!(
            r.end_loss < r.start_loss / 10.0,
            "validation loss {} -> {}",
            r.start_loss,
            r.end_loss
        );
        let mut s = Scratch::new();
        let (mut total, mut worst) = (0.0f32, 0.0f32);
        let (mut off, mut near_level) = (0.0f32, 0usize);
        let first_held_out = data.len() * 9 / 10;
        let held_out = &data.samples[first_held_out..];
        for (x, pos) in held_out.iter().zip(&positions[first_held_out..]) {
            let rebuilt = rebuild(data.inputs(x), x.white_to_move).expect("a legal position");
            let float = r.float.forward(data.inputs(x), x, &mut s) * CP_SCALE as f32;
            let int = r.net.evaluate(rebuilt.board()) as f32;
            let diff = (int - float).abs();
            total += diff;
            worst = worst.max(diff);
            // Where the sigmoid still tells values apart, the net must give the material.
            let material = Material.evaluate(pos) as f32;
            if material.abs() <= 600.0 {
                off += (int - material).abs();
                near_level += 1;
            }
        }
        let off = off / near_level.max(1) as f32;
        assert!(
            near_level > 100 && off < 40.0,
            "{near_level} positions, {off} cp off the material"
        );
        let mean = total / held_out.len() as f32;
        assert!(
            mean < 3.0 && worst < 20.0,
            "integer against float: mean {mean} cp, worst {worst} cp"
        );
        let again = train(&data, None, &cfg, |_| {});
        assert_eq!(again.net, r.net);
    }

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

    /// A training of four king buckets started from a net of one starts as that net: every
    /// bucket's rows are the old rows, so the engine's net gives the old values on any board,
    /// wherever the kings stand; training then moves each bucket apart, and the engine's
    /// incremental sums (a king changing bucket rebuilds its view) still agree with a rebuild.
    #[test]
    fn king_buckets_start_as_the_net_they_start_from() {
        // The shipped net's first set of feature rows alone: a net of one king bucket.
        let (ft_w, ft_b, out_w, out_b) = Network::shipped().parts();
        let one = Network::from_parts(
            Network::shipped().base(),
            ft_w[..INPUTS * HIDDEN].to_vec(),
            ft_b.to_vec(),
            out_w.to_vec(),
            out_b.to_vec(),
        )
        .unwrap();
        let shipped = &one;
        let float = FloatNet::start_from(shipped, shipped.buckets(), 4, shipped.base())
            .expect("one king bucket may start four");
        let net = float.quantise(shipped.base());
        assert_eq!(net.king_buckets(), 4);
        let back = Network::from_bytes(&net.to_bytes()).expect("a version 3 file reads back");
        assert_eq!(back, net);
        let positions = random_positions(300, 11);
        for pos in &positions {
            assert_eq!(net.evaluate(pos.board()), shipped.evaluate(pos.board()));
        }
        let err = FloatNet::start_from(&net, net.buckets(), 1, net.base())
            .expect_err("four king buckets cannot start one")
            .to_string();
        assert!(err.contains("king buckets"), "{err}");

        // A short training on the positions' material moves the buckets apart.
        let mut data = NetData::default();
        for pos in &positions {
            let v = Material.evaluate(pos) as f32;
            let white = if pos.side_to_move() == Side::First {
                v
            } else {
                -v
            };
            data.push(pos, expected(1.2, white), 0.5);
        }
        let cfg = NetConfig {
            epochs: 2,
            batch: 64,
            learning_rate: 0.003,
            drop_at: 1.0,
            drop: 1.0,
            k: 1.2,
            valid_percent: 10,
            threads: 1,
            seed: 3,
            buckets: shipped.buckets(),
            king_buckets: 4,
            init: Some(float),
        };
        let trained = train(&data, None, &cfg, |_| {}).net;
        let (ft, ..) = trained.parts();
        let set = INPUTS * HIDDEN;
        assert!((1..4).any(|k| ft[..set] != ft[k * set..(k + 1) * set]));
        // Incremental sums against rebuilt ones: random games evaluated move after move (kings
        // walking between buckets, castling), then each board again by a new copy of the net,
        // which has no sums to start from.
        let mut rng = SplitMix64::new(5);
        let (mut boards, mut moves) = (Vec::new(), Vec::new());
        for _ in 0..20 {
            let mut pos = Chess::start();
            for _ in 0..150 {
                if pos.outcome().is_some() {
                    break;
                }
                boards.push(pos.board().clone());
                pos.generate_moves(&mut moves);
                pos.play(moves[rng.below(moves.len())]);
            }
        }
        let incremental: Vec<i32> = boards.iter().map(|b| trained.evaluate(b)).collect();
        let bytes = trained.to_bytes();
        for (b, v) in boards.iter().zip(incremental) {
            let fresh = Network::from_bytes(&bytes).unwrap();
            assert_eq!(v, fresh.evaluate(b), "{b}");
        }
        let mut changed = 0;
        for pos in positions.iter().take(100) {
            changed += usize::from(trained.evaluate(pos.board()) != shipped.evaluate(pos.board()));
        }
        assert!(changed > 50, "only {changed} of 100 values moved");
    }

    /// `--mirror` adds the left-right mirror of each position without castling rights, with
    /// its label, and only of those: a net then values a position and its mirror alike.
    #[test]
    fn mirrored_positions_are_added_only_without_castling_rights() {
        let text = "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1;1;40\n\
                    4k3/1p6/8/8/8/8/6P1/R3K3 b - - 0 1;0.5;-25\n";
        let plain = NetData::parse(text, 1.2, 0.5, Base::None, false).unwrap();
        let data = NetData::parse(text, 1.2, 0.5, Base::None, true).unwrap();
        assert_eq!((plain.len(), data.len()), (2, 3));
        let (x, m) = (data.samples[1], data.samples[2]);
        assert_eq!(
            (x.target, x.result, x.white_to_move),
            (m.target, m.result, m.white_to_move)
        );
        // The mirror's pieces are the position's with each file reflected (a square's index
        // XOR 7), in a board's order.
        let mut reflected: Vec<u16> = data.inputs(&x).iter().map(|&i| i ^ 7).collect();
        let mut inputs = data.inputs(&m).to_vec();
        reflected.sort_unstable();
        inputs.sort_unstable();
        assert_eq!(reflected, inputs);
        let pos = Chess::from_text("3k4/6p1/8/8/8/8/1P6/3K3R b - - 0 1").unwrap();
        assert_eq!(pos.file_mirror().unwrap().file_mirror(), Some(pos.clone()));
        let castling = Chess::from_text("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1").unwrap();
        assert_eq!(castling.file_mirror(), None);
    }

    #[test]
    fn bad_data_lines_are_errors() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let ok = format!("{fen};0.5;12\n{fen};?;-30");
        assert_eq!(
            NetData::parse(&ok, 1.2, 0.5, Base::None, false)
                .unwrap()
                .len(),
            2
        );
        for (line, what) in [
            (fen.to_string(), "expected FEN;result"),
            (format!("{fen};2;0"), "result must be"),
            (format!("{fen};?"), "needs a value"),
            (format!("{fen};1;x"), "value must be"),
            (format!("{fen};1;0;0"), "at most three"),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1;1;0".to_string(),
                "FEN",
            ),
        ] {
            let e = NetData::parse(&format!("{ok}\n{line}"), 1.2, 0.5, Base::None, false)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("line 3:") && e.contains(what), "{line}: {e}");
        }
    }
}
