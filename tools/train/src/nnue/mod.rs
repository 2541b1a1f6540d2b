//! Training chess's [`duel_chess::nnue::Net`] on `chess-gen` files: floating-point weights,
//! full sparse back-propagation and Adam on minibatches, then the integer weights the engine
//! runs. The loss is Texel's: the squared gap between the label and σ(K·value/400), the
//! same sigmoid and K as the Strong fit, so the net's centipawns are on the scale the search's
//! margins were tuned for.
//!
//! [`data`] reads the labelled positions, [`net`] is the floating-point net and its passes,
//! [`train`](mod@train) runs the training.

mod data;
mod net;
mod train;

pub use data::NetData;
pub use net::FloatNet;
pub use train::{train, NetConfig};

const LN10: f32 = std::f32::consts::LN_10;

/// Texel's expected score of a value `v` in centipawns at scale `k`.
fn expected(k: f32, v: f32) -> f32 {
    1.0 / (1.0 + (-k * LN10 * v / 400.0).exp())
}
