//! Perft: the number of positions exactly `depth` plies ahead, finished games not expanded.
//! The standard check of move generation against published tables.

use crate::Game;

/// Counts the leaves `depth` plies below `pos`. A finished game has no moves, so it contributes
/// nothing beyond its own ply (the convention of every table in `data/`).
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    perft_with(pos, depth, &mut buffers)
}

fn perft_with<G: Game>(pos: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.generate_moves(moves);
    // Bulk counting: the moves at the last ply are the leaves.
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        pos.play(mv);
        total += perft_with(pos, depth - 1, rest);
        pos.undo(mv);
    }
    total
}

/// Perft split by root move, as `(move text, leaves)` in generation order.
pub fn perft_divide<G: Game>(pos: &mut G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let text = pos.format_move(mv);
        pos.play(mv);
        let n = if depth == 0 { 0 } else { perft(pos, depth - 1) };
        pos.undo(mv);
        out.push((text, n));
    }
    out
}
