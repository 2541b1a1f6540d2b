//! [`Net`], a learnt evaluation: a network of one hidden layer over the 768 piece-on-square
//! inputs, the shape of Stockfish's NNUE reduced to its simplest form ("768→H×2→1"):
//!
//! - a feature transformer, shared by both sides, turns the pieces into H sums, once from
//!   White's view and once from Black's (the board flipped and the colours swapped), so a
//!   position and its mirror get the same value by construction;
//! - the side to move's sums, then the other side's, pass through a squared clipped ReLU
//!   (`clamp(x, 0, 1)²`) into one weighted sum: the value, in centipawns. A net may have
//!   several sets of output weights ("output buckets", by the number of pieces on the board),
//!   so an endgame weighs the same hidden units otherwise than the opening does, at no cost
//!   per evaluation but the choice of the set.
//! - A net may also have several sets of feature weights ("king buckets", [`king_bucket`]):
//!   each view adds the rows of the set its own king's square picks, so a piece near a castled
//!   king can weigh otherwise than the same piece near a king in the centre. The cost is a
//!   rebuild of the sums when a king changes bucket, which is rare.
//!
//! The weights are trained by `duel-train chess-nnue` on duel's own self-play (`nets/README.md`)
//! and stored as integers, the way NNUE engines run them: feature weights scaled by
//! [`QA`], output weights by [`QB`], so the whole evaluation is integer arithmetic the
//! compiler vectorises.
//!
//! The hidden sums are updated, not rebuilt: each thread keeps the last board it evaluated
//! and its sums, and the next evaluation subtracts the rows of the pieces that left a square
//! and adds those that arrived. Consecutive evaluations in a search are a move or two apart,
//! so that is a handful of rows against one per piece, and the search needs no bookkeeping
//! in its move loop. The arithmetic wraps like the full rebuild's, so both give the same
//! sums bit for bit.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use cozy_chess::{BitBoard, Board, Color, Piece};
use duel_core::Evaluator;

use crate::{Chess, Strong};

/// Hidden units per side.
pub const HIDDEN: usize = 128;
/// Inputs: colour (own, other) × piece × square.
pub const INPUTS: usize = 768;
/// Scale of the feature transformer's weights and of the clipped activations.
pub const QA: i32 = 255;
/// Scale of the output weights. Finer than the 64 of most NNUE engines, whose SIMD code
/// multiplies 16-bit lanes: at 64 the rounding moved values by 4 cp on average; the sum here
/// is taken in 64 bits instead.
pub const QB: i32 = 1024;
/// The largest output weight, either way: `screlu_dot` sums sixteen output terms in 32 bits,
/// which holds only below twice [`QB`].
pub const MAX_OUT_WEIGHT: i32 = 2 * QB - 1;
/// Centipawns per unit of the network's output.
pub const CP_SCALE: i32 = 400;

const MAGIC: &[u8; 8] = b"duelnnue";
/// Version 2 adds the number of output buckets to version 1's header (one bucket).
const VERSION: u32 = 2;
/// Version 3 adds the number of king buckets to version 2's; a net of one king bucket is
/// still written as version 2, so the nets made before king buckets keep their bytes.
const VERSION_KINGS: u32 = 3;
/// At most one bucket per piece count (2 to 32 pieces).
pub const MAX_BUCKETS: usize = 31;
/// The king-bucket counts a net may have ([`king_bucket`]).
pub const KING_BUCKETS: [usize; 2] = [1, 4];

/// The bytes of a net file of this build's hidden size with `buckets` output buckets and
/// `king_buckets` king buckets.
pub const fn file_bytes(buckets: usize, king_buckets: usize) -> usize {
    let header = if king_buckets == 1 { 24 } else { 28 };
    header + 2 * (king_buckets * INPUTS * HIDDEN + HIDDEN) + buckets * (2 * 2 * HIDDEN + 4)
}

/// The king bucket of a view whose own king stands on `sq` (0 = a1, seen from that view, so
/// its back rank is rank 1), among `king_buckets`. With four: the king on its first two ranks
/// on the queen's side (files a–c), in the centre (d, e) or on the king's side (f–h), and
/// the king further up. Each bucket has its own feature weights, so the same pieces can count
/// otherwise round a castled king than round one in the centre or one walking up in an
/// ending: the hidden sums see the king's shelter and the attackers near it together.
pub fn king_bucket(sq: usize, king_buckets: usize) -> usize {
    if king_buckets == 1 {
        return 0;
    }
    if sq >= 16 {
        return 3;
    }
    match sq % 8 {
        0..=2 => 0,
        3 | 4 => 1,
        _ => 2,
    }
}

/// Each view's king bucket (White's, then Black's) with the kings on `white_king` and
/// `black_king` (0 = a1, as the board has them): Black's view sees its king with the board
/// flipped, as [`input_index`] sees its pieces.
pub fn view_king_buckets(white_king: usize, black_king: usize, king_buckets: usize) -> [usize; 2] {
    [
        king_bucket(white_king, king_buckets),
        king_bucket(black_king ^ 56, king_buckets),
    ]
}

/// The output bucket of a board with `pieces` pieces (kings included) among `buckets`: equal
/// ranges of the piece count from 2 to 32, so 8 buckets are 2–5, 6–9, …, 30–32 pieces.
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    ((pieces.saturating_sub(2) as usize) * buckets / 32).min(buckets.saturating_sub(1))
}

/// What the network's output is added to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// Nothing: the network is the whole evaluation.
    None = 0,
    /// [`Strong`]'s value: the network learns what the hand-written terms miss.
    Strong = 1,
}

/// Why a net file or a net's parts were refused: each names what this build expected.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The file does not start as a duel net file does.
    #[error("not a duel net file (it must start with \"duelnnue\")")]
    NotANet,
    /// A file version this build does not read.
    #[error("net file version {0}, this build reads versions 1 to {VERSION_KINGS}")]
    Version(u32),
    /// The file ends inside its header.
    #[error("net file of {0} bytes, too short for its version's header")]
    ShortHeader(usize),
    /// Another hidden size than this build's.
    #[error("net of {0} hidden units, this build has {HIDDEN}")]
    Hidden(u32),
    /// An output bucket count out of range.
    #[error("net of {0} output buckets: 1 to {MAX_BUCKETS} are possible")]
    OutputBuckets(usize),
    /// A king bucket count out of [`KING_BUCKETS`].
    #[error("net of {0} king buckets: {KING_BUCKETS:?} are possible")]
    KingBuckets(usize),
    /// The file's length is not what its header announces.
    #[error(
        "net file of {bytes} bytes, a net of {HIDDEN} hidden units, {buckets} output buckets \
         and {king_buckets} king buckets has {size}"
    )]
    Length {
        /// The file's length.
        bytes: usize,
        /// Its output buckets.
        buckets: usize,
        /// Its king buckets.
        king_buckets: usize,
        /// The length those make.
        size: usize,
    },
    /// A base this build does not know.
    #[error("net file base {0}: 0 (none) and 1 (strong) are known")]
    Base(u32),
    /// Feature weights that are no whole number of king buckets' sets.
    #[error(
        "net of {len} feature weights: {} (one set per king bucket, {KING_BUCKETS:?} buckets) \
         are possible",
        KING_BUCKETS.map(|k| (k * INPUTS * HIDDEN).to_string()).join(" or ")
    )]
    FeatureWeights {
        /// The feature weights given.
        len: usize,
    },
    /// Layers of other sizes than the bucket counts make.
    #[error("a net of this build has {want:?} weights per layer, these parts have {got:?}")]
    Shape {
        /// The feature weights, feature biases and output weights expected.
        want: [usize; 3],
        /// Those given.
        got: [usize; 3],
    },
    /// An output weight too large for the integer sums.
    #[error("output weight {0} is out of range: duel's nets keep them within ±{MAX_OUT_WEIGHT}")]
    OutputWeight(i16),
}

/// The net shipped with duel.
static DEFAULT_NET: &[u8] = include_bytes!("../nets/default.nnue");

/// The input index of a piece of `color` on square `sq` (0 = a1) seen from `view`'s side:
/// own pieces first, and the board flipped for Black so every view sees itself moving up.
pub fn input_index(view: Color, color: Color, piece: usize, sq: usize) -> usize {
    let (side, sq) = match view {
        Color::White => (usize::from(color != Color::White), sq),
        Color::Black => (usize::from(color != Color::Black), sq ^ 56),
    };
    side * 384 + piece * 64 + sq
}

/// Every piece of `board` as (colour, piece, square), White's first, then by piece and square:
/// the order the sums are built in.
fn pieces_of(board: &Board) -> impl Iterator<Item = (Color, usize, usize)> + '_ {
    [Color::White, Color::Black].into_iter().flat_map(move |c| {
        Piece::ALL.into_iter().flat_map(move |p| {
            board
                .colored_pieces(c, p)
                .into_iter()
                .map(move |sq| (c, p as usize, sq as usize))
        })
    })
}

/// The White-view input of every piece of `pos` ([`input_index`] from White's side), in the
/// order the sums are built in: what a trainer keeps of a position.
pub fn white_inputs(pos: &Chess) -> impl Iterator<Item = usize> + '_ {
    pieces_of(pos.board()).map(|(c, p, sq)| input_index(Color::White, c, p, sq))
}

/// The squares of White's king and of Black's (0 = a1), which pick the views' king buckets
/// ([`view_king_buckets`]).
pub fn king_squares(pos: &Chess) -> [usize; 2] {
    [Color::White, Color::Black].map(|c| pos.board().king(c) as usize)
}

/// The position of the pieces of White-view `inputs` (as [`white_inputs`] gives them) with
/// White or Black to move, without castling rights or an en-passant square, which the net
/// does not see; None when that is no legal position.
pub fn position_from_inputs(
    inputs: impl IntoIterator<Item = usize>,
    white_to_move: bool,
) -> Option<Chess> {
    let mut b = cozy_chess::BoardBuilder::empty();
    for i in inputs {
        let color = if i < 384 { Color::White } else { Color::Black };
        let piece = Piece::index((i % 384) / 64);
        *b.square_mut(cozy_chess::Square::index(i % 64)) = Some((piece, color));
    }
    b.side_to_move = if white_to_move {
        Color::White
    } else {
        Color::Black
    };
    b.build().ok().map(Chess::from_board)
}

/// The quantised weights.
#[derive(Debug, Clone)]
pub struct Network {
    /// Names these weights in the per-thread sums cache; clones share it, as they share
    /// the weights.
    id: u64,
    base: Base,
    /// Row `k·INPUTS + i` (HIDDEN values) is input `i`'s contribution to every hidden sum of a
    /// view whose king is in king bucket `k`.
    ft_weights: Vec<i16>,
    king_buckets: usize,
    ft_bias: Vec<i16>,
    /// Per output bucket: the side to move's HIDDEN weights, then the other side's.
    out_weights: Vec<i16>,
    /// One per output bucket.
    out_bias: Vec<i32>,
}

/// Networks are equal when their weights are.
impl PartialEq for Network {
    fn eq(&self, other: &Network) -> bool {
        (
            self.base,
            &self.ft_weights,
            &self.ft_bias,
            &self.out_weights,
            &self.out_bias,
        ) == (
            other.base,
            &other.ft_weights,
            &other.ft_bias,
            &other.out_weights,
            &other.out_bias,
        )
    }
}

impl Eq for Network {}

impl Network {
    /// A network from its parts, already scaled (`duel-train` builds them from floats); one
    /// output bias per bucket.
    pub fn from_parts(
        base: Base,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        let buckets = out_bias.len();
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetError::OutputBuckets(buckets));
        }
        // The king buckets are as many as the feature weights have sets of rows.
        let king_buckets = ft_weights.len() / (INPUTS * HIDDEN);
        if !KING_BUCKETS.contains(&king_buckets) {
            return Err(NetError::FeatureWeights {
                len: ft_weights.len(),
            });
        }
        let want = [king_buckets * INPUTS * HIDDEN, HIDDEN, buckets * 2 * HIDDEN];
        let got = [ft_weights.len(), ft_bias.len(), out_weights.len()];
        if want != got {
            return Err(NetError::Shape { want, got });
        }
        // `screlu_dot` sums sixteen output terms in 32 bits, which holds only below this bound
        // (the trainer clips below it); past it the value would wrap silently.
        if let Some(&w) = out_weights
            .iter()
            .find(|w| i32::from(**w).abs() > MAX_OUT_WEIGHT)
        {
            return Err(NetError::OutputWeight(w));
        }
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        Ok(Network {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            base,
            ft_weights,
            king_buckets,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// The scaled weights, as [`Network::from_parts`] takes them: the transformer's weights
    /// and biases, the output weights and the output biases (`duel-train --init` starts a
    /// training from them).
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (
            &self.ft_weights,
            &self.ft_bias,
            &self.out_weights,
            &self.out_bias,
        )
    }

    /// What the output is added to.
    pub fn base(&self) -> Base {
        self.base
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The number of king buckets ([`king_bucket`]).
    pub fn king_buckets(&self) -> usize {
        self.king_buckets
    }

    /// Reads a net file: `duelnnue`, version, hidden size, base, output buckets, king buckets
    /// (little-endian u32; version 1 has no bucket count and one bucket, version 2 no king
    /// bucket count and one king bucket), then the feature weights, feature biases and output
    /// weights as little-endian i16 and the output biases as i32.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 20 || &bytes[..8] != MAGIC {
            return Err(NetError::NotANet);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (version, hidden, base) = (word(8), word(12), word(16));
        let (buckets, king_buckets, header) = match version {
            1 => (1, 1, 20),
            VERSION if bytes.len() >= 24 => (word(20) as usize, 1, 24),
            VERSION_KINGS if bytes.len() >= 28 => (word(20) as usize, word(24) as usize, 28),
            VERSION | VERSION_KINGS => return Err(NetError::ShortHeader(bytes.len())),
            _ => return Err(NetError::Version(version)),
        };
        if hidden as usize != HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetError::OutputBuckets(buckets));
        }
        if !KING_BUCKETS.contains(&king_buckets) {
            return Err(NetError::KingBuckets(king_buckets));
        }
        // `file_bytes` counts the header its own version writes.
        let own_header = if king_buckets == 1 { 24 } else { 28 };
        let size = file_bytes(buckets, king_buckets) - own_header + header;
        if bytes.len() != size {
            return Err(NetError::Length {
                bytes: bytes.len(),
                buckets,
                king_buckets,
                size,
            });
        }
        let base = match base {
            0 => Base::None,
            1 => Base::Strong,
            b => return Err(NetError::Base(b)),
        };
        let mut at = header;
        let mut take = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_weights = take(king_buckets * INPUTS * HIDDEN);
        let ft_bias = take(HIDDEN);
        let out_weights = take(buckets * 2 * HIDDEN);
        let out_bias = (0..buckets).map(|b| word(at + 4 * b) as i32).collect();
        Network::from_parts(base, ft_weights, ft_bias, out_weights, out_bias)
    }

    /// Reads a net file from disk: why it cannot be read, or [`Network::from_bytes`]'s reason.
    pub fn read(path: &std::path::Path) -> Result<Network, NetError> {
        Network::from_bytes(&std::fs::read(path)?)
    }

    /// The net file's bytes, in the current version ([`Network::from_bytes`] reads them
    /// back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_bytes(self.buckets(), self.king_buckets));
        out.extend_from_slice(MAGIC);
        let version = if self.king_buckets == 1 {
            VERSION
        } else {
            VERSION_KINGS
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&(self.base as u32).to_le_bytes());
        out.extend_from_slice(&(self.buckets() as u32).to_le_bytes());
        if self.king_buckets > 1 {
            out.extend_from_slice(&(self.king_buckets as u32).to_le_bytes());
        }
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The net shipped with duel.
    pub fn shipped() -> &'static Network {
        static NET: OnceLock<Network> = OnceLock::new();
        NET.get_or_init(|| Network::from_bytes(DEFAULT_NET).expect("the shipped net file is valid"))
    }

    fn row(&self, input: usize) -> &[i16] {
        &self.ft_weights[input * HIDDEN..(input + 1) * HIDDEN]
    }

    fn add_row(&self, acc: &mut [i16; HIDDEN], input: usize) {
        for (a, w) in acc.iter_mut().zip(self.row(input)) {
            *a = a.wrapping_add(*w);
        }
    }

    fn sub_row(&self, acc: &mut [i16; HIDDEN], input: usize) {
        for (a, w) in acc.iter_mut().zip(self.row(input)) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// Each view's king bucket, from the pieces by colour and kind.
    fn view_buckets(&self, pieces: &[[BitBoard; 6]; 2]) -> [usize; 2] {
        let king = |c: usize| {
            pieces[c][Piece::King as usize]
                .next_square()
                .map_or(0, |sq| sq as usize)
        };
        view_king_buckets(king(0), king(1), self.king_buckets)
    }

    /// Adds (`add`) or removes a piece in both views' sums, whose king buckets are `kings`.
    fn toggle(
        &self,
        acc: &mut [[i16; HIDDEN]; 2],
        kings: [usize; 2],
        color: Color,
        piece: usize,
        sq: usize,
        add: bool,
    ) {
        let white = kings[0] * INPUTS + input_index(Color::White, color, piece, sq);
        let black = kings[1] * INPUTS + input_index(Color::Black, color, piece, sq);
        if add {
            self.add_row(&mut acc[0], white);
            self.add_row(&mut acc[1], black);
        } else {
            self.sub_row(&mut acc[0], white);
            self.sub_row(&mut acc[1], black);
        }
    }

    /// The hidden sums from White's view and from Black's.
    pub fn accumulate(&self, board: &cozy_chess::Board) -> [[i16; HIDDEN]; 2] {
        let mut acc = [[0i16; HIDDEN]; 2];
        for a in &mut acc {
            a.copy_from_slice(&self.ft_bias);
        }
        let kings = view_king_buckets(
            board.king(Color::White) as usize,
            board.king(Color::Black) as usize,
            self.king_buckets,
        );
        for (color, piece, sq) in pieces_of(board) {
            self.toggle(&mut acc, kings, color, piece, sq, true);
        }
        acc
    }

    /// [`Network::accumulate`], from the sums of the last board this thread evaluated with
    /// these weights when that is cheaper, and `f` of them.
    fn with_sums<R>(
        &self,
        board: &cozy_chess::Board,
        f: impl FnOnce(&[[i16; HIDDEN]; 2]) -> R,
    ) -> R {
        thread_local! {
            static LAST: RefCell<Option<Sums>> = const { RefCell::new(None) };
        }
        LAST.with_borrow_mut(|last| {
            let pieces = Sums::pieces(board);
            let updated = match last {
                Some(sums) => sums.net == self.id && sums.update(self, &pieces),
                None => false,
            };
            if !updated {
                *last = Some(Sums {
                    net: self.id,
                    pieces,
                    acc: self.accumulate(board),
                });
            }
            f(&last.as_ref().expect("just filled").acc)
        })
    }

    /// `Σ clamp(a, 0, QA)² · w` over one side's sums. One term is at most QA²·2·QB < 2³¹/16
    /// (the trainer keeps |w| < 2·QB), so sixteen of them are summed in 32-bit lanes, which
    /// the compiler vectorises, and only those partial sums in 64 bits.
    fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16]) -> i64 {
        acc.chunks_exact(16)
            .zip(weights.chunks_exact(16))
            .map(|(a, w)| {
                let part: i32 = a
                    .iter()
                    .zip(w)
                    .map(|(&a, &w)| {
                        let c = i32::from(a).clamp(0, QA);
                        c * i32::from(w) * c
                    })
                    .sum();
                i64::from(part)
            })
            .sum()
    }

    /// The network's own output in centipawns for the side to move (without its base).
    pub fn evaluate(&self, board: &cozy_chess::Board) -> i32 {
        let (us, them) = match board.side_to_move() {
            Color::White => (0, 1),
            Color::Black => (1, 0),
        };
        let bucket = output_bucket(board.occupied().len(), self.buckets());
        let weights = &self.out_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let sum = self.with_sums(board, |acc| {
            Self::screlu_dot(&acc[us], &weights[..HIDDEN])
                + Self::screlu_dot(&acc[them], &weights[HIDDEN..])
        });
        // The activations carry QA², the bias QA·QB: one division at the end rounds once.
        let (qa, qb) = (i64::from(QA), i64::from(QB));
        let out = sum + i64::from(self.out_bias[bucket]) * qa;
        (out * i64::from(CP_SCALE) / (qa * qa * qb)) as i32
    }
}

/// A board's pieces and the hidden sums they give, kept to update the next board's from.
struct Sums {
    net: u64,
    /// Indexed by colour, then piece.
    pieces: [[BitBoard; 6]; 2],
    acc: [[i16; HIDDEN]; 2],
}

impl Sums {
    /// Past this many changed squares a rebuild (one row per piece and view) is as cheap.
    const MAX_CHANGES: u32 = 12;

    fn pieces(board: &cozy_chess::Board) -> [[BitBoard; 6]; 2] {
        [Color::White, Color::Black].map(|c| Piece::ALL.map(|p| board.colored_pieces(c, p)))
    }

    /// Moves the sums to `pieces`, unless too much changed or a king changed bucket (every row
    /// of that view changes): then false, and nothing done.
    fn update(&mut self, net: &Network, pieces: &[[BitBoard; 6]; 2]) -> bool {
        let mut changes = 0;
        for (old, new) in self.pieces.iter().flatten().zip(pieces.iter().flatten()) {
            changes += (*old ^ *new).len();
        }
        if changes > Self::MAX_CHANGES {
            return false;
        }
        let kings = if net.king_buckets == 1 {
            [0, 0]
        } else {
            let kings = net.view_buckets(pieces);
            if kings != net.view_buckets(&self.pieces) {
                return false;
            }
            kings
        };
        let colors = [Color::White, Color::Black];
        for ((olds, news), color) in self.pieces.iter().zip(pieces).zip(colors) {
            for (p, (&old, &new)) in olds.iter().zip(news).enumerate() {
                for sq in old - new {
                    net.toggle(&mut self.acc, kings, color, p, sq as usize, false);
                }
                for sq in new - old {
                    net.toggle(&mut self.acc, kings, color, p, sq as usize, true);
                }
            }
        }
        self.pieces = *pieces;
        true
    }
}

/// The network evaluation, with the hand-written evaluations' search hooks.
#[derive(Debug, Clone)]
pub struct Net {
    net: Arc<Network>,
    strong: Strong,
}

impl Default for Net {
    fn default() -> Self {
        static SHARED: OnceLock<Arc<Network>> = OnceLock::new();
        Net {
            net: Arc::clone(SHARED.get_or_init(|| Arc::new(Network::shipped().clone()))),
            strong: Strong::default(),
        }
    }
}

impl Net {
    /// The evaluation with another network (a trainer's candidate).
    pub fn new(net: Network) -> Net {
        Net {
            net: Arc::new(net),
            strong: Strong::default(),
        }
    }

    /// The network in use.
    pub fn network(&self) -> &Network {
        &self.net
    }
}

/// Values the search must never see from a static evaluation: well inside the mate range.
const VALUE_BOUND: i32 = 20_000;

impl Evaluator<Chess> for Net {
    fn unit(&self) -> &'static str {
        "centipawns as the searches it learnt from score them"
    }

    fn name(&self) -> &'static str {
        "net"
    }

    fn evaluate(&self, pos: &Chess) -> i32 {
        if let Some(v) = crate::endgame::mop_up(pos.board()) {
            return v;
        }
        let base = match self.net.base {
            Base::None => 0,
            Base::Strong => self.strong.evaluate(pos),
        };
        // The net cannot see that a rook pawn with the wrong bishop, or two knights, do not
        // win: the rules scale such values down (`endgame`).
        let value = crate::endgame::scaled(pos.board(), base + self.net.evaluate(pos.board()));
        value.clamp(-VALUE_BOUND, VALUE_BOUND)
    }

    crate::eval::pst_hooks!();
}
