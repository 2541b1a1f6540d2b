//! The training data: `FEN;result;value` lines read into each position's White-view input
//! indices and its label for the side to move.

use duel_chess::nnue::{king_squares, white_inputs, Base, CP_SCALE};
use duel_chess::{Chess, Strong};
use duel_core::{Evaluator, Game, Side};

use super::expected;
use crate::chess::{records, Record, RecordError};

/// Labelled positions as White-view input indices.
#[derive(Debug, Default)]
pub struct NetData {
    pub(super) base: Option<Strong>,
    inputs: Vec<u16>,
    pub(super) samples: Vec<NetSample>,
}

/// One position: where its inputs are, and what it is labelled with.
#[derive(Debug, Clone, Copy)]
pub(super) struct NetSample {
    pub(super) start: u32,
    /// The number of inputs, one per piece: it also picks the output bucket.
    pub(super) len: u8,
    pub(super) white_to_move: bool,
    /// The white king's square and the black king's: what picks each view's king bucket.
    pub(super) kings: [u8; 2],
    /// The target for the side to move, from 0 to 1.
    pub(super) target: f32,
    /// The game's result for the side to move (1, 0.5 or 0): a yardstick that does not
    /// depend on the labels' blend.
    pub(super) result: f32,
    /// The base evaluation for the side to move, in units of `CP_SCALE` centipawns.
    pub(super) base: f32,
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

    /// The sample's inputs.
    pub(super) fn inputs(&self, s: &NetSample) -> &[u16] {
        &self.inputs[s.start as usize..s.start as usize + usize::from(s.len)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
