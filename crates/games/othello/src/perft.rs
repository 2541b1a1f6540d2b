//! Othello perft with the convention of `data/othello/perft.txt` (Aart Bik's "Perft for
//! Reversi"): a pass is a move and takes a ply, and a finished game reached before the horizon
//! is a leaf that counts 1.
//!
//! [`duel_core::perft()`] counts differently: a finished game has no moves, so it adds nothing
//! (Edax's convention). The two agree to depth 9 from the start position and differ from depth
//! 10 on, where the first games end (24,571,284 here, 24,571,056 there). The tests check both.

use duel_core::Game;

use crate::bitboard::{flips, moves};
use crate::Othello;

/// Leaves `depth` plies below `pos`, finished games counting 1 wherever they end. Plain
/// make/unmake through the [`Game`] interface: the reference for [`perft_fast`].
pub fn perft(pos: &mut Othello, depth: u32) -> u64 {
    if depth == 0 || pos.is_over() {
        return 1;
    }
    let mut list = Vec::with_capacity(32);
    pos.generate_moves(&mut list);
    let mut total = 0;
    for mv in list {
        pos.play(mv);
        total += perft(pos, depth - 1);
        pos.undo(mv);
    }
    total
}

/// The same count as [`perft`], on bare bitboards with copy-make and bulk counting: the last
/// two plies are counted without playing the last one, whose leaves are the number of moves
/// (or 1, for a pass or a finished game).
pub fn perft_fast(pos: &Othello, depth: u32) -> u64 {
    count(pos.player(), pos.opponent(), depth)
}

/// [`perft_fast`] split by root move, as `(move text, leaves)` in generation order.
pub fn perft_fast_divide(pos: &Othello, depth: u32) -> Vec<(String, u64)> {
    let mut list = Vec::new();
    pos.generate_moves(&mut list);
    list.into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            let n = if depth == 0 {
                0
            } else {
                perft_fast(&child, depth - 1)
            };
            (mv.to_string(), n)
        })
        .collect()
}

fn count(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut m = moves(p, o);
    if m == 0 {
        // A pass, or the end of the game: either way one leaf when the horizon is next.
        if depth == 1 || moves(o, p) == 0 {
            return 1;
        }
        return count(o, p, depth - 1);
    }
    if depth == 1 {
        return u64::from(m.count_ones());
    }
    let mut total = 0;
    if depth == 2 {
        while m != 0 {
            let sq = m.trailing_zeros();
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | (1 << sq));
            // Depth 1 below: the moves, or one leaf for a pass or a finished game.
            total += u64::from(moves(np, no).count_ones().max(1));
            m &= m - 1;
        }
        return total;
    }
    while m != 0 {
        let sq = m.trailing_zeros();
        let f = flips(p, o, sq);
        total += count(o & !f, p | f | (1 << sq), depth - 1);
        m &= m - 1;
    }
    total
}
