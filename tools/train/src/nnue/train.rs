//! The training: minibatch gradients on several threads, Adam, the validation losses, and
//! what a run reports.

use duel_chess::nnue::{position_from_inputs, Base, Network, CP_SCALE};
use duel_chess::Chess;
use duel_core::SplitMix64;

use super::data::{NetData, NetSample};
use super::expected;
use super::net::{FloatNet, Scratch};

/// The trainer keeps every weight within this bound, so the integer net's products fit
/// (see `Network::screlu_dot`).
const WEIGHT_CLIP: f32 = 1.98;

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
    let mut adam = Adam::new(&net);
    let threads = cfg.threads.max(1);
    let mut grads: Vec<FloatNet> = (0..threads).map(|_| net.zero_like()).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = SplitMix64::new(cfg.seed ^ 0x5EED);
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
            let samples = Batch {
                data,
                train,
                ids: batch,
            };
            train_loss += samples.gradient(&net, cfg.k, &mut grads);
            adam.step(&mut net, &grads[0], lr);
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

/// One minibatch: the training samples `ids` names.
struct Batch<'a> {
    data: &'a NetData,
    train: &'a [NetSample],
    ids: &'a [u32],
}

impl Batch<'_> {
    /// The batch's mean gradient of `net`, into `grads[0]` (the other entries are the threads'
    /// work space), its parts computed side by side, one thread each; returns the batch's
    /// summed loss.
    fn gradient(&self, net: &FloatNet, k: f32, grads: &mut [FloatNet]) -> f64 {
        let (data, train) = (self.data, self.train);
        let scale = 1.0 / self.ids.len() as f32;
        let part = self.ids.len().div_ceil(grads.len());
        let loss = std::thread::scope(|sc| {
            let handles: Vec<_> = self
                .ids
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
                                f64::from(net.backward(x, inputs, k, scale, &mut s, g))
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
        let used = self.ids.len().div_ceil(part);
        let (first, rest) = grads.split_at_mut(1);
        for g in &rest[..used - 1] {
            first[0].add(g);
        }
        loss
    }
}

/// Adam's state: the moments of every weight, and the steps taken.
struct Adam {
    m: FloatNet,
    v: FloatNet,
    step: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPS: f32 = 1e-8;

    fn new(net: &FloatNet) -> Adam {
        Adam {
            m: net.zero_like(),
            v: net.zero_like(),
            step: 0,
        }
    }

    /// Moves `net` by one step of size `lr` along the gradient `grad`, every weight kept
    /// within ±`WEIGHT_CLIP`.
    fn step(&mut self, net: &mut FloatNet, grad: &FloatNet, lr: f32) {
        let (beta1, beta2, eps) = (Self::BETA1, Self::BETA2, Self::EPS);
        self.step += 1;
        let (c1, c2) = (1.0 - beta1.powi(self.step), 1.0 - beta2.powi(self.step));
        for (((w, g), m), v) in net
            .params()
            .zip(grad.values())
            .zip(self.m.params())
            .zip(self.v.params())
        {
            *m = beta1 * *m + (1.0 - beta1) * *g;
            *v = beta2 * *v + (1.0 - beta2) * *g * *g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

#[cfg(test)]
mod tests {
    use duel_chess::nnue::{HIDDEN, INPUTS};
    use duel_chess::Material;
    use duel_core::{Evaluator, Game, Side};

    use super::*;
    use crate::chess::random_positions;

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
}
