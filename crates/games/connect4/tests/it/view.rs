//! What a graphical front end is shown: the grid, where a disc lands, records read back.

use duel_connect4::Connect4;
use duel_core::{Game, GameInfo, MoveCells, Piece, Side};

/// A disc dropped into an empty column lands on the bottom row; the next one above it.
#[test]
fn discs_land_on_the_lowest_empty_cell() {
    let mut pos = Connect4::start();
    let view = pos.board_view();
    assert_eq!((view.cols, view.rows), (7, 6));
    assert_eq!(view.col_labels, ["1", "2", "3", "4", "5", "6", "7"]);
    let four = pos.parse_move("4").unwrap();
    // Column 4 (index 3) of the bottom row, the sixth from the top.
    let bottom = 5 * 7 + 3;
    assert_eq!(pos.move_cells(four), MoveCells::placement(bottom));
    pos.play(four);
    let x = Some(Piece {
        side: Side::First,
        kind: 'X',
    });
    assert_eq!(pos.board_view().cells[usize::from(bottom)], x);
    assert_eq!(pos.move_cells(four).to, Some(bottom - 7));
    // A full column takes no disc.
    let full = Connect4::from_text("444444").unwrap();
    assert_eq!(full.move_cells(3), MoveCells::default());
}

/// The diagram's rows, top first, are the view's rows.
#[test]
fn the_view_is_the_diagram() {
    let pos = Connect4::from_text("4453").unwrap();
    let drawn: String = pos
        .board_view()
        .cells
        .chunks(7)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|c| c.map_or('.', |p| p.kind).to_string())
                .collect();
            cells.join(" ") + "\n"
        })
        .collect();
    assert!(pos.diagram().starts_with(&drawn), "{drawn}");
}

/// The position text is the record: the empty board and the columns played; a full column
/// or one off the board is named.
#[test]
fn records_are_the_position_text() {
    let start = Connect4::start();
    assert_eq!(
        Connect4::read_record(&start, "4453"),
        Ok((start, vec![3, 3, 4, 2]))
    );
    let e = Connect4::read_record(&start, "4444444").unwrap_err().reason;
    assert!(
        e.contains("move 7") && e.contains("column 4 is full"),
        "{e}"
    );
    let e = Connect4::read_record(&start, "48").unwrap_err().reason;
    assert!(e.contains("move 2"), "{e}");
}
