//! Openings: where each game of a match starts. [`random_openings`] makes them for any game
//! (random plies from the start or from a numbered start, each drawn among the moves a filter
//! keeps, each line kept only if a judge finds it balanced); [`file`](mod@file) reads them from an
//! openings file, as the game reads its own ([`GameInfo::read_openings`]).

pub mod file;

use std::collections::HashSet;

use duel_core::{Game, GameInfo, SplitMix64};

use crate::ArenaError;

/// A match opening: where the game starts and the moves played from there, in that
/// position's notation.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening<G> {
    /// The start position.
    pub start: G,
    /// The moves from it, as text.
    pub moves: Vec<String>,
}

impl<G: Game> Opening<G> {
    /// An opening of no moves from `start`.
    pub fn at(start: G) -> Self {
        Opening {
            start,
            moves: Vec::new(),
        }
    }

    /// The start and the opening's moves, parsed.
    pub fn line(&self) -> Result<(G, Vec<G::Move>), ArenaError> {
        let mut pos = self.start.clone();
        let mut line = Vec::with_capacity(self.moves.len());
        for m in &self.moves {
            let mv = pos.parse_move(m).map_err(|source| ArenaError::Opening {
                mv: m.clone(),
                source: Box::new(source),
            })?;
            pos.play(mv);
            line.push(mv);
        }
        Ok((pos, line))
    }

    /// The position the opening reaches.
    pub fn position(&self) -> Result<G, ArenaError> {
        self.line().map(|(pos, _)| pos)
    }
}

/// One of `G`'s numbered starts ([`GameInfo::numbered_start`]: chess's 960 Chess960 starts),
/// drawn by `rng`; None (and nothing drawn) for a game without them.
pub fn numbered_start<G: GameInfo>(rng: &mut SplitMix64) -> Option<G> {
    if G::NUMBERED_STARTS == 0 {
        return None;
    }
    G::numbered_start(rng.below(G::NUMBERED_STARTS as usize) as u32)
}

/// `count` openings of `plies` random moves, seeded by `seed`: each starts where `start`
/// says (the game's start, or a start it draws: [`numbered_start`]), each move is drawn from what
/// `plausible` keeps of the legal moves (all of them if it keeps none), and a line is kept
/// only if it reaches an unfinished position no earlier line reached and `balanced` accepts
/// it (a shallow search within a small margin, say), so that no game starts decided. Fewer
/// come back when the game has too few such positions.
pub fn random_openings<G: Game>(
    count: usize,
    plies: usize,
    seed: u64,
    mut start: impl FnMut(&mut SplitMix64) -> G,
    mut plausible: impl FnMut(&G, &mut Vec<G::Move>),
    mut balanced: impl FnMut(&G) -> bool,
) -> Vec<Opening<G>> {
    let mut rng = SplitMix64::new(seed);
    let mut out: Vec<Opening<G>> = Vec::new();
    let mut seen = HashSet::new();
    let mut moves = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count.saturating_mul(200) {
        tries += 1;
        let first = start(&mut rng);
        let mut pos = first.clone();
        let mut line = Vec::new();
        for _ in 0..plies {
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let all = moves.clone();
            plausible(&pos, &mut moves);
            if moves.is_empty() {
                moves = all;
            }
            let mv = moves[rng.below(moves.len())];
            line.push(pos.format_move(mv));
            pos.play(mv);
        }
        if line.len() == plies
            && pos.outcome().is_none()
            && !seen.contains(&pos.to_text())
            && balanced(&pos)
        {
            seen.insert(pos.to_text());
            out.push(Opening {
                start: first,
                moves: line,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_chess::Chess;

    fn standard(_: &mut SplitMix64) -> Chess {
        Chess::start()
    }

    #[test]
    fn openings_are_distinct_legal_and_reproducible() {
        let a = random_openings(20, 6, 7, standard, |_, _| {}, |_| true);
        assert_eq!(a.len(), 20);
        assert_eq!(a, random_openings(20, 6, 7, standard, |_, _| {}, |_| true));
        // Kept to moves from the second rank, every opening move is one.
        let second_rank = |pos: &Chess, moves: &mut Vec<duel_chess::Move>| {
            moves.retain(|&m| matches!(pos.format_move(m).as_bytes()[1], b'2' | b'7'))
        };
        for opening in random_openings(5, 4, 1, standard, second_rank, |_| true) {
            assert!(opening
                .moves
                .iter()
                .all(|m| matches!(m.as_bytes()[1], b'2' | b'7')));
        }
        let mut ends = HashSet::new();
        for opening in &a {
            assert_eq!(opening.start, Chess::start());
            ends.insert(opening.position().unwrap().to_text());
        }
        assert_eq!(ends.len(), a.len());
    }

    /// Chess960 openings start from Chess960 starts (several of them, by the seed), in
    /// Chess960 notation, and their moves are legal from there.
    #[test]
    fn chess960_openings_start_anywhere() {
        let drawn = |rng: &mut SplitMix64| numbered_start::<Chess>(rng).unwrap();
        assert!(numbered_start::<duel_othello::Othello>(&mut SplitMix64::new(1)).is_none());
        let a = random_openings(20, 4, 9, drawn, |_, _| {}, |_| true);
        assert_eq!(a.len(), 20);
        assert_eq!(a, random_openings(20, 4, 9, drawn, |_, _| {}, |_| true));
        let mut starts: Vec<String> = a.iter().map(|o| o.start.to_text()).collect();
        starts.sort();
        starts.dedup();
        assert!(starts.len() >= 15, "{starts:?}");
        for opening in &a {
            assert!(opening.start.is_chess960());
            // Pawns on the second and seventh ranks, pieces behind them, mirrored.
            let text = opening.start.to_text();
            let rows: Vec<&str> = text.split(' ').next().unwrap().split('/').collect();
            assert_eq!((rows[1], rows[6]), ("pppppppp", "PPPPPPPP"));
            assert_eq!(rows[0].to_ascii_uppercase(), rows[7]);
            opening.position().unwrap();
        }
    }

    /// Any game: Othello openings are distinct unfinished positions.
    #[test]
    fn othello_openings() {
        let o = random_openings(
            50,
            8,
            3,
            |_| duel_othello::Othello::start(),
            |_, _| {},
            |_| true,
        );
        assert_eq!(o.len(), 50);
        let ends: HashSet<String> = o.iter().map(|o| o.position().unwrap().to_text()).collect();
        assert_eq!(ends.len(), 50);
    }
}
