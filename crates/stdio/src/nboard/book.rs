//! The NBoard loop's opening book: which one ([`BookChoice`]), reading it, the leaf search
//! that values its positions ([`book_leaf`]), and `learn`, which adds a game to it.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

use duel_core::Game;
use duel_engine::{Limits, Session};
use duel_othello::book::{Book, Leaf};
use duel_othello::{Move, Othello};
use duel_protocol::nboard::Reply;

use super::think::discs;
use super::Nboard;
use crate::io::send;

/// Which opening book the loop uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum BookChoice {
    /// None: every move is searched (as in matches from XOT starts).
    #[default]
    None,
    /// The book built into duel ([`duel_othello::book::COMMITTED`]); `learn` adds to it for
    /// the session only.
    Committed,
    /// A book file, new when it does not exist yet; `learn` adds to it and writes it.
    File(std::path::PathBuf),
}

/// `learn` adds the positions of a game down to this many empty squares (the committed book
/// is grown to the same limit); past it the solver and the search take over.
pub const LEARN_MIN_EMPTIES: u32 = 36;

/// Why the opening book cannot be had, or kept.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The book built into duel does not read.
    #[error("book the built-in book: {0}")]
    BuiltIn(duel_othello::book::BookFileError),
    /// The file is no book.
    #[error("book {}: {why}", path.display())]
    NotABook {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: duel_othello::book::BookFileError,
    },
    /// The file cannot be read.
    #[error("book {}: {why}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        why: std::io::Error,
    },
    /// The book, learnt into, cannot be written back to its file.
    #[error("book not written to {}: {why}", path.display())]
    NotWritten {
        /// The file.
        path: PathBuf,
        /// Why.
        why: std::io::Error,
    },
}

/// The book of `choice`, and a line for the GUI's status about it; an error when the file
/// cannot be read or is no book.
pub(super) fn open_book(choice: &BookChoice) -> Result<Option<(Book, String)>, BookError> {
    Ok(match choice {
        BookChoice::None => None,
        BookChoice::Committed => {
            let book =
                Book::from_bytes(duel_othello::book::COMMITTED).map_err(BookError::BuiltIn)?;
            let n = book.len();
            Some((book, format!("book: built in, {n} positions")))
        }
        BookChoice::File(path) => match std::fs::read(path) {
            Ok(bytes) => {
                let book = Book::from_bytes(&bytes).map_err(|why| BookError::NotABook {
                    path: path.clone(),
                    why,
                })?;
                let n = book.len();
                Some((book, format!("book: {}, {n} positions", path.display())))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some((
                Book::new(),
                format!("book: {} is new; learn adds games to it", path.display()),
            )),
            Err(why) => {
                return Err(BookError::Unreadable {
                    path: path.clone(),
                    why,
                })
            }
        },
    })
}

/// A book's leaf searches ([`duel_othello::book::Leaf`]) on `session`: the best of the moves
/// asked for, searched to `depth` from a cleared table, so that a value does not depend on
/// the searches before it; its value rounded to whole discs. Stops with the session's flag.
pub fn book_leaf(session: &mut dyn Session, depth: u32) -> impl Leaf + '_ {
    let stop = session.stop_flag();
    move |pos: &Othello, among: &[Move]| {
        session.set_position(&pos.to_text(), &[]).ok()?;
        session.new_game();
        let among: Vec<String> = among.iter().map(Move::to_string).collect();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let report = session.search_among(&limits, &among, &mut |_| {}).ok()?;
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mv = Move::parse(report.pv.first()?)?;
        let depth = u8::try_from(report.depth).unwrap_or(u8::MAX);
        Some((discs(report.value).round() as i32, mv, depth))
    }
}

/// The book, whoever panicked while holding it: its nodes are only ever replaced whole.
pub(super) fn lock(book: &Mutex<Book>) -> std::sync::MutexGuard<'_, Book> {
    book.lock().unwrap_or_else(|e| e.into_inner())
}

impl Nboard {
    /// NBoard's `learn`: the game's positions join the book, down to [`LEARN_MIN_EMPTIES`],
    /// each searched to the depth `set depth` gave; a book file is written. `learned` is the
    /// answer whatever happens (the GUI waits for it), after a status line saying what did.
    pub(super) fn learn(&mut self) {
        if self.no_game("learn") {
            send(&self.out, Reply::Learned);
            return;
        }
        let Some(book) = self.book.clone() else {
            send(
                &self.out,
                Reply::Status("no book to learn into (duel nboard --book FILE)".into()),
            );
            send(&self.out, Reply::Learned);
            return;
        };
        let (start, moves) = (self.game.start.clone(), self.game.moves.clone());
        let file = match &self.opts.book {
            BookChoice::File(path) => Some(path.clone()),
            _ => None,
        };
        self.spawn("learning", start, move |session, _stop, job| {
            let mut leaf = book_leaf(session, job.depth);
            let mut b = lock(&book);
            let status = match b.learn(&job.pos, &moves, LEARN_MIN_EMPTIES, &mut leaf) {
                Some(added) => format!("learned: {added} new positions, {} in all", b.len()),
                None => format!("learn stopped; {} positions in all", b.len()),
            };
            let saved = file.map(|path| {
                std::fs::write(&path, b.to_bytes())
                    .map_err(|why| BookError::NotWritten { path, why })
            });
            drop(b);
            send(&job.out, Reply::Learned);
            // The last status stays on NBoard's status bar: what learning did, or why the
            // book was not written.
            Some(match saved {
                Some(Err(e)) => {
                    eprintln!("duel nboard: {e}");
                    format!("error: {e}")
                }
                _ => status,
            })
        });
    }
}
