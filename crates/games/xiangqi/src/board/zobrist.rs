//! The Zobrist keys: one per board byte and point, one for Black to move, and the keys of the
//! slow-moving pieces alone (soldiers, advisors, elephants) for the structure's hash.

use duel_core::SplitMix64;

use super::piece::{ADVISOR, ELEPHANT_CODE, PAWN};
use super::point::{Square, POINTS};

/// Zobrist keys: one per board byte (16, of which 14 are pieces) and point, then Black to move.
pub(super) const KEYS: [u64; 16 * POINTS + 1] = SplitMix64::keys(0x0C4E_5500_9A1D_0044);

pub(super) const BLACK_KEY: u64 = KEYS[16 * POINTS];

#[inline]
pub(super) fn key(code: u8, sq: Square) -> u64 {
    KEYS[usize::from(code) * POINTS + usize::from(sq)]
}

/// The Zobrist keys of the slow-moving pieces (soldiers, advisors, elephants), zero for the
/// rest: their part of the hash keys the structure an evaluator's errors follow.
const STRUCTURE_KEYS: [u64; 16 * POINTS] = {
    let mut t = [0; 16 * POINTS];
    let mut i = 0;
    while i < 16 * POINTS {
        let kind = ((i / POINTS) & 7) as u8;
        if kind == ADVISOR || kind == ELEPHANT_CODE || kind == PAWN {
            t[i] = KEYS[i];
        }
        i += 1;
    }
    t
};

#[inline]
pub(super) fn structure_key(code: u8, sq: Square) -> u64 {
    STRUCTURE_KEYS[usize::from(code) * POINTS + usize::from(sq)]
}
