//! The transposition tables: the main one, shared lock-free by the threads of a solve, in
//! buckets of three entries a cache line, and the small one for positions near the end, each
//! solver's own. Every entry holds its position whole, so two positions never share one, and
//! the selectivity level its bounds were found at.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use super::tune::{EXACT, NEAR_MAX_EMPTIES, NEAR_TT_BITS, PROBCUT_MIN_EMPTIES};
use super::Solver;
use crate::estimate::Estimate;

/// The default table: the memory of 2^21 entries of 24 bytes (48 MiB), in buckets of three.
pub const DEFAULT_TT_BITS: u32 = 21;

/// One table slot: the position itself (so two positions never share an entry, whatever
/// their hashes), and what is known of its value.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub(super) p: u64,
    pub(super) o: u64,
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) best: u8,
    pub(super) empties: u8,
    /// The selectivity level under which the bounds were found ([`EXACT`]: proven).
    pub(super) sel: u8,
}

impl Default for Entry {
    /// No position (no real position has both boards empty), nothing known.
    fn default() -> Self {
        Entry {
            p: 0,
            o: 0,
            lower: -64,
            upper: 64,
            best: 64,
            empties: 0,
            sel: EXACT,
        }
    }
}

impl Entry {
    #[inline]
    pub(super) fn holds(&self, p: u64, o: u64) -> bool {
        self.p == p && self.o == o
    }
}

/// Positions per bucket of the main table.
pub(super) const WAYS: usize = 3;

/// A bucket of the main table: three entries in one cache line, so that a probe costs one
/// memory access (the earlier pairs of 24-byte entries straddled two lines in half the
/// buckets), with the boards apart from the rest so the line holds a third entry. About 1%
/// on FFO #45–#49 and #50.
///
/// The table is shared by the threads of a solve ([`Solver::set_threads`]) without locks:
/// every word is an atomic read and written on its own (a plain move on x86-64), and the
/// second board is stored mixed with the entry's data (`o ^ mix(data)`), so an entry read
/// while another thread writes it, its words from two writes, unmixes to a board that is
/// not the one looked for and is ignored, as in Hyatt's lockless hashing.
#[derive(Debug)]
#[repr(align(64))]
pub(super) struct Bucket {
    p: [AtomicU64; WAYS],
    /// The second board mixed with the data: `o ^ mix(data)`.
    o: [AtomicU64; WAYS],
    data: [AtomicU32; WAYS],
}

/// An entry's bounds, move, depth and provenance (see [`Entry`]) in one word: lower and
/// upper bound in the low two bytes, the move (0..=64), the empties and the selectivity level.
#[inline]
fn pack(e: &Entry) -> u32 {
    u32::from(e.lower as u8)
        | u32::from(e.upper as u8) << 8
        | u32::from(e.best) << 16
        | u32::from(e.empties) << 24
        | u32::from(e.sel) << 30
}

// The level has two bits of the word.
const _: () = assert!(EXACT < 4);

/// The 64-bit mask a data word puts on the second board.
#[inline]
fn mix(data: u32) -> u64 {
    u64::from(data).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(data)
}

impl Default for Bucket {
    fn default() -> Self {
        let d = pack(&Entry::default());
        Bucket {
            p: std::array::from_fn(|_| AtomicU64::new(0)),
            o: std::array::from_fn(|_| AtomicU64::new(mix(d))),
            data: std::array::from_fn(|_| AtomicU32::new(d)),
        }
    }
}

impl Bucket {
    /// The entry of way `w`, whatever position it holds (a torn one unmixes to nonsense).
    #[inline]
    fn entry(&self, w: usize) -> Entry {
        let d = self.data[w].load(Ordering::Relaxed);
        Entry {
            p: self.p[w].load(Ordering::Relaxed),
            o: self.o[w].load(Ordering::Relaxed) ^ mix(d),
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            best: (d >> 16) as u8,
            empties: (d >> 24 & 0x3F) as u8,
            sel: (d >> 30) as u8,
        }
    }

    /// The way holding the position, and its entry, if any.
    #[inline]
    fn find(&self, p: u64, o: u64) -> Option<(usize, Entry)> {
        // The first board alone rules out the other ways before anything is unmixed.
        (0..WAYS)
            .filter(|&w| self.p[w].load(Ordering::Relaxed) == p)
            .map(|w| (w, self.entry(w)))
            .find(|(_, e)| e.holds(p, o))
    }

    #[inline]
    fn set(&self, w: usize, e: &Entry) {
        let d = pack(e);
        self.p[w].store(e.p, Ordering::Relaxed);
        self.data[w].store(d, Ordering::Relaxed);
        self.o[w].store(e.o ^ mix(d), Ordering::Relaxed);
    }

    /// Forgets all three entries.
    pub(super) fn clear(&self) {
        for w in 0..WAYS {
            self.set(w, &Entry::default());
        }
    }
}

/// Where a position goes in the table: a multiply-xorshift mix of both boards. Cheaper than
/// keeping a Zobrist key through the copy-make search, and only needed at table nodes.
#[inline]
fn hash(p: u64, o: u64) -> u64 {
    let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}

impl<E: Estimate> Solver<E> {
    /// Records what a search in (`alpha`, `beta`) that returned `best` proved.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        p: u64,
        o: u64,
        n: u32,
        alpha: i32,
        beta: i32,
        best: i32,
        best_sq: u32,
    ) {
        // A stopped subtree's value proves nothing, and the table must hold only facts.
        if self.stopped {
            return;
        }
        // Small subtrees hold no ProbCut, so their values are exact in every pass.
        let sel = if n < PROBCUT_MIN_EMPTIES {
            EXACT
        } else {
            self.sel
        };
        let key = hash(p, o);
        let merge = |e: Option<Entry>| -> Option<Entry> {
            let (mut lo, mut up) = (-64, 64);
            if let Some(e) = e {
                if e.sel > sel {
                    // Proven bounds outrank a guess.
                    return None;
                }
                if e.sel == sel {
                    lo = i32::from(e.lower);
                    up = i32::from(e.upper);
                }
            }
            if best > alpha {
                lo = lo.max(best);
            }
            if best < beta {
                up = up.min(best);
            }
            Some(Entry {
                p,
                o,
                lower: lo as i8,
                upper: up as i8,
                best: best_sq as u8,
                empties: n as u8,
                sel,
            })
        };
        // Near the end of the game, a small table that stays in cache (most table nodes are
        // there, and a probe that misses the cache costs as much as many small searches).
        if n <= NEAR_MAX_EMPTIES {
            let e = &mut self.near[key as usize & ((1 << NEAR_TT_BITS) - 1)];
            if let Some(new) = merge(e.holds(p, o).then_some(*e)) {
                *e = new;
            }
            return;
        }
        let i = self.bucket(key);
        let b = &self.table[i];
        // The position's own way, or else the one holding the smallest subtree.
        let (w, old) = match b.find(p, o) {
            Some((w, e)) => (w, Some(e)),
            None => {
                let empties = |w: usize| b.entry(w).empties;
                let mut w = 0;
                for v in 1..WAYS {
                    if empties(v) < empties(w) {
                        w = v;
                    }
                }
                (w, None)
            }
        };
        if let Some(new) = merge(old) {
            b.set(w, &new);
        }
    }

    /// The main table's bucket for a hash: its high bits scaled to the number of buckets,
    /// which need not be a power of two.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((u128::from(key) * self.table.len() as u128) >> 64) as usize
    }

    /// What the table knows of the position (`p` to move, `n` empties).
    #[inline]
    pub(super) fn probe_tt(&self, p: u64, o: u64, n: u32) -> Option<Entry> {
        let key = hash(p, o) as usize;
        if n <= NEAR_MAX_EMPTIES {
            let e = self.near[key & ((1 << NEAR_TT_BITS) - 1)];
            return e.holds(p, o).then_some(e);
        }
        let b = &self.table[self.bucket(key as u64)];
        b.find(p, o).map(|(_, e)| e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry reads back as written, at the extremes of every field; one whose words come
    /// from two writes (another thread's write half done) is not found for either position.
    #[test]
    fn table_entries_round_trip_and_torn_ones_are_ignored() {
        let b = Bucket::default();
        let a = Entry {
            p: 0x0000_0018_1000_0000,
            o: 0x0000_0000_0810_0000,
            lower: -64,
            upper: 64,
            best: 64,
            empties: 60,
            sel: EXACT,
        };
        let c = Entry {
            p: 0x0000_0000_0800_0000,
            o: 0x0000_0010_1000_0000,
            lower: 2,
            upper: -2,
            best: 0,
            empties: 0,
            sel: 0,
        };
        for e in [a, c] {
            b.set(1, &e);
            let (w, got) = b.find(e.p, e.o).expect("stored");
            assert_eq!(
                (w, got.lower, got.upper, got.best, got.empties, got.sel),
                (1, e.lower, e.upper, e.best, e.empties, e.sel)
            );
        }
        // c in place, then a's first board and data but not yet its mixed second board.
        b.p[1].store(a.p, Ordering::Relaxed);
        b.data[1].store(pack(&a), Ordering::Relaxed);
        assert!(b.find(a.p, a.o).is_none() && b.find(c.p, c.o).is_none());
        b.clear();
        assert!((0..WAYS).all(|w| b.entry(w).p == 0 && b.entry(w).o == 0));
    }
}
