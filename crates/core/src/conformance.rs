//! The conformance kit: invariants every [`Game`] must keep, checked along seeded random games.
//! Each game's tests call [`check_game`] on a few start positions.

use crate::{Game, SplitMix64};

/// What went wrong, with the position and move that showed it.
pub type Failure = String;

/// Plays `games` random games from `start` (seeded, so failures reproduce) and checks at every
/// position:
/// - the move list is empty exactly when the game is over, and has no duplicates;
/// - every generated move prints, parses back to itself, and is accepted by `parse_move`;
/// - `play` then `undo` restores the position text and the hash;
/// - the incremental hash equals the hash from scratch, before and after each move;
/// - the position text round-trips and gives back the same hash;
/// - the side to move alternates on every move and `ply` counts up by one.
///
/// Returns the first failure found.
pub fn check_game<G: Game>(start: &G, games: usize, seed: u64) -> Result<(), Failure> {
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for game in 0..games {
        let mut pos = start.clone();
        let mut line: Vec<G::Move> = Vec::new();
        loop {
            let here = pos.to_text();
            let ctx = |what: &str| format!("game {game}, position '{here}': {what}");
            check_position(&pos).map_err(|e| ctx(&e))?;
            pos.generate_moves(&mut moves);
            match (pos.outcome(), moves.is_empty()) {
                (Some(_), false) => return Err(ctx("finished game has legal moves")),
                (None, true) => return Err(ctx("game not finished but no legal moves")),
                (Some(_), true) => break,
                (None, false) => {}
            }
            for (i, &mv) in moves.iter().enumerate() {
                if moves[..i].contains(&mv) {
                    return Err(ctx(&format!("duplicate move {mv:?}")));
                }
                // History tables are sized by these ranges; an index past one would panic.
                if G::move_index(mv) >= G::MOVE_INDICES
                    || pos.piece_move_index(mv) >= G::PIECE_MOVE_INDICES
                {
                    return Err(ctx(&format!("move {mv:?}: an index out of its range")));
                }
                let text = pos.format_move(mv);
                match pos.parse_move(&text) {
                    Ok(back) if back == mv => {}
                    Ok(back) => {
                        return Err(ctx(&format!("'{text}' parses as {back:?}, not {mv:?}")))
                    }
                    Err(e) => return Err(ctx(&format!("generated move '{text}' refused: {e}"))),
                }
                let (hash, side, ply) = (pos.hash(), pos.side_to_move(), pos.ply());
                pos.play(mv);
                if pos.hash() != pos.hash_from_scratch() {
                    return Err(ctx(&format!(
                        "after {text}: incremental hash != hash from scratch"
                    )));
                }
                // Othello-style passes still hand the turn over; every game alternates.
                if pos.side_to_move() != side.other() || pos.ply() != ply + 1 {
                    return Err(ctx(&format!(
                        "after {text}: side to move or ply did not advance"
                    )));
                }
                pos.undo(mv);
                if pos.to_text() != here || pos.hash() != hash {
                    return Err(ctx(&format!(
                        "play+undo of {text} did not restore the position"
                    )));
                }
            }
            let mv = moves[rng.below(moves.len())];
            pos.play(mv);
            line.push(mv);
        }
        // Unwind the whole game: undo must work at any depth, not just one ply.
        while let Some(mv) = line.pop() {
            pos.undo(mv);
        }
        if pos.to_text() != start.to_text() || pos.hash() != start.hash() {
            return Err(format!(
                "game {game}: undoing the whole game did not restore the start"
            ));
        }
    }
    Ok(())
}

/// The checks that need only the position: the hash, and the text round trip keeping the
/// position, its hash and its outcome (except a draw by a history rule, which the text cannot
/// carry: see [`Game::OUTCOME_NEEDS_HISTORY`]).
pub fn check_position<G: Game>(pos: &G) -> Result<(), Failure> {
    if pos.hash() != pos.hash_from_scratch() {
        return Err("incremental hash != hash from scratch".into());
    }
    let text = pos.to_text();
    let back = G::from_text(&text).map_err(|e| format!("own text refused: {e}"))?;
    if back.to_text() != text {
        return Err(format!("text round trip gave '{}'", back.to_text()));
    }
    if back.hash() != pos.hash() {
        return Err("text round trip changed the hash".into());
    }
    let history_draw = G::OUTCOME_NEEDS_HISTORY
        && pos.outcome() == Some(crate::Outcome::Draw)
        && back.outcome().is_none();
    if back.outcome() != pos.outcome() && !history_draw {
        return Err("text round trip changed the outcome".into());
    }
    Ok(())
}
