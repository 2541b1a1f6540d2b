//! An opening book: positions with values from duel's own searches, negamaxed up the tree.
//!
//! Each position is kept once for its eight images under the symmetries of the board
//! ([`key`]). A [`Node`] holds the value of its best move *outside* the book, from a search
//! ([`Node::leaf`]), and the value of the position ([`Node::value`]), the better of that and of
//! the moves into the book, each worth minus its child's value. So a value in the book is a
//! minimax value over every move, the book's moves searched deeper (their subtrees) and the
//! others by the leaf search, as NTest's and Edax's books keep them.
//!
//! The book grows by drop-out expansion (Lincke): the candidate to add is the best outside
//! move of the node reached most cheaply, a path costing what each side gives away on it
//! against its best move, plus a fixed price per ply ([`Book::candidates`]). The main lines
//! grow deep and the near-equal alternatives grow beside them. `learn` adds a game's
//! positions the same way ([`Book::learn`]). The searches come from outside ([`Leaf`]): the
//! book knows the rules, not the engine.
//!
//! The file is little-endian: `DUELBOOK`, the version (u32), the number of nodes (u32),
//! then each node in the order of its key (20 bytes: player and opponent discs of the key,
//! u64 each; the value and the leaf value in discs, i8, −128 for no leaf; the leaf move in
//! the key's orientation, u8, 255 for none; the leaf's search depth, u8).

use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};

use duel_core::Game;

use crate::pattern::orient;
use crate::{Move, Othello};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"DUELBOOK";
/// The file format's version.
pub const VERSION: u32 = 1;
/// Bytes of one node in the file.
const NODE_BYTES: usize = 20;
/// A leaf depth that means solved to the end.
pub const EXACT_DEPTH: u8 = 255;

/// The book grown by `duel-train othello-book` (see `book/README.md`), as built in.
pub const COMMITTED: &[u8] = include_bytes!("../book/duel.book");

/// What is wrong with a book file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookFileError {
    /// Not a book: the first bytes differ.
    #[error("not a duel book (it does not start with DUELBOOK)")]
    Magic,
    /// A version this build does not read.
    #[error("book format version {0}; this build reads version {VERSION}")]
    Version(u32),
    /// Shorter or longer than its node count says.
    #[error("the book says {count} nodes but holds {bytes} bytes of them")]
    Length {
        /// Nodes the header announces.
        count: usize,
        /// Bytes after the header.
        bytes: usize,
    },
    /// A node that is no position, or not in its canonical orientation.
    #[error("node {index}: {reason}")]
    Node {
        /// Its place in the file, from 0.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

/// A position's key: the side to move's discs and the other side's, in the orientation of
/// the eight ([`orient`]) with the smallest pair.
pub fn key(player: u64, opponent: u64) -> (u64, u64) {
    (0..8)
        .map(|g| (orient(player, g), orient(opponent, g)))
        .min()
        .expect("eight orientations")
}

/// The orientation that takes the position to its key.
fn orientation_of(pos: &Othello) -> usize {
    let k = key(pos.player(), pos.opponent());
    (0..8)
        .find(|&g| (orient(pos.player(), g), orient(pos.opponent(), g)) == k)
        .expect("one orientation gives the key")
}

/// A move of `pos` in the key's orientation, or back: the square whose image under `g` is
/// `sq`.
fn square_in(g: usize, sq: u8) -> u8 {
    orient(1 << sq, g).trailing_zeros() as u8
}
fn square_from(g: usize, sq: u8) -> u8 {
    (0..64u8)
        .find(|&s| orient(1 << s, g) == 1 << sq)
        .expect("an orientation is a permutation of the squares")
}

/// A move in the key's orientation; a pass stays one.
fn move_to_key(g: usize, mv: Move) -> Move {
    mv.to_square().map_or(mv, |s| Move::square(square_in(g, s)))
}
fn move_from_key(g: usize, mv: Move) -> Move {
    mv.to_square()
        .map_or(mv, |s| Move::square(square_from(g, s)))
}

/// One position of the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// The position's value in discs, from the side to move: the best of the leaf and of the
    /// moves into the book.
    pub value: i8,
    /// The value of the best move outside the book, from a search; None when every move is
    /// in the book or the game is over.
    pub leaf: Option<i8>,
    /// That move, in the key's orientation.
    pub leaf_move: Option<Move>,
    /// The depth of the leaf's search ([`EXACT_DEPTH`]: solved).
    pub depth: u8,
}

/// The value of the best move of a position among `among` (all its moves when empty), from a
/// search of the engine: (value in discs from the side to move, the move, the depth
/// searched, [`EXACT_DEPTH`] when solved). None when stopped.
pub trait Leaf {
    /// Searches `pos` with the root restricted to `among`.
    fn best(&mut self, pos: &Othello, among: &[Move]) -> Option<(i32, Move, u8)>;
}

impl<F: FnMut(&Othello, &[Move]) -> Option<(i32, Move, u8)>> Leaf for F {
    fn best(&mut self, pos: &Othello, among: &[Move]) -> Option<(i32, Move, u8)> {
        self(pos, among)
    }
}

/// A move the book suggests, in the position's own orientation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its value in discs, from the side to move.
    pub value: i32,
    /// Whether the move leads into the book (otherwise it is the leaf's move).
    pub in_book: bool,
    /// The line the book expects, this move first, as far as it goes.
    pub line: Vec<Move>,
    /// The depth of the search the value rests on ([`EXACT_DEPTH`]: solved).
    pub depth: u8,
}

/// An opening book (see the module's notes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    nodes: HashMap<(u64, u64), Node>,
}

/// A path's price per ply in [`Book::candidates`], in discs: what makes a line this many plies
/// longer worth expanding as much as a one-disc worse move at the same ply.
pub const PLY_COST: i32 = 1;

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// How many positions the book holds with each number of discs on the board.
    pub fn by_discs(&self) -> BTreeMap<u32, usize> {
        let mut count = BTreeMap::new();
        for &(p, o) in self.nodes.keys() {
            *count.entry((p | o).count_ones()).or_insert(0) += 1;
        }
        count
    }

    /// The node of `pos`, if the book holds it.
    pub fn get(&self, pos: &Othello) -> Option<&Node> {
        self.nodes.get(&key(pos.player(), pos.opponent()))
    }

    /// Whether the book holds `pos`.
    pub fn contains(&self, pos: &Othello) -> bool {
        self.get(pos).is_some()
    }

    /// The moves of `pos` the book values, best first (the move order breaks ties): those
    /// into the book and the leaf's, each with its value and whether it leads into the book.
    fn ranked(&self, pos: &Othello) -> Vec<(Move, i32, bool)> {
        let Some(node) = self.get(pos) else {
            return Vec::new();
        };
        let leaf_move = node
            .leaf_move
            .map(|m| move_from_key(orientation_of(pos), m));
        let (inside, _) = self.split_moves(pos);
        let stale = inside.iter().any(|&(mv, _)| Some(mv) == leaf_move);
        let mut out: Vec<_> = inside.into_iter().map(|(mv, v)| (mv, v, true)).collect();
        if let (Some(mv), Some(v), false) = (leaf_move, node.leaf, stale) {
            out.push((mv, i32::from(v), false));
        }
        // Stable: equal values keep the move order, the leaf's after the book's.
        out.sort_by_key(|m| -m.1);
        out
    }

    /// Every move of `pos` the book values, best first (see [`BookMove`]). Empty when the
    /// book does not hold `pos`.
    pub fn moves(&self, pos: &Othello) -> Vec<BookMove> {
        let node = self.get(pos).copied();
        (self.ranked(pos).into_iter())
            .map(|(mv, value, in_book)| {
                let (line, depth) = if in_book {
                    let mut child = pos.clone();
                    child.play(mv);
                    let (mut line, depth) = self.line(&child);
                    line.insert(0, mv);
                    (line, depth)
                } else {
                    (vec![mv], node.map_or(0, |n| n.depth))
                };
                BookMove {
                    mv,
                    value,
                    in_book,
                    line,
                    depth,
                }
            })
            .collect()
    }

    /// The book's best move in `pos`, if it holds the position.
    pub fn best(&self, pos: &Othello) -> Option<BookMove> {
        self.moves(pos).into_iter().next()
    }

    /// The line of best moves from `pos` while the book holds the positions, and the depth
    /// of the search its value comes from (that of the leaf it ends on; [`EXACT_DEPTH`] at
    /// the end of the game).
    fn line(&self, pos: &Othello) -> (Vec<Move>, u8) {
        let mut line = Vec::new();
        let mut pos = pos.clone();
        // A game has at most 60 moves and as many passes.
        for _ in 0..120 {
            let Some(&node) = self.get(&pos) else { break };
            match self.ranked(&pos).first() {
                Some(&(mv, _, true)) => {
                    line.push(mv);
                    pos.play(mv);
                }
                Some(&(mv, _, false)) => {
                    line.push(mv);
                    return (line, node.depth);
                }
                None => return (line, node.depth),
            }
        }
        (line, EXACT_DEPTH)
    }

    /// The values of `pos`'s children in the book, by move, and the moves outside it.
    fn split_moves(&self, pos: &Othello) -> (Vec<(Move, i32)>, Vec<Move>) {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let (mut inside, mut outside) = (Vec::new(), Vec::new());
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            match self.get(&child) {
                Some(c) => inside.push((mv, -i32::from(c.value))),
                None => outside.push(mv),
            }
        }
        (inside, outside)
    }

    /// Searches the leaf of `pos` (its moves outside the book) and stores the node, its value
    /// from the leaf and the children already in the book. False when the search stopped.
    fn evaluate(&mut self, pos: &Othello, leaf: &mut impl Leaf) -> bool {
        let g = orientation_of(pos);
        let (inside, outside) = self.split_moves(pos);
        let (leaf_value, leaf_move, depth) = if pos.is_over() {
            (None, None, EXACT_DEPTH)
        } else if outside.is_empty() {
            (None, None, 0)
        } else {
            match leaf.best(pos, &outside) {
                Some((v, mv, d)) => (Some(clamp(v)), Some(move_to_key(g, mv)), d),
                None => return false,
            }
        };
        let value = match pos.is_over() {
            true => clamp(pos.final_score()),
            false => (inside.iter().map(|&(_, v)| v))
                .chain(leaf_value.map(i32::from))
                .max()
                .map_or(0, clamp),
        };
        self.nodes.insert(
            key(pos.player(), pos.opponent()),
            Node {
                value,
                leaf: leaf_value,
                leaf_move,
                depth,
            },
        );
        true
    }

    /// The positions whose leaf's move has joined the book by a transposition, so that the
    /// leaf no longer values a move outside it: a builder searches them again
    /// ([`Book::refresh`]). In the order of their keys.
    pub fn stale(&self) -> Vec<Othello> {
        let mut keys: Vec<_> = (self.nodes.iter())
            .filter_map(|(&(p, o), n)| {
                let mut child = Othello::from_bitboards(p, o, duel_core::Side::First)?;
                child.play(n.leaf_move?);
                self.contains(&child).then_some((p, o))
            })
            .collect();
        keys.sort_unstable();
        (keys.into_iter())
            .filter_map(|(p, o)| Othello::from_bitboards(p, o, duel_core::Side::First))
            .collect()
    }

    /// Searches the leaf of a position in the book again; false when the search stopped.
    pub fn refresh(&mut self, pos: &Othello, leaf: &mut impl Leaf) -> bool {
        self.evaluate(pos, leaf)
    }

    /// Adds `pos` (if new) with its leaf searched. False when the search stopped.
    pub fn add(&mut self, pos: &Othello, leaf: &mut impl Leaf) -> bool {
        self.contains(pos) || self.evaluate(pos, leaf)
    }

    /// Adds the child of `parent` by `mv` and searches the parent's leaf again without it,
    /// then negamaxes the book. False when a search stopped (the book is then as before,
    /// apart from a child that was complete).
    pub fn expand(&mut self, parent: &Othello, mv: Move, leaf: &mut impl Leaf) -> bool {
        let mut child = parent.clone();
        child.play(mv);
        if !self.add(&child, leaf) {
            return false;
        }
        if self.contains(parent) && !self.evaluate(parent, leaf) {
            return false;
        }
        self.negamax();
        true
    }

    /// Adds the positions of a game (from its start, while they have more than `min_empties`
    /// empty squares), each with its leaf searched, then negamaxes: NBoard's `learn`. A
    /// position already in the book is searched again when the game's next position joined
    /// it, since its leaf may have been that move. Returns how many positions were added, or
    /// None when a search stopped (those added before stay, with their values).
    pub fn learn(
        &mut self,
        start: &Othello,
        moves: &[Move],
        min_empties: u32,
        leaf: &mut impl Leaf,
    ) -> Option<usize> {
        let mut path = Vec::new();
        let mut pos = start.clone();
        for &mv in moves {
            if pos.empties().count_ones() <= min_empties {
                break;
            }
            path.push(pos.clone());
            pos.play(mv);
        }
        if pos.empties().count_ones() > min_empties {
            path.push(pos);
        }
        let mut added = 0;
        let mut child_added = false;
        // From the last back to the first, so that each parent sees its child in the book.
        for p in path.iter().rev() {
            let new = !self.contains(p);
            if (new || child_added) && !self.evaluate(p, leaf) {
                self.negamax();
                return None;
            }
            added += usize::from(new);
            child_added = new;
        }
        self.negamax();
        Some(added)
    }

    /// Every value again from the leaves up: a node's value is the best of its leaf and of its
    /// children's values, negated. Positions are visited from the most discs down; a pass
    /// keeps the count, and a position with a pass is done after the one it leads to.
    pub fn negamax(&mut self) {
        let mut order: Vec<(u64, u64)> = self.nodes.keys().copied().collect();
        // More discs first; among equal counts, a position whose side to move has no move
        // (it passes) after those with moves, since a pass leads to one with moves.
        order.sort_by_key(|&(p, o)| {
            let passes = crate::bitboard::moves(p, o) == 0;
            (std::cmp::Reverse((p | o).count_ones()), passes, p, o)
        });
        for k in order {
            let pos = Othello::from_bitboards(k.0, k.1, duel_core::Side::First)
                .expect("a key is a position");
            let node = self.nodes[&k];
            if pos.is_over() {
                continue;
            }
            let (inside, _) = self.split_moves(&pos);
            let value = (inside.iter().map(|&(_, v)| v))
                .chain(node.leaf.map(i32::from))
                .max()
                .map_or(node.value, clamp);
            self.nodes.get_mut(&k).expect("a key of the book").value = value;
        }
    }

    /// The next positions to expand: for the `count` cheapest paths, the node at the end and
    /// its leaf's move, in the position reached from `root` (drop-out expansion, see the
    /// module's notes). A path costs what each side gives away on it against the node's
    /// value, plus [`PLY_COST`] a ply; its end is a node with a leaf, priced with the leaf's
    /// own loss. Only nodes with more than `min_empties` empty squares are expanded.
    pub fn candidates(
        &self,
        root: &Othello,
        count: usize,
        min_empties: u32,
    ) -> Vec<(Othello, Move)> {
        if !self.contains(root) {
            return Vec::new();
        }
        // Dijkstra over the book's graph from the root: the prices are never negative. The
        // heap orders by price, then by `seq` (unique: the order of discovery); the positions
        // themselves wait in `reached`.
        let mut visited = HashSet::new();
        let mut reached = vec![root.clone()];
        let mut heap = BinaryHeap::new();
        let mut found = BTreeMap::new();
        let mut seq = 0u64;
        heap.push((std::cmp::Reverse(0), std::cmp::Reverse(seq), 0));
        while let Some((std::cmp::Reverse(cost), _, at)) = heap.pop() {
            let pos = reached[at].clone();
            let k = key(pos.player(), pos.opponent());
            if !visited.insert(k) {
                continue;
            }
            let node = self.nodes[&k];
            if pos.empties().count_ones() <= min_empties {
                continue;
            }
            if let (Some(leaf), Some(m)) = (node.leaf, node.leaf_move) {
                let mv = move_from_key(orientation_of(&pos), m);
                let price = cost + i32::from(node.value) - i32::from(leaf) + PLY_COST;
                found.entry((price, seq)).or_insert((pos.clone(), mv));
                seq += 1;
            }
            let (inside, _) = self.split_moves(&pos);
            for (mv, v) in inside {
                let mut child = pos.clone();
                child.play(mv);
                let price = cost + i32::from(node.value) - v + PLY_COST;
                seq += 1;
                reached.push(child);
                heap.push((
                    std::cmp::Reverse(price),
                    std::cmp::Reverse(seq),
                    reached.len() - 1,
                ));
            }
        }
        found.into_values().take(count).collect()
    }

    /// The book as its file's bytes (see the module's notes): the same book gives the same
    /// bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<_> = self.nodes.keys().copied().collect();
        keys.sort_unstable();
        let mut out = Vec::with_capacity(16 + keys.len() * NODE_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        for k in keys {
            let n = self.nodes[&k];
            out.extend_from_slice(&k.0.to_le_bytes());
            out.extend_from_slice(&k.1.to_le_bytes());
            out.push(n.value as u8);
            out.push(n.leaf.map_or(i8::MIN, |v| v) as u8);
            out.push(n.leaf_move.map_or(255, |m| m.index() as u8));
            out.push(n.depth);
        }
        out
    }

    /// A book from its file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookFileError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(BookFileError::Magic);
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let version = word(8);
        if version != VERSION {
            return Err(BookFileError::Version(version));
        }
        let count = word(12) as usize;
        let body = &bytes[16..];
        if body.len() != count.saturating_mul(NODE_BYTES) {
            return Err(BookFileError::Length {
                count,
                bytes: body.len(),
            });
        }
        let mut nodes = HashMap::with_capacity(count);
        for (index, rec) in body.chunks_exact(NODE_BYTES).enumerate() {
            let bad = |reason| BookFileError::Node { index, reason };
            let p = u64::from_le_bytes(rec[0..8].try_into().expect("8 bytes"));
            let o = u64::from_le_bytes(rec[8..16].try_into().expect("8 bytes"));
            if p & o != 0 {
                return Err(bad("the two sides share a square"));
            }
            if key(p, o) != (p, o) {
                return Err(bad("not in the orientation of its key"));
            }
            let value = rec[16] as i8;
            let leaf = (rec[17] as i8 != i8::MIN).then_some(rec[17] as i8);
            if !(-64..=64).contains(&value) || leaf.is_some_and(|l| !(-64..=64).contains(&l)) {
                return Err(bad("a value beyond 64 discs"));
            }
            let leaf_move = match rec[18] {
                255 => None,
                sq if sq < 64 => Some(Move::square(sq)),
                64 => Some(Move::PASS),
                _ => return Err(bad("a leaf move that is no square")),
            };
            if leaf.is_some() != leaf_move.is_some() {
                return Err(bad(
                    "a leaf value without its move, or a move without a value",
                ));
            }
            let legal = crate::bitboard::moves(p, o);
            let legal_here = |mv: Move| match mv.to_square() {
                Some(sq) => legal >> sq & 1 == 1,
                None => legal == 0 && crate::bitboard::moves(o, p) != 0,
            };
            if leaf_move.is_some_and(|mv| !legal_here(mv)) {
                return Err(bad("a leaf move that is not legal in its position"));
            }
            nodes.insert(
                (p, o),
                Node {
                    value,
                    leaf,
                    leaf_move,
                    depth: rec[19],
                },
            );
        }
        Ok(Book { nodes })
    }
}

/// A value in discs, within what a game can be won by.
fn clamp(v: i32) -> i8 {
    v.clamp(-64, 64) as i8
}
