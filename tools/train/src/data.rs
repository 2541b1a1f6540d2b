//! Labelled positions from self-play: games opened with random plies, continued by a shallow
//! search with occasional random moves, and solved exactly once few squares remain.
//!
//! Labels: from the first position with at most `solve_empties` empties on, every position is
//! solved and labelled with its exact final disc difference. Earlier positions get the exact
//! value of that first solved position (from their own side to move): the result the game would
//! have had with perfect play from there. Those labels carry the noise of the moves played
//! before, which the least-squares fit averages out.

use std::io::{self, Read, Write};

use duel_core::{Evaluator, Game, Side, SplitMix64};
use duel_othello::{Move, Othello, Solver};
use duel_search::searcher::{Limits, SearchConfig, Searcher};

/// One labelled position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// The final disc difference for the side to move (exact or from the solved point).
    pub label: i8,
    /// True when the label is this position's own exact value.
    pub exact: bool,
    /// The game it comes from: validation holds out whole games, since positions of one game
    /// share a label and would leak.
    pub game: u32,
}

/// Bytes per record on disk.
pub const RECORD_BYTES: usize = 22;

impl Record {
    /// Appends the little-endian record to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.p.to_le_bytes());
        out.extend_from_slice(&self.o.to_le_bytes());
        out.push(self.label as u8);
        out.push(u8::from(self.exact));
        out.extend_from_slice(&self.game.to_le_bytes());
    }

    /// Reads one record from exactly [`RECORD_BYTES`] bytes.
    pub fn read(b: &[u8; RECORD_BYTES]) -> Record {
        let u64_at = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(a)
        };
        Record {
            p: u64_at(0),
            o: u64_at(8),
            label: b[16] as i8,
            exact: b[17] != 0,
            game: u32::from_le_bytes([b[18], b[19], b[20], b[21]]),
        }
    }
}

/// Reads a whole data file. A length that is not a whole number of records is an error.
pub fn read_records(path: &std::path::Path) -> io::Result<Vec<Record>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut bytes)?;
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: {} bytes is not a whole number of {RECORD_BYTES}-byte records",
                path.display(),
                bytes.len()
            ),
        ));
    }
    Ok(bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| {
            let mut a = [0u8; RECORD_BYTES];
            a.copy_from_slice(c);
            Record::read(&a)
        })
        .collect())
}

/// How the games are played.
#[derive(Debug, Clone)]
pub struct GenConfig {
    /// Games to play.
    pub games: u32,
    /// Seed of the random choices; game `i` uses `seed + i`, so a run can be split and resumed.
    pub seed: u64,
    /// The first game's number (also its seed offset and its id in the records).
    pub first_game: u32,
    /// Random plies at the start, drawn uniformly in this range.
    pub random_plies: (u32, u32),
    /// Chance, in percent, that a later move before the solve point is random.
    pub random_percent: u32,
    /// Chance, in percent, that a move after the solve point is random instead of best.
    pub endgame_random_percent: u32,
    /// Depth of the search that picks the other moves.
    pub depth: u32,
    /// From this many empties on, positions are solved exactly.
    pub solve_empties: u32,
    /// Multi-ProbCut selectivity of the move-choosing search, in hundredths of a sigma (0:
    /// off): at equal time, deeper games, hence labels nearer perfect play.
    pub probcut: i32,
}

/// Plays `cfg.games` games with `eval` choosing the moves and writes their records to `out`.
/// Calls `progress(games done, records written)` after every game.
pub fn generate<E: Evaluator<Othello>>(
    cfg: &GenConfig,
    eval: E,
    out: &mut impl Write,
    mut progress: impl FnMut(u32, u64),
) -> io::Result<u64> {
    let mut searcher = Searcher::new(
        eval,
        SearchConfig {
            tt_mb: 4,
            threads: 1,
            profile: duel_core::SearchProfile {
                probcut: cfg.probcut,
                ..duel_core::SearchProfile::NONE
            },
            ..SearchConfig::default()
        },
    );
    let mut solver = Solver::default();
    let mut written = 0u64;
    let mut buf = Vec::new();
    for i in 0..cfg.games {
        let game = cfg.first_game + i;
        let mut rng = SplitMix64::new(cfg.seed.wrapping_add(u64::from(game)));
        searcher.new_game();
        // The solver's table holds exact facts, but a fresh one per game keeps memory use and
        // the run's timing independent of the order of the games.
        solver.clear();
        let records = self_play_game(cfg, game, &mut rng, &mut searcher, &mut solver);
        buf.clear();
        for r in &records {
            r.write(&mut buf);
        }
        out.write_all(&buf)?;
        written += records.len() as u64;
        progress(i + 1, written);
    }
    Ok(written)
}

fn random_move(pos: &Othello, rng: &mut SplitMix64, moves: &mut Vec<Move>) -> Move {
    pos.generate_moves(moves);
    moves[rng.below(moves.len())]
}

/// One self-play game of data generation, not a match game (those are the arena's): random
/// moves mixed into the search's for variety, the exact solver's moves and labels from the
/// solve point on, and every position kept with its label.
fn self_play_game<E: Evaluator<Othello>>(
    cfg: &GenConfig,
    game: u32,
    rng: &mut SplitMix64,
    searcher: &mut Searcher<Othello, E>,
    solver: &mut Solver,
) -> Vec<Record> {
    let mut pos = Othello::start();
    let mut moves = Vec::new();
    let (lo, hi) = cfg.random_plies;
    let opening = lo + rng.below((hi - lo + 1) as usize) as u32;
    // Positions before the solve point, waiting for its value.
    let mut pending: Vec<(u64, u64, Side)> = Vec::new();
    let mut records = Vec::new();
    let mut solved: Option<(i32, Side)> = None;
    while pos.outcome().is_none() {
        let empties = pos.empties().count_ones();
        let mv = if empties <= cfg.solve_empties {
            let s = solver.solve(&pos);
            if solved.is_none() {
                solved = Some((s.score, pos.side_to_move()));
            }
            records.push(Record {
                p: pos.player(),
                o: pos.opponent(),
                label: s.score as i8,
                exact: true,
                game,
            });
            match s.best_move {
                Some(_) if rng.below(100) < cfg.endgame_random_percent as usize => {
                    random_move(&pos, rng, &mut moves)
                }
                Some(m) => m,
                None => break,
            }
        } else {
            pending.push((pos.player(), pos.opponent(), pos.side_to_move()));
            if pos.ply() < opening || rng.below(100) < cfg.random_percent as usize {
                random_move(&pos, rng, &mut moves)
            } else {
                match searcher
                    .search(&pos, &Limits::depth(cfg.depth), |_| {})
                    .best
                {
                    Some(m) => m,
                    None => break,
                }
            }
        };
        pos.play(mv);
    }
    // A game that ended before the solve point (a wipe-out) is labelled by its final score.
    let (value, side) = solved.unwrap_or((pos.final_score(), pos.side_to_move()));
    let mut out: Vec<Record> = pending
        .into_iter()
        .map(|(p, o, s)| Record {
            p,
            o,
            label: (if s == side { value } else { -value }) as i8,
            exact: false,
            game,
        })
        .collect();
    // Positions where the side to move must pass stay in: the search can stop on one, and
    // the mobility tables learn what having no move means.
    out.append(&mut records);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_othello::Textbook;

    #[test]
    fn record_round_trip() {
        let r = Record {
            p: 0x1234_5678_9ABC_DEF0,
            o: 0x0F00_0000_0000_0001,
            label: -37,
            exact: true,
            game: 123_456,
        };
        let mut b = Vec::new();
        r.write(&mut b);
        let mut a = [0u8; RECORD_BYTES];
        a.copy_from_slice(&b);
        assert_eq!(Record::read(&a), r);
    }

    #[test]
    fn a_game_is_labelled_consistently() {
        let cfg = GenConfig {
            games: 1,
            seed: 1,
            first_game: 0,
            random_plies: (4, 4),
            random_percent: 0,
            endgame_random_percent: 0,
            depth: 1,
            solve_empties: 12,
            probcut: 0,
        };
        let mut out = Vec::new();
        let n = generate(&cfg, Textbook::default(), &mut out, |_, _| {}).unwrap();
        let recs: Vec<Record> = out
            .chunks_exact(RECORD_BYTES)
            .map(|c| Record::read(c.try_into().unwrap()))
            .collect();
        assert_eq!(recs.len() as u64, n);
        // With perfect play after the solve point, every exact label is the first one, up to
        // the side to move.
        let exact: Vec<&Record> = recs.iter().filter(|r| r.exact).collect();
        assert!(!exact.is_empty());
        for r in &recs {
            assert_eq!(r.label.unsigned_abs(), exact[0].label.unsigned_abs());
            assert_eq!(r.p & r.o, 0);
        }
    }
}
