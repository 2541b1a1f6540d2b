//! What a graphical front end is shown: the grid as Othello boards are drawn (a1 top left),
//! the square a move is played on, records read back.

use duel_core::{Game, GameInfo, MoveCells, Piece, RecordInfo, Side};
use duel_othello::{Move, Othello};

const BLACK: Piece = Piece {
    side: Side::First,
    kind: 'X',
};
const WHITE: Piece = Piece {
    side: Side::Second,
    kind: 'O',
};

/// The start: d4 and e5 white, d5 and e4 black, in the fourth and fifth rows from the top
/// (rank 1 is the top row, as in the diagram).
#[test]
fn the_start_has_its_four_discs_in_the_centre() {
    let view = Othello::start().board_view();
    assert_eq!((view.cols, view.rows), (8, 8));
    assert_eq!(view.col_labels[0], "a");
    assert_eq!(view.row_labels, ["1", "2", "3", "4", "5", "6", "7", "8"]);
    let (d4, e4, d5, e5) = (3 * 8 + 3, 3 * 8 + 4, 4 * 8 + 3, 4 * 8 + 4);
    assert_eq!(view.cells[d4], Some(WHITE));
    assert_eq!(view.cells[e4], Some(BLACK));
    assert_eq!(view.cells[d5], Some(BLACK));
    assert_eq!(view.cells[e5], Some(WHITE));
    assert_eq!(view.cells.iter().flatten().count(), 4);
}

/// f5 is the sixth cell of the fifth row; a pass touches no cell.
#[test]
fn moves_touch_their_square() {
    let mut pos = Othello::start();
    let f5 = pos.parse_move("f5").unwrap();
    assert_eq!(pos.move_cells(f5), MoveCells::placement(4 * 8 + 5));
    pos.play(f5);
    // e5 turned black.
    assert_eq!(pos.board_view().cells[4 * 8 + 4], Some(BLACK));
    assert_eq!(pos.move_cells(Move::PASS), MoveCells::default());
}

/// A game written as GGF reads back with its start and moves; a position text is a start
/// with no moves; a bad move is named.
#[test]
fn records_read_back() {
    let start = Othello::start();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for square in ["f5", "d6", "c3", "d3", "c4"] {
        let mv = pos.parse_move(square).unwrap();
        pos.play(mv);
        moves.push(mv);
    }
    let ggf = Othello::record(&start, &moves, &RecordInfo::default()).unwrap();
    assert_eq!(
        Othello::read_record(&start, &ggf).unwrap(),
        (start.clone(), moves)
    );
    let (at, none) = Othello::read_record(&start, &pos.to_text()).unwrap();
    assert_eq!((at.to_text(), none), (pos.to_text(), Vec::new()));
    let bad = ggf.replace("W[D6]", "W[A1]");
    let e = Othello::read_record(&start, &bad).unwrap_err();
    assert!(e.reason.contains("move 2 W[A1]"), "{e}");
    assert!(Othello::read_record(&start, "(;GM[Othello]B[F5]").is_err());
    assert!(Othello::read_record(&start, "not a position").is_err());
}
