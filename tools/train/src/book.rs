//! `duel-train book`: grows an Othello opening book by drop-out expansion
//! ([`duel_othello::book`]), the leaves searched by `duel nboard`'s engine
//! ([`duel_stdio::nboard::book_leaf`]).
//!
//! Each round takes the `batch` cheapest candidates and the stale positions, searches them on
//! `threads` sessions (task `i` on session `i % threads`, each search from a cleared table, so
//! the book is the same whatever the threads), applies the results in order and negamaxes.
//! The file is written after every round, so a stopped run keeps what it did and a new run
//! on the same file goes on from it.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use duel_core::Game;
use duel_engine::{SearchConfig, Session};
use duel_othello::book::{Book, Leaf};
use duel_othello::{Move, Othello};
use duel_stdio::nboard;

/// The settings of a build.
pub struct Plan {
    /// Stop after the round that reaches this many positions.
    pub positions: usize,
    /// Depth of the leaf searches.
    pub depth: u32,
    /// Candidates a round.
    pub batch: usize,
    /// Positions with this many empty squares or fewer are not expanded.
    pub min_empties: u32,
    /// Sessions searching side by side.
    pub threads: usize,
    /// Multi-ProbCut threshold of the searches (hundredths of a sigma; 0 off).
    pub probcut: i32,
}

/// One search to do: the position, and the moves to leave out (the child a candidate adds).
struct Task {
    pos: Othello,
    without: Option<Move>,
}

/// The result of a task: the leaf's value, move and depth.
type Found = Option<(i32, Move, u8)>;

fn session(probcut: i32) -> Result<Box<dyn Session>> {
    let mut s = duel_engine::open(Othello::NAME, Some("patterns"))?;
    let mut config = SearchConfig {
        tt_mb: 64,
        threads: 1,
        ..s.config().clone()
    };
    config.profile.probcut = probcut;
    s.set_config(config)?;
    s.set_quick_solve(false);
    Ok(s)
}

/// The moves of `pos` outside `book`, less `without`.
fn outside(book: &Book, pos: &Othello, without: Option<Move>) -> Vec<Move> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves.retain(|&mv| {
        let mut child = pos.clone();
        child.play(mv);
        Some(mv) != without && !book.contains(&child)
    });
    moves
}

/// Grows the book in `out` (read first when it exists) by `plan`; prints a line a round.
pub fn build(out: &Path, plan: &Plan) -> Result<()> {
    let mut book = match std::fs::read(out) {
        Ok(bytes) => {
            Book::from_bytes(&bytes).with_context(|| format!("reading {}", out.display()))?
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Book::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", out.display())),
    };
    let threads = plan.threads.max(1);
    let mut sessions = (0..threads)
        .map(|_| session(plan.probcut))
        .collect::<Result<Vec<_>>>()?;
    let root = Othello::start();
    let start = Instant::now();
    if !book.contains(&root) {
        let mut leaf = nboard::book_leaf(sessions[0].as_mut(), plan.depth);
        book.add(&root, &mut leaf);
        book.negamax();
    }
    while book.len() < plan.positions {
        // Whole rounds only: a run stopped after a round and one asked for the count it
        // reached write the same book.
        let candidates = book.candidates(&root, plan.batch, plan.min_empties);
        let stale = book.stale();
        if candidates.is_empty() && stale.is_empty() {
            eprintln!("nothing left to expand above {} empties", plan.min_empties);
            break;
        }
        // A candidate is two searches: its child (new to the book) and its parent without it.
        let mut tasks = Vec::new();
        for (parent, mv) in &candidates {
            let mut child = parent.clone();
            child.play(*mv);
            tasks.push(Task {
                pos: child,
                without: None,
            });
            tasks.push(Task {
                pos: parent.clone(),
                without: Some(*mv),
            });
        }
        tasks.extend(stale.iter().map(|p| Task {
            pos: p.clone(),
            without: None,
        }));
        let found = search_all(&book, &tasks, &mut sessions, plan.depth);
        // Children first, so that a parent's node counts its new child as in the book.
        for (task, f) in tasks
            .iter()
            .zip(&found)
            .filter(|(t, _)| t.without.is_none())
        {
            if !book.contains(&task.pos) || stale.contains(&task.pos) {
                book.refresh(&task.pos, &mut |_: &Othello, _: &[Move]| *f);
            }
        }
        for (task, f) in tasks
            .iter()
            .zip(&found)
            .filter(|(t, _)| t.without.is_some())
        {
            book.refresh(&task.pos, &mut |_: &Othello, _: &[Move]| *f);
        }
        book.negamax();
        std::fs::write(out, book.to_bytes())
            .with_context(|| format!("writing {}", out.display()))?;
        let best = book.best(&root).expect("the root is in the book");
        eprintln!(
            "{} positions, {} stale, {:.0} s; root {:+} by {}",
            book.len(),
            stale.len(),
            start.elapsed().as_secs_f64(),
            best.value,
            best.line.iter().map(Move::to_string).collect::<String>()
        );
    }
    Ok(())
}

/// The leaf search of every task, task `i` on session `i % threads`.
fn search_all(
    book: &Book,
    tasks: &[Task],
    sessions: &mut [Box<dyn Session>],
    depth: u32,
) -> Vec<Found> {
    let threads = sessions.len();
    let mut found: Vec<Found> = vec![None; tasks.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (sessions.iter_mut().enumerate())
            .map(|(t, session)| {
                scope.spawn(move || {
                    let mut leaf = nboard::book_leaf(session.as_mut(), depth);
                    (tasks.iter().enumerate().skip(t).step_by(threads))
                        .map(|(i, task)| {
                            let among = outside(book, &task.pos, task.without);
                            let f = match among.is_empty() {
                                true => None,
                                false => leaf.best(&task.pos, &among),
                            };
                            (i, f)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (i, f) in h.join().expect("a search thread") {
                found[i] = f;
            }
        }
    });
    found
}

/// The report of `duel-train othello-book-stats`.
pub fn stats(path: &Path, openings: Option<&Path>) -> Result<String> {
    use std::fmt::Write as _;
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let book = Book::from_bytes(&bytes).with_context(|| format!("reading {}", path.display()))?;
    let mut out = format!("{}: {} positions\n", path.display(), book.len());
    for (discs, n) in book.by_discs() {
        let _ = writeln!(out, "  ply {:2}: {n}", discs - 4);
    }
    if let Some(best) = book.best(&Othello::start()) {
        let line: String = best.line.iter().map(Move::to_string).collect();
        let _ = writeln!(
            out,
            "start: {:+} by {line} (depth {})",
            best.value, best.depth
        );
    }
    if let Some(file) = openings {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        // Read as `duel match --openings` reads them: positions or move lines.
        let openings = duel_arena::read_openings(&Othello::start(), &text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let all = openings.len();
        let held = (openings.iter())
            .filter(|o| {
                let mut pos = o.start.clone();
                for text in &o.moves {
                    match pos.parse_move(text) {
                        Ok(mv) => pos.play(mv),
                        Err(_) => return false,
                    }
                }
                book.contains(&pos)
            })
            .count();
        let _ = writeln!(
            out,
            "{}: {held} of {all} positions in the book",
            file.display()
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(positions: usize, threads: usize) -> Plan {
        Plan {
            positions,
            depth: 2,
            batch: 4,
            min_empties: 50,
            threads,
            probcut: 150,
        }
    }

    /// The promises of the module's notes: the same book for one thread or two, and for a run
    /// stopped after a round and started again; and the root's value is its best move's.
    #[test]
    fn the_book_is_the_same_whatever_the_threads_and_the_stops() {
        let dir = std::env::temp_dir().join(format!("duel-train-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let [one, two, resumed] = ["one", "two", "resumed"].map(|n| dir.join(n));
        build(&one, &plan(40, 1)).unwrap();
        build(&two, &plan(40, 2)).unwrap();
        build(&resumed, &plan(20, 2)).unwrap();
        let half = std::fs::read(&resumed).unwrap();
        build(&resumed, &plan(40, 2)).unwrap();
        let bytes = std::fs::read(&one).unwrap();
        assert_ne!(half, bytes);
        assert_eq!(std::fs::read(&two).unwrap(), bytes);
        assert_eq!(std::fs::read(&resumed).unwrap(), bytes);

        let book = Book::from_bytes(&bytes).unwrap();
        assert!(book.len() >= 40);
        let best = book.best(&Othello::start()).unwrap();
        assert_eq!(
            best.value,
            i32::from(book.get(&Othello::start()).unwrap().value)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
