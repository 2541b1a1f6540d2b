//! What a graphical front end is shown: the grid of any board size, rows from the top, the
//! cell a move is played on, records read back in their variant.

use duel_core::{Game, GameInfo, MoveCells, Piece, Side};
use duel_gomoku::Gomoku;

fn variant(spec: &str) -> Gomoku {
    Gomoku::variant(spec).unwrap()
}

/// h8 is the centre of 15x15: row 8 from the bottom is the eighth from the top.
#[test]
fn h8_is_the_centre_cell() {
    let mut pos = Gomoku::start();
    let view = pos.board_view();
    assert_eq!((view.cols, view.rows), (15, 15));
    assert_eq!(view.col_labels.first().map(String::as_str), Some("a"));
    assert_eq!(view.col_labels.last().map(String::as_str), Some("o"));
    assert_eq!(view.row_labels.first().map(String::as_str), Some("15"));
    assert_eq!(view.row_labels.last().map(String::as_str), Some("1"));
    let h8 = pos.parse_move("h8").unwrap();
    let centre = 7 * 15 + 7;
    assert_eq!(pos.move_cells(h8), MoveCells::placement(centre));
    pos.play(h8);
    let black = Piece::of_side(Side::First, ['X', 'O']);
    assert_eq!(pos.board_view().cells[usize::from(centre)], Some(black));
    // a1 is the bottom left: the first cell of the last row.
    let a1 = pos.parse_move("a1").unwrap();
    assert_eq!(pos.move_cells(a1).to, Some(14 * 15));
}

/// Other sizes, square or not: 20x20 has 400 cells, 9 columns by 12 rows 108, and the top
/// row's label is the board's height.
#[test]
fn any_board_size() {
    let twenty = variant("20").board_view();
    assert_eq!(
        (twenty.cols, twenty.rows, twenty.cells.len()),
        (20, 20, 400)
    );
    let rect = variant("standard:9x12");
    let view = rect.board_view();
    assert_eq!((view.cols, view.rows, view.cells.len()), (9, 12, 108));
    assert_eq!(view.col_labels.len(), 9);
    assert_eq!(view.row_labels[0], "12");
    // i1 is the bottom right.
    let i1 = rect.parse_move("i1").unwrap();
    assert_eq!(rect.move_cells(i1).to, Some(11 * 9 + 8));
}

/// The record is the position text: read in its variant (named, or `start`'s), it gives the
/// variant's empty board and the moves; a bad move is named.
#[test]
fn records_read_back_in_their_variant() {
    let named = Gomoku::read_record(&Gomoku::start(), "renju:20 k10 k11 l12");
    let (back, read) = named.unwrap();
    assert_eq!(back.board_variant(), variant("renju:20").board_variant());
    assert_eq!(back.moves_played().len(), 0);
    let names: Vec<String> = read.iter().map(|&c| back.cell_name(c)).collect();
    assert_eq!(names, ["k10", "k11", "l12"]);
    let (back, read) = Gomoku::read_record(&variant("20"), "k10 k11").unwrap();
    assert_eq!(back.board_variant(), variant("20").board_variant());
    assert_eq!(read.len(), 2);
    let e = Gomoku::read_record(&Gomoku::start(), "h8 i9 h8")
        .unwrap_err()
        .reason;
    assert!(e.contains("move 3") && e.contains("taken"), "{e}");
    let e = Gomoku::read_record(&Gomoku::start(), "h8 p1")
        .unwrap_err()
        .reason;
    assert!(
        e.contains("move 2") && e.contains("off the 15x15 board"),
        "{e}"
    );
}
