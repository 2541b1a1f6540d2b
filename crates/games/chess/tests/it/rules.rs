//! Chess rules around cozy-chess: perft against the published table, move text, the hash's
//! en-passant rule, the draws, SAN against the Win At Chess answers, bad input.

use duel_chess::{perft, perft_divide, Chess};

use crate::common::pgn;
use duel_core::conformance::{check_game, check_record, check_view};
use duel_core::{Game, MoveError, Outcome, SplitMix64};

const PERFT: &str = include_str!("../../../../../data/chess/perft.txt");
const WAC: &str = include_str!("../../../../../data/chess/wac.epd");

fn perft_table() -> Vec<(String, Vec<(u32, u64)>)> {
    crate::perft_table::table(PERFT)
}

fn check_perft(max_leaves: u64, min_leaves: u64) {
    crate::perft_table::check(PERFT, max_leaves, min_leaves);
}

/// Every table entry up to 5 M leaves (depths 1–4, and 5 for the small ones).
#[test]
fn perft_table_shallow() {
    check_perft(5_000_000, 0);
}

/// The rest, up to depth 6 (about 27 G leaves in all): minutes.
#[test]
#[ignore]
fn perft_table_deep() {
    check_perft(u64::MAX, 5_000_000);
}

/// The generic count through the Game trait (play/undo, draw rules) equals the bare rules'
/// count where no draw can arise within the depth (a repetition needs four plies).
#[test]
fn game_trait_perft_agrees() {
    for (fen, _) in perft_table() {
        let mut pos = Chess::from_text(&fen).unwrap();
        let want = perft(pos.board(), 3);
        assert_eq!(duel_core::perft(&mut pos, 3), want, "{fen}");
        let divided: u64 = perft_divide(&pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(divided, want);
    }
}

#[test]
fn conformance() {
    check_game(&Chess::start(), 20, 7).unwrap();
    check_view(&Chess::start(), 5, 8).unwrap();
    check_record(&Chess::start(), 5, 9).unwrap();
    for (fen, _) in perft_table() {
        check_game(&Chess::from_text(&fen).unwrap(), 5, 3).unwrap();
        check_view(&Chess::from_text(&fen).unwrap(), 2, 4).unwrap();
        check_record(&Chess::from_text(&fen).unwrap(), 2, 5).unwrap();
    }
}

/// Castling is written e1g1 (as GUIs send it) and read both ways.
#[test]
fn castling_text() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos = Chess::from_text(kiwipete).unwrap();
    let short = pos.parse_move("e1g1").unwrap();
    assert_eq!(pos.parse_move("e1h1").unwrap(), short);
    assert_eq!(pos.format_move(short), "e1g1");
    assert_eq!(pos.san(short), "O-O");
    let long = pos.parse_move("e1c1").unwrap();
    assert_eq!(pos.format_move(long), "e1c1");
    assert_eq!(pos.san(long), "O-O-O");
    let mut after = pos.clone();
    after.play(short);
    assert_eq!(
        after.to_text(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1"
    );
    let divided: Vec<String> = perft_divide(&pos, 1).into_iter().map(|(m, _)| m).collect();
    assert!(divided.contains(&"e1g1".to_string()) && !divided.contains(&"e1h1".to_string()));
}

/// The en-passant square counts in the hash only when a capture is legal there.
#[test]
fn en_passant_hash() {
    let mut pos = Chess::start();
    pos.play(pos.parse_move("e2e4").unwrap());
    let no_ep =
        Chess::from_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(pos.hash(), no_ep.hash(), "no black pawn can take on e3");
    let with_ep =
        Chess::from_text("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").unwrap();
    let without =
        Chess::from_text("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3").unwrap();
    assert_ne!(with_ep.hash(), without.hash(), "exf6 is legal");
    // exd6 would take both pawns off the fifth rank and open it to the rook on h5: illegal, so
    // the square does not count; without the rook it does.
    let pinned = Chess::from_text("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
    let unpinned = Chess::from_text("8/8/8/K2pP2r/8/8/8/7k w - - 0 1").unwrap();
    assert_eq!(pinned.hash(), unpinned.hash(), "exd6 would expose the king");
    let free = Chess::from_text("8/8/8/K2pP3/8/8/8/7k w - d6 0 1").unwrap();
    let none = Chess::from_text("8/8/8/K2pP3/8/8/8/7k w - - 0 1").unwrap();
    assert_ne!(free.hash(), none.hash(), "exd6 is legal");
}

/// The structure key (correction history's) changes exactly when the pawns do: a pawn
/// moves, promotes or is taken.
#[test]
fn structure_key_follows_the_pawns() {
    let mut rng = duel_core::SplitMix64::new(5);
    let mut moves = Vec::new();
    let (mut same, mut changed) = (0, 0);
    for _ in 0..40 {
        let mut pos = Chess::start();
        for _ in 0..120 {
            pos.generate_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let b = pos.board();
            let pawns = b.pieces(cozy_chess::Piece::Pawn);
            let pawn_move = pawns.has(mv.from);
            // En passant empties a square other than `to`, but the mover is a pawn anyway.
            let takes_pawn = pawns.has(mv.to) && b.color_on(mv.to) != Some(b.side_to_move());
            let before = pos.structure_key().unwrap();
            pos.play(mv);
            let after = pos.structure_key().unwrap();
            if pawn_move || takes_pawn {
                assert_ne!(before, after, "{mv} in {}", pos.to_text());
                changed += 1;
            } else {
                assert_eq!(before, after, "{mv} in {}", pos.to_text());
                same += 1;
            }
        }
    }
    assert!(same > 100 && changed > 100, "{same} {changed}");
    // The colours count: the same pawn squares with the colours swapped give another key.
    let a = Chess::from_text("4k3/8/8/3P4/3p4/8/8/4K3 w - - 0 1").unwrap();
    let b = Chess::from_text("4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1").unwrap();
    assert_ne!(a.structure_key(), b.structure_key());
}

fn play_all(pos: &mut Chess, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv);
    }
}

#[test]
fn repetition() {
    let mut pos = Chess::start();
    play_all(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(pos.outcome(), None, "twice in the game is not yet a draw");
    play_all(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(pos.outcome(), Some(Outcome::Draw), "three times");
    // Inside a search, the first repetition after the root is a draw.
    let mut pos = Chess::start();
    pos.begin_search();
    play_all(&mut pos, "g1f3 g8f6 f3g1");
    assert_eq!(pos.outcome(), None);
    play_all(&mut pos, "f6g8");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert!(moves.is_empty(), "a finished game has no moves");
}

/// At a search's root the draw rules wait for the arbiter: a position they have drawn still
/// has its moves there (an engine asked to move must answer), and the draws hold again one
/// ply in. Mate and stalemate end the game at the root as anywhere.
#[test]
fn draw_rules_wait_at_the_search_root() {
    let mut threefold = Chess::start();
    play_all(&mut threefold, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    let fifty = Chess::from_text("4k3/8/8/8/8/8/4P3/R3K3 w - - 100 80").unwrap();
    let bare = Chess::from_text("8/8/8/8/8/8/8/KB5k w - - 0 1").unwrap();
    for (mut pos, legal) in [(threefold, 20), (fifty, 16), (bare, 9)] {
        let mut moves = Vec::new();
        assert_eq!(pos.outcome(), Some(Outcome::Draw), "{}", pos.to_text());
        pos.generate_moves(&mut moves);
        assert!(moves.is_empty(), "{}", pos.to_text());
        pos.begin_search();
        assert_eq!(pos.outcome(), None, "{}", pos.to_text());
        pos.generate_moves(&mut moves);
        assert_eq!(moves.len(), legal, "{}", pos.to_text());
    }
    // One ply in, the rules hold again: the repetition, and the fifty moves unless a pawn
    // move resets the count.
    let mut threefold = Chess::start();
    play_all(&mut threefold, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    threefold.begin_search();
    play_all(&mut threefold, "g1f3");
    assert_eq!(threefold.outcome(), Some(Outcome::Draw));
    let mut fifty = Chess::from_text("4k3/8/8/8/8/8/4P3/R3K3 w - - 100 80").unwrap();
    fifty.begin_search();
    let mut moves = Vec::new();
    fifty.generate_moves(&mut moves);
    for mv in moves {
        fifty.play(mv);
        let pawn = fifty.board().halfmove_clock() == 0;
        assert_eq!(fifty.outcome().is_none(), pawn, "after {mv}");
        fifty.undo(mv);
    }
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 100 80",
        "7k/6Q1/6K1/8/8/8/8/8 b - - 100 80",
    ] {
        let mut pos = Chess::from_text(fen).unwrap();
        pos.begin_search();
        assert!(
            pos.outcome().is_some(),
            "{fen}: mate and stalemate end the game at the root"
        );
    }
}

#[test]
fn fifty_moves_material_mate_stalemate() {
    let mut pos = Chess::from_text("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80").unwrap();
    assert_eq!(pos.outcome(), None);
    play_all(&mut pos, "a1a2");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    // A pawn move resets the count.
    let mut pos = Chess::from_text("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80").unwrap();
    play_all(&mut pos, "e2e4");
    assert_eq!(pos.outcome(), None);
    for (fen, draw) in [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
        ("8/8/8/4k3/8/8/8/4K2B w - - 0 1", true),
        ("8/8/8/4k3/8/8/8/4KN2 b - - 0 1", true),
        ("8/8/8/3bk3/8/8/8/4K2B w - - 0 1", true), // d5 and h1: both light squares
        ("8/8/8/2b1k3/8/8/8/4K2B w - - 0 1", false), // c5 is dark: mate can be helped
        ("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", false), // two knights: mate can be helped
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false),
    ] {
        let pos = Chess::from_text(fen).unwrap();
        let want = draw.then_some(Outcome::Draw);
        assert_eq!(pos.outcome(), want, "{fen}");
    }
    // Fool's mate: White to move is mated.
    let mut pos = Chess::start();
    play_all(&mut pos, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(pos.outcome(), Some(Outcome::Loss));
    let stalemate = Chess::from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw));
}

/// Every move the Win At Chess suite names (best moves, and the few moves to avoid), written
/// in SAN by its authors, is the SAN of a legal move: 300 positions of checks, captures,
/// promotions and disambiguations. And SAN names each legal move differently.
#[test]
fn san_matches_win_at_chess() {
    let mut moves = Vec::new();
    let mut n = 0;
    for line in WAC.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let pos = Chess::from_text(&format!("{} 0 1", fields[..4].join(" "))).unwrap();
        pos.generate_moves(&mut moves);
        let sans: Vec<String> = moves.iter().map(|&m| pos.san(m)).collect();
        let ops = fields[4..].join(" ");
        let named = ops
            .split(';')
            .map(str::trim)
            .filter_map(|op| op.strip_prefix("bm ").or_else(|| op.strip_prefix("am ")));
        for want in named.flat_map(str::split_whitespace) {
            assert!(
                sans.iter().any(|s| s == want),
                "{line}: {want} not in {sans:?}"
            );
            // And SAN reads back to the move it names.
            let mv = pos.parse_san(want).unwrap();
            assert_eq!(&pos.san(mv), want, "{line}");
            n += 1;
        }
        // Every legal move's SAN reads back to that move.
        for &m in &moves {
            assert_eq!(pos.parse_san(&pos.san(m)), Ok(m), "{line}");
        }
        let mut unique = sans.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), sans.len(), "{line}");
    }
    assert!(n >= 300, "{n}");
}

/// Loose SAN as engines and people write it.
#[test]
fn san_read_loosely() {
    let pos = Chess::from_text("1r1n2k1/4P3/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    let text = |t: &str| pos.format_move(pos.parse_san(t).unwrap());
    for castle in ["O-O", "0-0", "o-o", "O-O+"] {
        assert_eq!(text(castle), "e1g1");
    }
    assert_eq!(text("0-0-0"), "e1c1");
    assert_eq!(text("e8=Q+"), "e7e8q");
    assert_eq!(text("e8N"), "e7e8n");
    assert_eq!(text("exd8=Q"), "e7d8q");
    for bad in ["Nf3", "e9", "", "O-O-O-O"] {
        assert!(pos.parse_san(bad).is_err(), "{bad}");
    }
}

#[test]
fn bad_input_is_named() {
    for (fen, what) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"),
        ("hello", "FEN"),
        // The board alone: the side to move is not optional, the fields after it are.
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "field"),
    ] {
        let e = Chess::from_text(fen).unwrap_err().to_string();
        assert!(
            e.contains(fen) && e.to_lowercase().contains(&what.to_lowercase()),
            "{e}"
        );
    }
    // The move counters may be left out, as EPD leaves them: 0 and 1.
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
    for fen in [after_e4.to_string(), format!("{after_e4} 0")] {
        let pos = Chess::from_text(&fen).unwrap();
        assert_eq!(pos.to_text(), format!("{after_e4} 0 1"));
    }
    let pos = Chess::start();
    assert!(matches!(
        pos.parse_move("e2e5"),
        Err(MoveError::Illegal { .. })
    ));
    // `e2` is a move in SAN's shape that no pawn can make here; `e9` and `Ke` no move at all.
    assert!(matches!(
        pos.parse_move("e2"),
        Err(MoveError::Illegal { .. })
    ));
    for text in ["e9", "Ke", "Nxx3", "e2e"] {
        let r = pos.parse_move(text);
        assert!(matches!(r, Err(MoveError::Syntax { .. })), "{text}: {r:?}");
    }
    let r = pos.parse_move("e7e8k");
    assert!(matches!(r, Err(MoveError::Syntax { .. })), "{r:?}");
    let e = pos.parse_move("e1g1").unwrap_err().to_string();
    assert!(e.contains("e1g1"), "{e}");
}

/// Moves as players write them, in SAN, are read wherever a move is: the same legal moves
/// as UCI's text (issue 70: `e4` was refused while SAN was printed).
#[test]
fn san_is_read_as_players_write_it() {
    let pos =
        Chess::from_text("r3k2r/pPpp1ppp/8/4p3/3P4/5N2/P1P1PPPP/R3KB1R w KQkq e6 0 1").unwrap();
    for (san, uci) in [
        ("d5", "d4d5"),
        ("dxe5", "d4e5"),
        ("Nxe5", "f3e5"),
        ("Ng5+", "f3g5"),
        ("bxa8=Q", "b7a8q"),
        ("bxa8Q", "b7a8q"),
        ("b8=N", "b7b8n"),
        ("O-O-O", "e1c1"),
        ("0-0-0", "e1c1"),
        ("Rb1!", "a1b1"),
    ] {
        let mv = pos.parse_move(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        assert_eq!(pos.format_move(mv), uci, "{san}");
    }
    for illegal in ["O-O", "Ke2", "Nd5", "b8"] {
        let r = pos.parse_move(illegal);
        assert!(
            matches!(r, Err(MoveError::Illegal { .. })),
            "{illegal}: {r:?}"
        );
    }
    // Every legal move of random positions reads back from its own SAN.
    let mut rng = SplitMix64::new(70);
    for _ in 0..20 {
        let mut p = Chess::start();
        for _ in 0..rng.below(60) {
            let mut moves = Vec::new();
            p.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                assert_eq!(
                    p.parse_move(&p.san(m)).unwrap(),
                    m,
                    "{} in {}",
                    p.san(m),
                    p.to_text()
                );
            }
            p.play(moves[rng.below(moves.len())]);
        }
    }
}

/// A record given only the players' names still carries the Seven Tag Roster.
#[test]
fn pgn_names_the_players_in_the_roster() {
    use duel_core::{GameInfo, RecordInfo};
    let info = RecordInfo {
        names: ["Ann", "Bo"],
        ..RecordInfo::default()
    };
    let text = Chess::record(&Chess::start(), &[], &info).unwrap();
    assert_eq!(
        text,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n\n*\n"
    );
}

/// Fool's mate as PGN: the seven tags, SAN with the mate sign, Black's win.
#[test]
fn pgn_record() {
    let start = Chess::start();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let mv = pos.parse_move(m).unwrap();
        moves.push(mv);
        pos.play(mv);
    }
    let tags = [
        ("Event", "duel play"),
        ("Site", "?"),
        ("Date", "2026.11.22"),
        ("Round", "-"),
        ("White", "A"),
        ("Black", "B \"C\""),
    ];
    let text = pgn(&start, &moves, &[], &tags, None, None);
    assert_eq!(
        text,
        "[Event \"duel play\"]\n[Site \"?\"]\n[Date \"2026.11.22\"]\n[Round \"-\"]\n\
         [White \"A\"]\n[Black \"B \\\"C\\\"\"]\n[Result \"0-1\"]\n\n\
         1. f3 e5 2. g4 Qh4# 0-1\n"
    );
    // From a set-up position with Black to move, the FEN is recorded and numbering starts
    // with "N...".
    let kiwi_black =
        Chess::from_text("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1")
            .unwrap();
    let castle = kiwi_black.parse_move("e8g8").unwrap();
    let text = pgn(&kiwi_black, &[castle], &[], &tags, None, None);
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"r3k2r/"), "{text}");
    assert!(text.ends_with("\n1... O-O *\n"), "{text}");
    // A result decided off the board (time), with the reason as a comment.
    let text = pgn(
        &start,
        &moves[..2],
        &[],
        &tags,
        Some("1-0"),
        Some("Black lost on time"),
    );
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(
        text.ends_with("1. f3 e5 {Black lost on time} 1-0\n"),
        "{text}"
    );
    // Notes after moves (a match's value, depth and time); an empty one writes nothing, and
    // Black's move after a comment is numbered again.
    let notes = ["+0.12/9 0.25s", "", "-0.30/8 0.11s", "+M1/3 0.01s"].map(String::from);
    let text = pgn(&start, &moves, &notes, &tags, None, None);
    assert!(
        text.ends_with(
            "\n1. f3 {+0.12/9 0.25s} 1... e5 2. g4 {-0.30/8 0.11s} 2... Qh4# {+M1/3 0.01s} 0-1\n"
        ),
        "{text}"
    );
}

/// Found by fuzz/fuzz_targets/positions.rs: a Chess960 position read without Chess960
/// notation, the king on b1 with castling rights. Its long castling, written as the king's
/// step to c1, was read back as the king's plain step there.
#[test]
fn castling_from_off_the_e_file_prints_as_king_takes_rook() {
    let pos = Chess::from_text("3kr2r/8/8/8/8/8/8/RK5R w KQ - 0 1").unwrap();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for &m in &moves {
        let text = pos.format_move(m);
        assert_eq!(pos.parse_move(&text), Ok(m), "{text}");
    }
    let castle = pos.parse_move("b1a1").unwrap();
    assert!(pos.is_castle(castle));
    assert!(!pos.is_castle(pos.parse_move("b1c1").unwrap()));
    assert!(duel_core::conformance::check_text::<Chess>(pos.to_text().as_str(), "b1a1").is_ok());
}
