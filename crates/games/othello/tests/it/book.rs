//! The opening book: keys under the symmetries, values negamaxed as a full-width search
//! would give them, the file round trip and its errors, learning a game.

use duel_core::Game;
use duel_othello::book::{key, Book, BookFileError, EXACT_DEPTH};
use duel_othello::pattern::orient;
use duel_othello::{Move, Othello};

/// A leaf that searches one ply by the disc difference: the best of `among`.
fn one_ply(pos: &Othello, among: &[Move]) -> Option<(i32, Move, u8)> {
    among
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            (-child.disc_difference(), mv)
        })
        .max_by_key(|&(v, mv)| (v, std::cmp::Reverse(mv)))
        .map(|(v, mv)| (v, mv, 1))
}

/// Full-width negamax by the disc difference.
fn negamax(pos: &Othello, depth: u32) -> i32 {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if depth == 0 || moves.is_empty() {
        return pos.disc_difference();
    }
    (moves.iter())
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            -negamax(&child, depth - 1)
        })
        .max()
        .expect("a move")
}

fn after(moves: &str) -> Othello {
    let mut pos = Othello::start();
    for i in (0..moves.len()).step_by(2) {
        let mv = pos.parse_move(&moves[i..i + 2]).expect("a legal move");
        pos.play(mv);
    }
    pos
}

#[test]
fn a_position_and_its_images_share_a_key() {
    let pos = after("f5d6c3d3c4");
    let k = key(pos.player(), pos.opponent());
    for g in 0..8 {
        assert_eq!(key(orient(pos.player(), g), orient(pos.opponent(), g)), k);
    }
    // Another position has another key.
    let other = after("f5d6c3d3c4f4");
    assert_ne!(key(other.player(), other.opponent()), k);
}

/// Every move of the root and of each child in the book: the root's value is then the
/// search two plies deep, and each child's the search one ply deep.
#[test]
fn values_are_negamaxed_as_a_full_width_search() {
    let root = after("f5d6c3");
    let mut book = Book::new();
    let mut leaf = one_ply;
    assert!(book.add(&root, &mut leaf));
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    for &mv in &moves {
        assert!(book.expand(&root, mv, &mut leaf));
    }
    // The root's leaf is gone (every move is in the book), its value is the search's.
    let node = *book.get(&root).expect("the root");
    assert_eq!(node.leaf, None);
    assert_eq!(i32::from(node.value), negamax(&root, 2));
    for &mv in &moves {
        let mut child = root.clone();
        child.play(mv);
        assert_eq!(
            i32::from(book.get(&child).unwrap().value),
            negamax(&child, 1)
        );
    }
    // The best move is one whose value is the root's, and its line goes one ply beyond it.
    let best = book.best(&root).expect("in the book");
    assert!(best.in_book);
    assert_eq!(best.value, negamax(&root, 2));
    assert_eq!(best.line.len(), 2);
    assert_eq!(best.depth, 1);
    assert!(book.stale().is_empty());
}

/// A book move is given in the position's own orientation: the mirror image of a book
/// position gets the mirror image of its move.
#[test]
fn book_moves_follow_the_orientation_of_the_position() {
    let mut book = Book::new();
    let mut leaf = one_ply;
    // f5 and its image under the board's anti-diagonal, e6... (f5, d3, c4, e6 all one).
    let a = after("f5");
    assert!(book.add(&a, &mut leaf));
    for text in ["f5", "d3", "c4", "e6"] {
        let pos = after(text);
        let best = book.best(&pos).expect("an image of a book position");
        assert!(!best.in_book);
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        assert!(legal.contains(&best.mv), "{text}: {}", best.mv);
        let mut child = pos.clone();
        child.play(best.mv);
        assert_eq!(-child.disc_difference(), best.value, "{text}");
    }
}

#[test]
fn a_leaf_whose_move_joins_the_book_by_transposition_is_stale() {
    let mut book = Book::new();
    let mut leaf = one_ply;
    let root = after("f5d6");
    assert!(book.add(&root, &mut leaf));
    let node = *book.get(&root).unwrap();
    // Put the leaf's child in by another road: add it directly.
    let g = (0..8)
        .find(|&g| {
            (orient(root.player(), g), orient(root.opponent(), g))
                == key(root.player(), root.opponent())
        })
        .unwrap();
    let leaf_mv = node.leaf_move.unwrap();
    let mut child = root.clone();
    let mv = (0..64u8)
        .map(Move::square)
        .find(|m| orient(1 << m.index(), g) == 1 << leaf_mv.index())
        .unwrap();
    child.play(mv);
    assert!(book.add(&child, &mut leaf));
    book.negamax();
    assert_eq!(book.stale().len(), 1);
    // The stale leaf is not offered beside its own child; refreshed, it values another move.
    let moves = book.moves(&root);
    assert_eq!(moves.iter().filter(|m| m.mv == mv).count(), 1);
    let stale = book.stale();
    assert!(book.refresh(&stale[0], &mut leaf));
    assert!(book.stale().is_empty());
    assert_ne!(book.get(&root).unwrap().leaf_move, Some(leaf_mv));
}

#[test]
fn learning_a_game_adds_its_positions_above_the_limit() {
    let mut game = Othello::start();
    let mut moves = Vec::new();
    // A game of first moves.
    while !game.is_over() {
        let mut legal = Vec::new();
        game.generate_moves(&mut legal);
        game.play(legal[0]);
        moves.push(legal[0]);
    }
    let mut book = Book::new();
    let added = book.learn(&Othello::start(), &moves, 40, &mut one_ply);
    // Every position with 41 empties or more (a pass keeps the count), and nothing after.
    let mut pos = Othello::start();
    let mut above = 1;
    for &mv in &moves {
        pos.play(mv);
        let empties = pos.empties().count_ones();
        assert_eq!(book.contains(&pos), empties > 40, "{empties} empties");
        above += usize::from(empties > 40);
    }
    assert_eq!(added, Some(above));
    assert!(above >= 20);
    // Learned again, nothing is new; a search that stops gives None.
    assert_eq!(
        book.learn(&Othello::start(), &moves, 40, &mut one_ply),
        Some(0)
    );
    let mut stopped = |_: &Othello, _: &[Move]| None;
    let mut fresh = Book::new();
    assert_eq!(
        fresh.learn(&Othello::start(), &moves, 40, &mut stopped),
        None
    );
}

#[test]
fn candidates_start_with_the_best_line() {
    // Not the start, whose four moves are one under the symmetries.
    let root = after("f5");
    let mut book = Book::new();
    let mut leaf = one_ply;
    assert!(book.add(&root, &mut leaf));
    let first = book.candidates(&root, 4, 0);
    assert_eq!(first.len(), 1, "one node, one leaf");
    let (parent, mv) = first[0].clone();
    assert_eq!(parent, root);
    assert!(book.expand(&root, mv, &mut leaf));
    // Now the root's next-best move and the child's best; the cheaper comes first, and the
    // same book gives the same list.
    let next = book.candidates(&root, 4, 0);
    assert_eq!(next.len(), 2);
    assert_eq!(next, book.candidates(&root, 4, 0));
    // Nothing beyond the empties limit.
    assert!(book.candidates(&root, 4, 60).is_empty());
}

#[test]
fn the_file_round_trips_and_bad_files_are_refused_by_name() {
    let mut book = Book::new();
    let mut leaf = one_ply;
    let root = Othello::start();
    assert!(book.add(&root, &mut leaf));
    for _ in 0..6 {
        let c = book.candidates(&root, 1, 0);
        let (parent, mv) = c[0].clone();
        assert!(book.expand(&parent, mv, &mut leaf));
    }
    let bytes = book.to_bytes();
    assert_eq!(bytes.len(), 16 + 20 * book.len());
    assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
    assert_eq!(Book::from_bytes(&bytes).unwrap().to_bytes(), bytes);

    assert_eq!(Book::from_bytes(b"DUELBOO"), Err(BookFileError::Magic));
    let mut v = bytes.clone();
    v[8] = 9;
    assert_eq!(Book::from_bytes(&v), Err(BookFileError::Version(9)));
    assert!(matches!(
        Book::from_bytes(&bytes[..bytes.len() - 1]),
        Err(BookFileError::Length { .. })
    ));
    // A node's value beyond 64 discs, then two sides on one square.
    let mut v = bytes.clone();
    v[16 + 16] = 100;
    assert!(matches!(
        Book::from_bytes(&v),
        Err(BookFileError::Node { index: 0, .. })
    ));
    let mut v = bytes.clone();
    v[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
    let e = Book::from_bytes(&v).unwrap_err();
    assert!(e.to_string().starts_with("node 0: "), "{e}");
    // A leaf move that is not legal where it stands.
    let mut v = bytes.clone();
    let at = (0..book.len())
        .find(|i| v[16 + 20 * i + 18] < 64)
        .expect("a node with a leaf");
    v[16 + 20 * at + 18] = 0; // a1 is never legal this early
    assert!(matches!(
        Book::from_bytes(&v),
        Err(BookFileError::Node { .. })
    ));
}

#[test]
fn a_finished_game_is_solved_in_the_book() {
    // One side has every disc: neither can move.
    let pos = Othello::from_bitboards(0x0000_0018_1800_0000, 0, duel_core::Side::Second).unwrap();
    assert!(pos.is_over());
    let mut book = Book::new();
    assert!(book.add(&pos, &mut one_ply));
    let node = book.get(&pos).unwrap();
    assert_eq!(i32::from(node.value), pos.final_score());
    assert_eq!((node.leaf, node.depth), (None, EXACT_DEPTH));
}
