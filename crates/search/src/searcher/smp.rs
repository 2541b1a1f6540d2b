//! Lazy SMP: threads that share only the transposition table and the stop state.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Search state shared by all threads of one search.
pub(super) struct Shared {
    /// The caller's stop flag: only read here, so a search never leaves it set.
    pub(super) stop: Arc<AtomicBool>,
    /// Set by the search itself: a limit was reached, or the main thread finished and the
    /// helpers must end.
    pub(super) abort: AtomicBool,
    /// Nodes of the helper threads, added in batches.
    pub(super) helper_nodes: AtomicU64,
}

impl Shared {
    pub(super) fn stopping(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }
}

/// Step 5: whether helper thread `id` (0: the main thread, which searches every depth) skips
/// `depth`. Helpers skip some depths in blocks, each thread its own pattern, so that they stay
/// at depths the main thread has not reached and fill the shared table ahead of it. Threads
/// that searched the same depth in the same order would only duplicate each other.
pub(super) fn skips(id: usize, depth: u32) -> bool {
    if id == 0 {
        return false;
    }
    // Block sizes 1,1,2,2,2,2,3,... with every phase of each size, for helpers 1, 2, 3, ...
    let i = (id - 1) % 20;
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
}
