//! What a graphical front end is shown: the grid from Red's side, the points a move touches,
//! the diagram, and game records read back.

use duel_core::{Game, GameInfo, MoveCells, Piece, RecordInfo, Side};
use duel_xiangqi::{read_pgn, Xiangqi};

use crate::common::{play, pos};

/// a9 is cell 0 and i0 cell 89: Black's chariot top left, Red's general on cell 85 (e0).
#[test]
fn the_start_from_reds_side() {
    let view = Xiangqi::start().board_view();
    assert_eq!((view.cols, view.rows), (9, 10));
    assert_eq!(
        view.col_labels,
        ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
    );
    assert_eq!(
        view.row_labels,
        ["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]
    );
    assert_eq!(view.cell_names[0], "a9");
    assert_eq!(view.cell_names[85], "e0");
    assert_eq!(view.cell_names[89], "i0");
    let piece = |side, kind| Some(Piece { side, kind });
    assert_eq!(view.cells[0], piece(Side::Second, 'R'));
    assert_eq!(view.cells[4], piece(Side::Second, 'K'));
    assert_eq!(view.cells[19], piece(Side::Second, 'C'));
    assert_eq!(view.cells[85], piece(Side::First, 'K'));
    assert_eq!(view.cells[83], piece(Side::First, 'B'));
    assert_eq!(view.cells[70], piece(Side::First, 'C'));
    assert_eq!(view.cells[54], piece(Side::First, 'P'));
    assert_eq!(view.cells.iter().flatten().count(), 32);
    assert_eq!(<Xiangqi as GameInfo>::BOARD_STYLE.name(), "xiangqi");
}

/// h2e2 goes from cell 70 to 67; h9g7 from 7 to 24.
#[test]
fn moves_touch_their_points() {
    let mut p = Xiangqi::start();
    let mv = p.parse_move("h2e2").unwrap();
    assert_eq!(p.move_cells(mv), MoveCells::between(70, 67));
    p.play(mv);
    let mv = p.parse_move("h9g7").unwrap();
    assert_eq!(p.move_cells(mv), MoveCells::between(7, 24));
}

/// The pieces in WXF's letters (FEN's `n` and `b` are `h` and `e`), the river, the files and
/// the legend under them.
#[test]
fn the_diagram_draws_the_river() {
    let expected = "\
9 r h e a k a e h r
8 . . . . . . . . .
7 . c . . . . . c .
6 p . p . p . p . p
5 . . . . . . . . .
  ~ ~ ~ ~ ~ ~ ~ ~ ~
4 . . . . . . . . .
3 P . P . P . P . P
2 . C . . . . . C .
1 . . . . . . . . .
0 R H E A K A E H R
  a b c d e f g h i
R chariot, H horse, E elephant, A advisor, K king, C cannon, P pawn; Red upper case
ICCS h2e2: files a-i, ranks 0-9 from Red's side; UCI (Fairy-Stockfish) ranks 1-10
WXF C2.5 (the cannon from file 2 to 5): files 1-9 from each player's own right
";
    assert_eq!(Xiangqi::start().diagram(), expected);
}

/// The last move: the piece in brackets where it went, `-` where it was; only the last one,
/// and none where the game was set up from a FEN.
#[test]
fn the_diagram_marks_the_last_move() {
    let mut p = Xiangqi::start();
    play(&mut p, "h2e2");
    let d = p.diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[8], "2 . C . .[C]. . - .", "{d}");
    play(&mut p, "h9g7");
    let d = p.diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[0], "9 r h e a k a e - r", "{d}");
    assert_eq!(lines[2], "7 . c . . . .[h]c .", "{d}");
    assert_eq!(lines[8], "2 . C . . C . . . .", "{d}");
    // A step along the rank, from the last file.
    let mut p = pos("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1");
    assert!(!p.diagram().contains('['), "{}", p.diagram());
    play(&mut p, "i0h0");
    assert!(
        p.diagram().contains("\n0 . . . K . . .[R]-\n"),
        "{}",
        p.diagram()
    );
}

/// A record given only the players' names still carries the Seven Tag Roster, the names
/// under Red and Black, as every PGN reader expects.
#[test]
fn pgn_records_name_the_players() {
    let start = Xiangqi::start();
    let info = RecordInfo {
        names: ["Ann", "Bo"],
        ..RecordInfo::default()
    };
    let pgn = Xiangqi::record(&start, &[], &info).unwrap();
    assert!(
        pgn.starts_with(
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [Red \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n[Variant \"xiangqi\"]\n"
        ),
        "{pgn}"
    );
}

/// The PGN `record` writes, with tags, a comment after each move and a result, reads back to
/// the same start and moves; a game from a FEN carries it in its tags.
#[test]
fn pgn_records_read_back() {
    let line = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7";
    let notes: Vec<String> = (0..6).map(|i| format!("+0.{i}/7")).collect();
    let tags = [("Event", "test \"quoted\""), ("Red", "a"), ("Black", "b")];
    let info = RecordInfo {
        tags: &tags,
        notes: &notes,
        ..RecordInfo::default()
    };
    for start in [
        Xiangqi::start(),
        pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"),
    ] {
        let mut p = start.clone();
        let line = if start.side_to_move() == Side::First {
            line.to_string()
        } else {
            "h7e7 h0g2 h9g7".to_string()
        };
        play(&mut p, &line);
        let moves: Vec<_> = {
            let mut q = start.clone();
            line.split_whitespace()
                .map(|t| {
                    let m = q.parse_move(t).unwrap();
                    q.play(m);
                    m
                })
                .collect()
        };
        let pgn = Xiangqi::record(&start, &moves, &info).unwrap();
        assert!(pgn.contains("[Variant \"xiangqi\"]"), "{pgn}");
        assert!(pgn.contains("[Event \"test \\\"quoted\\\"\"]"), "{pgn}");
        assert!(pgn.contains("{+0.1/7}"), "{pgn}");
        assert_eq!(pgn.contains("[FEN "), start != Xiangqi::start(), "{pgn}");
        let (first, read) = read_pgn(&pgn).unwrap();
        assert_eq!(first.to_text(), start.to_text());
        assert_eq!(read, moves);
    }
}

#[test]
fn records_in_every_form() {
    let start = Xiangqi::start();
    let read = |text: &str| Xiangqi::read_record(&start, text);
    let (first, moves) = read("startpos moves h2e2 h9g7").unwrap();
    assert_eq!(first, start);
    assert_eq!(moves.len(), 2);
    let (_, same) = read("position startpos moves h2e2 h9g7").unwrap();
    assert_eq!(same, moves);
    let (_, bare) = read("1. h2e2 h9g7 *").unwrap();
    assert_eq!(bare, moves);
    let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let (alone, none) = read(fen).unwrap();
    assert_eq!(alone.to_text(), fen);
    assert!(none.is_empty());
    let (_, after) = read(&format!("fen {fen} moves d0d1")).unwrap();
    assert_eq!(after.len(), 1);
    // Errors name the move, or the tag.
    let e = read("1. h2e2 h9g7 2. h0h1").unwrap_err().reason;
    assert!(e.contains("move 2. h0h1"), "{e}");
    let e = read("1. h2e2 h9g7 2. C2.5").unwrap_err().reason;
    assert!(e.contains("not ICCS"), "{e}");
    let e = read("[Variant \"chess\"]\n1. e2e4 *").unwrap_err().reason;
    assert!(e.contains("not xiangqi"), "{e}");
    let e = read("[FEN \"9/9 w\"]\n*").unwrap_err().reason;
    assert!(e.contains("FEN tag"), "{e}");
    let e = read("1. h2e2 {open").unwrap_err().reason;
    assert!(e.contains("not closed"), "{e}");
    // Comments, variations and annotations are passed over.
    let (_, moves) =
        read("1. h2e2! {a comment} (1. b2e2 h9g7) h9g7?! $1 ; rest\n 1/2-1/2").unwrap();
    assert_eq!(moves.len(), 2);
    // A perpetual does not stop the reading.
    let mut p = pos("3k5/9/9/9/3R5/9/9/9/9/5K3 b - - 0 1");
    let cycle = "d9e9 d5e5 e9d9 e5d5 ";
    play(&mut p, &cycle.repeat(2));
    let (_, all) = read(&format!(
        "fen 3k5/9/9/9/3R5/9/9/9/9/5K3 b - - 0 1 moves {}d9e9",
        cycle.repeat(2)
    ))
    .unwrap();
    assert_eq!(all.len(), 9);
}
