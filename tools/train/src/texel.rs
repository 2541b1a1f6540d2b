//! What Texel's method needs whatever the game: the expected score of a value, the scale K
//! that best maps values to results, and full-batch Adam on the weights.

/// ln 10 / 400: the derivative of [`sigmoid`]'s exponent.
pub const LN10_400: f64 = std::f64::consts::LN_10 / 400.0;

/// Texel's expected score of a value `kq` (already scaled by K), in the evaluation's units:
/// 400 of them a factor of ten in the odds, as Elo.
pub fn sigmoid(kq: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-kq / 400.0))
}

/// The K in `lo..hi` minimising `loss` (golden-section search: the loss is unimodal in K).
pub fn best_k(lo: f64, hi: f64, loss: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (lo, hi);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// How [`adam`] runs.
#[derive(Debug, Clone, Copy)]
pub struct Adam {
    /// Passes over the data.
    pub epochs: u32,
    /// The first step size, in the weights' units.
    pub learning_rate: f64,
    /// L2 penalty `λ·Σ(w − w_start)²` added to the loss.
    pub lambda: f64,
    /// The losses are logged every this many epochs, and after the last.
    pub log_every: u32,
}

/// Full-batch Adam from `w`: `gradient` fills in the loss's gradient at the weights it is
/// given; `losses` gives the training and validation losses that `log` sees now and then.
pub fn adam(
    w: &mut [f64],
    cfg: &Adam,
    mut gradient: impl FnMut(&[f64], &mut [f64]),
    losses: impl Fn(&[f64]) -> (f64, f64),
    mut log: impl FnMut(&str),
) {
    let w0 = w.to_vec();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut grad = vec![0.0; w.len()];
    for epoch in 1..=cfg.epochs {
        gradient(w, &mut grad);
        for j in 0..w.len() {
            grad[j] += 2.0 * cfg.lambda * (w[j] - w0[j]);
        }
        // The step shrinks to a tenth by the end, to settle rather than circle the minimum.
        let lr = cfg.learning_rate * (1.0 - 0.9 * f64::from(epoch - 1) / f64::from(cfg.epochs));
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for j in 0..w.len() {
            m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
            v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
            if v[j] > 0.0 {
                w[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
            }
        }
        if epoch % cfg.log_every.max(1) == 0 || epoch == cfg.epochs {
            let (train, valid) = losses(w);
            log(&format!(
                "epoch {epoch}: train loss {train:.6}, validation loss {valid:.6}"
            ));
        }
    }
}

/// Weights given as a (first, second) pair per feature, `n` features, as the fit's floats.
pub fn pairs_to_floats(n: usize, get: impl Fn(usize) -> [i32; 2]) -> Vec<f64> {
    (0..n).flat_map(|i| get(i).map(f64::from)).collect()
}

/// The fit's floats rounded back to a pair per feature, handed to `set` by index.
pub fn floats_to_pairs(w: &[f64], mut set: impl FnMut(usize, [i32; 2])) {
    for (i, p) in w.chunks_exact(2).enumerate() {
        set(i, [p[0].round() as i32, p[1].round() as i32]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_finds_a_quadratics_minimum_and_k_a_parabolas() {
        let mut w = vec![0.0, 0.0];
        let cfg = Adam {
            epochs: 2000,
            learning_rate: 0.5,
            lambda: 0.0,
            log_every: 500,
        };
        let mut lines = 0;
        adam(
            &mut w,
            &cfg,
            |w, g| {
                g[0] = 2.0 * (w[0] - 3.0);
                g[1] = 2.0 * (w[1] + 1.0);
            },
            |_| (0.0, 0.0),
            |_| lines += 1,
        );
        assert_eq!(lines, 4);
        let mut back = [[0; 2]; 1];
        floats_to_pairs(&[1.4, -2.6], |i, p| back[i] = p);
        assert_eq!(back, [[1, -3]]);
        assert_eq!(pairs_to_floats(1, |_| [1, -3]), vec![1.0, -3.0]);
        assert!(
            (w[0] - 3.0).abs() < 0.01 && (w[1] + 1.0).abs() < 0.01,
            "{w:?}"
        );
        assert!((best_k(0.0, 5.0, |k| (k - 1.5).powi(2)) - 1.5).abs() < 1e-6);
        assert!((sigmoid(0.0) - 0.5).abs() < 1e-12);
    }
}
