//! What a graphical front end is shown: the board from White's side, the squares a move
//! touches (castling to the king's own destination), and game records read back.

use duel_chess::{read_pgn, Chess};
use duel_core::{Game, GameInfo, MoveCells, Piece, RecordInfo, Side};

fn pos(fen: &str) -> Chess {
    Chess::from_text(fen).unwrap_or_else(|e| panic!("{e}"))
}

fn cells(pos: &Chess, uci: &str) -> MoveCells {
    pos.move_cells(pos.parse_move(uci).unwrap())
}

/// a8 is cell 0 and h1 cell 63: Black's rook top left, White's king on cell 60 (e1).
#[test]
fn the_start_from_whites_side() {
    let view = Chess::start().board_view();
    assert_eq!((view.cols, view.rows), (8, 8));
    assert_eq!(view.col_labels, ["a", "b", "c", "d", "e", "f", "g", "h"]);
    assert_eq!(view.row_labels, ["8", "7", "6", "5", "4", "3", "2", "1"]);
    let piece = |side, kind| Some(Piece { side, kind });
    assert_eq!(view.cells[0], piece(Side::Second, 'R'));
    assert_eq!(view.cells[4], piece(Side::Second, 'K'));
    assert_eq!(view.cells[12], piece(Side::Second, 'P'));
    assert_eq!(view.cells[59], piece(Side::First, 'Q'));
    assert_eq!(view.cells[60], piece(Side::First, 'K'));
    assert_eq!(view.cells[62], piece(Side::First, 'N'));
    assert_eq!(view.cells[63], piece(Side::First, 'R'));
    assert_eq!(view.cells.iter().flatten().count(), 32);
    assert!(view.cells[16..48].iter().all(Option::is_none));
}

/// e2e4 goes from cell 52 to 36; castling goes to g1 or c1 (g8, c8), though it is played as
/// the king taking its rook; a promotion's cells are the pawn's.
#[test]
fn moves_touch_their_squares() {
    assert_eq!(cells(&Chess::start(), "e2e4"), MoveCells::between(52, 36));
    let castles = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(cells(&castles, "e1g1"), MoveCells::between(60, 62));
    assert_eq!(cells(&castles, "e1h1"), MoveCells::between(60, 62));
    assert_eq!(cells(&castles, "e1c1"), MoveCells::between(60, 58));
    let black = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(cells(&black, "e8g8"), MoveCells::between(4, 6));
    assert_eq!(cells(&black, "e8c8"), MoveCells::between(4, 2));
    // Chess960: the king on b1 castles long with the a1 rook, onto c1.
    let mut c960 = pos("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    c960.set_chess960(true);
    assert_eq!(cells(&c960, "b1a1"), MoveCells::between(57, 58));
    let promotion = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(cells(&promotion, "a7a8q"), MoveCells::between(8, 0));
    assert_eq!(cells(&promotion, "a7a8n"), MoveCells::between(8, 0));
}

/// The PGN that `record` writes, with tags and a comment after each move, reads back to the
/// same start and moves, from the start and in Chess960 (random games without them are the
/// conformance tests').
#[test]
fn pgn_records_read_back() {
    let sans = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Nxe4", "Re1", "d5",
    ];
    let notes: Vec<String> = (0..sans.len())
        .map(|i| format!("+0.{i}/12 {{0.5s}}"))
        .collect();
    let tags = [("Event", "test \"quoted\""), ("White", "a"), ("Black", "b")];
    let info = RecordInfo {
        tags: &tags,
        notes: &notes,
        ..RecordInfo::default()
    };
    let mut c960 = Chess::chess960_start(518);
    c960.set_chess960(true);
    for start in [Chess::start(), c960] {
        let mut p = start.clone();
        let moves: Vec<_> = sans
            .iter()
            .map(|san| {
                let mv = p.parse_san(san).unwrap();
                p.play(mv);
                mv
            })
            .collect();
        let pgn = Chess::record(&start, &moves, &info).unwrap();
        let (back, read) = Chess::read_record(&Chess::start(), &pgn).unwrap();
        assert_eq!((&back, &read), (&start, &moves), "{pgn}");
        assert_eq!(back.is_chess960(), start.is_chess960(), "{pgn}");
    }
}

/// PGN as people and programs write it: comments of both kinds, variations, glyphs, move
/// numbers glued to moves, escaped lines, several games (the first is read).
#[test]
fn pgn_as_written_in_the_wild() {
    let text = r#"[Event "a"]
[Site "?"] [Result "1/2-1/2"]
% an escaped line with a ( in it

1. e4 e5 2. Nf3 {a comment (with a parenthesis} Nc6 (2... d6 3. d4 {inner} (3. Bc4)) 3. Bb5
a6!? $1 4.Ba4 Nf6 5. O-O ; a comment to the end of the line )
Be7 6. Re1 b5?? 1/2-1/2

[Event "b"]

1. d4 *
"#;
    let (start, moves) = read_pgn(text).unwrap();
    assert_eq!(start, Chess::start());
    let mut p = start.clone();
    let uci: Vec<String> = moves
        .iter()
        .map(|&m| {
            let s = p.format_move(m);
            p.play(m);
            s
        })
        .collect();
    assert_eq!(
        uci,
        [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1",
            "b7b5"
        ]
    );
    // A FEN tag starts the game there, with SetUp or without.
    let text = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 30\"]\n\n30. e4 Kd7 *";
    let (start, moves) = read_pgn(text).unwrap();
    assert_eq!(start, pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 30"));
    assert_eq!(moves.len(), 2);
}

/// Besides PGN: a FEN alone, UCI's `position` arguments, bare UCI or SAN moves.
#[test]
fn fens_and_uci_moves() {
    let start = Chess::start();
    let read = |text: &str| Chess::read_record(&start, text).unwrap_or_else(|e| panic!("{e}"));
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert_eq!(read(fen), (pos(fen), Vec::new()));
    assert_eq!(read(""), (Chess::start(), Vec::new()));
    let (s, m) = read("startpos moves e2e4 e7e5");
    assert_eq!((s, m.len()), (Chess::start(), 2));
    let (s, m) = read(&format!("position fen {fen} moves g1f3 b8c6 f1c4"));
    assert_eq!((s, m.len()), (pos(fen), 3));
    let (s, m) = read(&format!("{fen} moves g1f3"));
    assert_eq!((s, m.len()), (pos(fen), 1));
    assert_eq!(read("e2e4 e7e5 g1f3").1, read("e4 e5 Nf3").1);
    // Castling as GUIs write it, and as the king taking its rook.
    let castled = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
    assert_eq!(
        read(&format!("{castled} e1g1")),
        read(&format!("{castled} e1h1"))
    );
    // Chess960 notation is kept from the start given.
    let mut c960 = Chess::start();
    c960.set_chess960(true);
    assert!(Chess::read_record(&c960, "e4").unwrap().0.is_chess960());
}

/// A game that goes on past a threefold repetition no one claimed is read to its end.
#[test]
fn draw_rules_do_not_stop_a_record() {
    let text = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *";
    assert_eq!(read_pgn(text).unwrap().1.len(), 9);
}

/// A bad record is refused, naming the move or tag that is wrong.
#[test]
fn bad_records_are_named() {
    let start = Chess::start();
    for (text, want) in [
        ("1. e4 e5 2. Ke3 Nf6 *", "move 2. Ke3"),
        ("1. e4 e5 2. Nf3 Nxe4 *", "move 2... Nxe4"),
        ("e2e4 e7e5 e1e3", "move 2. e1e3"),
        ("startpos moves e2e4 e2e4", "move 1... e2e4"),
        ("1. e4 {open", "comment"),
        ("1. e4 (1. d4 *", "variation"),
        ("[FEN \"8/8/8/8 w - - 0 1\"]\n\n1. e4 *", "FEN tag"),
        ("[SetUp \"1\"]\n\n1. e4 *", "SetUp"),
        ("[Variant \"Atomic\"]\n\n1. e4 *", "Atomic"),
        ("[Event \"a]\n\n1. e4 *", "quote"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "FEN"),
        ("fen moves e2e4", "without a FEN"),
    ] {
        match Chess::read_record(&start, text) {
            Err(e) => assert!(e.reason.contains(want), "{text}: {e}"),
            Ok(r) => panic!("{text}: read as {r:?}"),
        }
    }
}

/// The terminal's board: rank 8 on top, a legend of the letters, and the last move as the
/// piece in brackets where it went and `-` where it was; nothing where the game was set up.
#[test]
fn the_diagram_marks_the_last_move() {
    let mut p = Chess::start();
    let start = [
        "8 r n b q k b n r",
        "7 p p p p p p p p",
        "6 . . . . . . . .",
        "5 . . . . . . . .",
        "4 . . . . . . . .",
        "3 . . . . . . . .",
        "2 P P P P P P P P",
        "1 R N B Q K B N R",
        "  a b c d e f g h",
        "K king, Q queen, R rook, B bishop, N knight, P pawn; White upper case\n",
    ];
    assert_eq!(p.diagram(), start.join("\n"));
    let play = |p: &mut Chess, mv: &str| p.play(p.parse_move(mv).unwrap());
    play(&mut p, "e2e4");
    let d = p.diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines[4], "4 . . . .[P]. . .", "{d}");
    assert_eq!(lines[6], "2 P P P P - P P P", "{d}");
    play(&mut p, "g8f6");
    let lines: Vec<String> = p.diagram().lines().map(String::from).collect();
    assert_eq!(lines[0], "8 r n b q k b - r");
    assert_eq!(lines[2], "6 . . . . .[n]. .");
    assert_eq!(
        lines[6], "2 P P P P . P P P",
        "only the last move is marked"
    );
    // Castling: the king's move, to g1 though it is played onto the rook; the rook's own
    // squares are not marked. A step along the rank shares no separator with the mark.
    let mut c = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut c, "e1g1");
    assert_eq!(c.diagram().lines().nth(7), Some("1 R . . . - R[K]."));
    play(&mut c, "e8d8");
    assert_eq!(c.diagram().lines().next(), Some("8 r . .[k]- . . r"));
    // A promotion at the board's edge; a position set up from a FEN marks nothing.
    let mut q = pos("8/7P/8/8/8/8/8/k6K w - - 0 1");
    assert!(!q.diagram().contains(['[', '-']), "{}", q.diagram());
    play(&mut q, "h7h8q");
    assert_eq!(q.diagram().lines().next(), Some("8 . . . . . . .[Q]"));
    assert_eq!(q.diagram().lines().nth(1), Some("7 . . . . . . . -"));
    // Chess960: the king castles from f1 onto its rook on g1 and the rook lands on f1; the
    // square the king left is filled, so it keeps its rook.
    let mut n = pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    n.set_chess960(true);
    play(&mut n, "f1g1");
    assert_eq!(n.diagram().lines().nth(7), Some("1 . . . . . R[K]."));
}
