//! The transposition table: sized in MB, shared by every search thread without locks.
//!
//! Layout: buckets of four 16-byte entries (one 64-byte cache line). An entry is two `u64`s,
//! `key ^ data` and `data`; a reader accepts an entry only if the two still XOR to its key, so a
//! write torn by another thread reads as a miss instead of as wrong data (Hyatt and Mann's
//! lockless hashing). No entry ever needs a lock, and a lost write only costs a re-search.
//!
//! `data` packs, low bits first: value (i16, re-based onto the node, see
//! [`Score::to_tt`]), static evaluation (i16), depth (u8), bound (2 bits), age (6 bits), and the
//! move as its index in the game's fixed move order (u16, `NO_MOVE` for none). Storing the index
//! keeps the table independent of the game's move type; a colliding key can only suggest some
//! other legal move, which the search treats as an ordering hint anyway.

use std::sync::atomic::{AtomicU64, Ordering};

use duel_core::Score;

/// How a stored value relates to the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the stored one (every move failed low).
    Upper = 1,
    /// The true value is at least the stored one (a move failed high).
    Lower = 2,
    /// The stored value is exact.
    Exact = 3,
}

/// The move-index value meaning "no move stored".
pub const NO_MOVE: u16 = u16::MAX;

/// The static-evaluation value meaning "none stored" (the node did not evaluate, or its value
/// does not fit in an `i16`).
pub const NO_EVAL: i16 = i16::MIN;

/// A probe result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The value, still relative to the node (call [`Score::from_tt`]).
    pub value: Score,
    /// The static evaluation stored with it.
    pub eval: i16,
    /// The remaining depth the value was searched to.
    pub depth: u8,
    /// What kind of bound the value is.
    pub bound: Bound,
    /// The best move's index in the move list, or [`NO_MOVE`].
    pub mv: u16,
}

const ENTRIES_PER_BUCKET: usize = 4;

/// The bytes of every table this process has made: a front end's tests read it to show that a
/// request which only reads a position makes none, and how large the one a search makes is.
static BYTES_MADE: AtomicU64 = AtomicU64::new(0);

/// The bytes of every table made so far by this process (tables dropped included).
pub fn bytes_made() -> u64 {
    BYTES_MADE.load(Ordering::Relaxed)
}

#[derive(Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// One cache line, aligned as one: a probe then costs a single memory access. A bucket that
/// straddled two lines (the allocator only promises 16-byte alignment) would cost two.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; ENTRIES_PER_BUCKET]);

/// The shared table.
pub struct Tt {
    buckets_mem: Vec<Bucket>,
    buckets: usize,
    age: AtomicU64,
}

impl std::fmt::Debug for Tt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tt({} buckets)", self.buckets)
    }
}

fn pack(e: &Entry, age: u8) -> u64 {
    (e.value.0 as i16 as u16 as u64)
        | ((e.eval as u16 as u64) << 16)
        | ((e.depth as u64) << 32)
        | ((e.bound as u64) << 40)
        | (((age & 63) as u64) << 42)
        | ((e.mv as u64) << 48)
}

fn unpack(d: u64) -> Option<(Entry, u8)> {
    let bound = match (d >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None, // an empty slot
    };
    Some((
        Entry {
            value: Score(d as u16 as i16 as i32),
            eval: (d >> 16) as u16 as i16,
            depth: (d >> 32) as u8,
            bound,
            mv: (d >> 48) as u16,
        },
        ((d >> 42) & 63) as u8,
    ))
}

/// The largest table a user may ask for, in MiB, by every front end (UCI's `Hash`, the CLI's
/// `--hash`): Stockfish's limit on 64-bit machines. Whether the machine can give it is another
/// question, answered by [`Tt::try_new`].
pub const MAX_MB: usize = 33_554_432;

/// Why a table could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TtError {
    /// The size is outside 1..=[`MAX_MB`].
    #[error("a hash table of {mb} MiB is outside 1 to {max} MiB", max = MAX_MB)]
    Size {
        /// The size asked for.
        mb: usize,
    },
    /// The system has not got the memory.
    #[error("a hash table of {mb} MiB cannot be allocated: {reason}")]
    Memory {
        /// The size asked for.
        mb: usize,
        /// What said no: the memory the system reports free, or the allocator.
        reason: String,
    },
}

/// The memory the system could give without swapping, where it says (Linux's `MemAvailable`).
fn available_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

impl Tt {
    /// A table of about `mb` mebibytes (at least one bucket). For sizes a program chooses
    /// itself; a size from a user goes through [`Tt::try_new`].
    ///
    /// # Panics
    /// When the memory cannot be had, as [`Tt::try_new`] would report it.
    pub fn new(mb: usize) -> Self {
        match Self::try_new(mb) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` mebibytes, or why the machine cannot give it. Every entry is
    /// written once here, so the memory is really taken: a size the allocator grants only on
    /// paper (Linux overcommits) would otherwise kill the process later, mid-game. A size above
    /// the memory the system reports available is refused before trying, for the same reason.
    pub fn try_new(mb: usize) -> Result<Self, TtError> {
        let mb = mb.max(1);
        if mb > MAX_MB {
            return Err(TtError::Size { mb });
        }
        let bytes = mb.checked_mul(1024 * 1024).ok_or(TtError::Size { mb })?;
        if let Some(free) = available_bytes() {
            if bytes as u64 > free {
                return Err(TtError::Memory {
                    mb,
                    reason: format!("the system has {} MiB available", free / (1024 * 1024)),
                });
            }
        }
        let buckets = (bytes / (16 * ENTRIES_PER_BUCKET)).max(1);
        let mut buckets_mem = Vec::new();
        buckets_mem
            .try_reserve_exact(buckets)
            .map_err(|e| TtError::Memory {
                mb,
                reason: e.to_string(),
            })?;
        buckets_mem.resize_with(buckets, Bucket::default);
        BYTES_MADE.fetch_add(
            (buckets * std::mem::size_of::<Bucket>()) as u64,
            Ordering::Relaxed,
        );
        Ok(Tt {
            buckets_mem,
            buckets,
            age: AtomicU64::new(0),
        })
    }

    /// Size in mebibytes.
    pub fn size_mb(&self) -> usize {
        self.buckets * ENTRIES_PER_BUCKET * 16 / (1024 * 1024)
    }

    /// Empties the table (a new game).
    pub fn clear(&self) {
        for s in self.buckets_mem.iter().flat_map(|b| &b.0) {
            s.key_xor_data.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries from older searches become the first to be replaced.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn current_age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) & 63) as u8
    }

    /// Multiply-shift maps the hash onto any bucket count without needing a power of two.
    fn bucket(&self, key: u64) -> &[Slot] {
        let b = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.buckets_mem[b].0
    }

    /// Looks the position up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in self.bucket(key) {
            let data = s.data.load(Ordering::Relaxed);
            if s.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                if let Some((e, _)) = unpack(data) {
                    return Some(e);
                }
            }
        }
        None
    }

    /// Stores a result. The slot is the position's own if present, else the one least worth
    /// keeping: an empty one, else the shallowest, entries from older searches counting as
    /// eight plies shallower per search of age.
    pub fn store(&self, key: u64, entry: Entry) {
        let age = self.current_age();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            let Some((old, old_age)) = unpack(data) else {
                victim = i;
                break;
            };
            if s.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                // Same position: keep a known best move if this result has none, and do not let a
                // shallow non-exact result overwrite a much deeper one from this search.
                let mut entry = entry;
                if entry.mv == NO_MOVE {
                    entry.mv = old.mv;
                }
                if entry.bound != Bound::Exact
                    && old_age == age
                    && old.depth as u32 > entry.depth as u32 + 2
                {
                    return;
                }
                let d = pack(&entry, age);
                s.data.store(d, Ordering::Relaxed);
                s.key_xor_data.store(key ^ d, Ordering::Relaxed);
                return;
            }
            let stale = ((age as i32 - old_age as i32) & 63) * 8;
            let worth = old.depth as i32 - stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let d = pack(&entry, age);
        bucket[victim].data.store(d, Ordering::Relaxed);
        bucket[victim]
            .key_xor_data
            .store(key ^ d, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let n = (self.buckets * ENTRIES_PER_BUCKET).min(1000);
        let used = self
            .buckets_mem
            .iter()
            .flat_map(|b| &b.0)
            .take(n)
            .filter_map(|s| unpack(s.data.load(Ordering::Relaxed)))
            .filter(|&(_, a)| a == age)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: Score, depth: u8, mv: u16) -> Entry {
        Entry {
            value,
            eval: -123,
            depth,
            bound: Bound::Lower,
            mv,
        }
    }

    /// The layout the module promises: a bucket is exactly one cache line, starting on one.
    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        let tt = Tt::new(1);
        assert_eq!(tt.buckets_mem.as_ptr() as usize % 64, 0);
        assert_eq!(tt.size_mb(), 1);
    }

    #[test]
    fn store_probe_round_trip() {
        let tt = Tt::new(1);
        for (i, v) in [
            Score(0),
            Score(-1),
            Score(28_999),
            -Score::win_in(3),
            Score::win_in(0),
        ]
        .into_iter()
        .enumerate()
        {
            let key = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
            let e = entry(v, i as u8 * 7, i as u16);
            tt.store(key, e);
            assert_eq!(tt.probe(key), Some(e));
            assert_eq!(tt.probe(key ^ 1), None);
        }
    }

    /// A mate found 5 plies below the root at a node 3 plies deep is stored as "mate in 2 from
    /// here", and read back at a node 7 plies deep as "mate in 9 from the root".
    #[test]
    fn mate_scores_survive_the_table_at_other_plies() {
        let tt = Tt::new(1);
        let key = 42;
        tt.store(key, entry(Score::win_in(5).to_tt(3), 10, 0));
        let got = tt.probe(key).unwrap().value.from_tt(7);
        assert_eq!(got, Score::win_in(9));
        tt.store(key, entry(Score::loss_in(6).to_tt(2), 11, 0));
        let got = tt.probe(key).unwrap().value.from_tt(0);
        assert_eq!(got, Score::loss_in(4));
    }

    #[test]
    fn replacement_prefers_shallow_and_old() {
        let tt = Tt::new(1);
        // Keys that land in bucket 0: the top bits decide the bucket.
        let keys: Vec<u64> = (1..=5).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, entry(Score(i as i32), 10 + i as u8, NO_MOVE));
        }
        tt.store(keys[4], entry(Score(9), 1, NO_MOVE));
        // The shallowest (depth 10, key 1) went.
        assert_eq!(tt.probe(1), None);
        assert!(tt.probe(5).is_some());
        // After enough new searches, even a deep entry yields to a fresh shallow one.
        for _ in 0..3 {
            tt.new_search();
        }
        tt.store(6, entry(Score(1), 0, NO_MOVE));
        assert!(tt.probe(6).is_some());
        // A result without a move keeps the move stored before it.
        tt.store(6, entry(Score(1), 3, 7));
        tt.store(6, entry(Score(2), 4, NO_MOVE));
        assert_eq!(tt.probe(6).unwrap().mv, 7);
    }

    /// A size no machine has is refused with a reason, not an abort; one outside the range
    /// is named as such.
    #[test]
    fn impossible_sizes_are_errors() {
        assert!(matches!(Tt::try_new(MAX_MB), Err(TtError::Memory { .. })));
        let e = Tt::try_new(MAX_MB + 1).unwrap_err();
        assert_eq!(e, TtError::Size { mb: MAX_MB + 1 });
        assert!(e.to_string().contains("33554433"), "{e}");
        assert_eq!(Tt::try_new(2).unwrap().size_mb(), 2);
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = Tt::new(1);
        tt.store(77, entry(Score(5), 3, 1));
        // Simulate another thread's half-finished write to the data word.
        let s = tt
            .bucket(77)
            .iter()
            .find(|s| s.data.load(Ordering::Relaxed) != 0)
            .unwrap();
        s.data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert_eq!(tt.probe(77), None);
    }
}
