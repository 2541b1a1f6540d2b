//! What a graphical front end is shown: the grid, where a disc lands, records read back.

use duel_connect4::Connect4;
use duel_core::{Game, GameInfo, MoveCells, Piece, RecordInfo, Side};

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

/// The diagram's rows, top first, are the view's rows (the last disc's brackets aside).
#[test]
fn the_view_is_the_diagram() {
    let pos = Connect4::from_text("4453").unwrap();
    let drawn: String = pos
        .board_view()
        .cells
        .chunks(7)
        .map(|row| {
            let cells: String = row
                .iter()
                .map(|c| format!(" {}", c.map_or('.', |p| p.kind)))
                .collect();
            cells + "\n"
        })
        .collect();
    let unmarked = pos.diagram().replace(['[', ']'], " ").replace(" \n", "\n");
    assert!(unmarked.starts_with(&drawn), "{drawn}");
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

/// A record names the players under `X` and `O` in PGN's tags, with the front end's own tags
/// and the result after the columns; it reads back to the same moves, as do the columns apart
/// and a result alone.
#[test]
fn records_name_the_players_and_read_back() {
    let start = Connect4::start();
    let moves = [3, 3, 4, 2];
    let tags = [
        ("Event", "duel match"),
        ("Round", "2"),
        ("Termination", "adjudicated"),
    ];
    let info = RecordInfo {
        names: ["Ann \"the\" first", "Bo]"],
        tags: &tags,
        result: Some("1/2-1/2"),
        ..RecordInfo::default()
    };
    let text = Connect4::record(&start, &moves, &info).unwrap();
    assert_eq!(
        text,
        "[Event \"duel match\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"2\"]\n\
         [X \"Ann \\\"the\\\" first\"]\n[O \"Bo]\"]\n[Result \"1/2-1/2\"]\n\
         [Termination \"adjudicated\"]\n\n4453 1/2-1/2\n"
    );
    assert_eq!(
        Connect4::read_record(&start, &text),
        Ok((start, moves.to_vec()))
    );
    // Unnamed players are PGN's unknown; a game in progress ends in `*`; a finished one says
    // who won, the first player's points first.
    let unnamed = Connect4::record(&start, &moves, &RecordInfo::default()).unwrap();
    assert!(
        unnamed.contains("[X \"?\"]\n[O \"?\"]\n[Result \"*\"]\n\n4453 *\n"),
        "{unnamed}"
    );
    let won = [0, 1, 0, 1, 0, 1, 0];
    let text = Connect4::record(&start, &won, &RecordInfo::default()).unwrap();
    assert!(
        text.ends_with("[Result \"1-0\"]\n\n1212121 1-0\n"),
        "{text}"
    );
    let empty = Connect4::record(&start, &[], &RecordInfo::default()).unwrap();
    assert!(empty.ends_with("\n\n*\n"), "{empty}");
    assert_eq!(Connect4::read_record(&start, &empty), Ok((start, vec![])));
    for text in ["4 4 5 3", "4453 *", "[X \"a\"]\n4 45 3 0-1"] {
        assert_eq!(
            Connect4::read_record(&start, text),
            Ok((start, moves.to_vec())),
            "{text}"
        );
    }
    let e = Connect4::read_record(&start, "[X \"a]\n4453")
        .unwrap_err()
        .reason;
    assert!(e.contains("tag X: its value's quote is not closed"), "{e}");
}
