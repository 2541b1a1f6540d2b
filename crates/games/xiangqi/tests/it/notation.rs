//! WXF notation against examples checked by hand on a board.

use duel_core::{Game, GameInfo};
use duel_xiangqi::Xiangqi;

use crate::common::{play, pos};

/// The WXF text of the ICCS move `iccs` in `p`.
fn wxf(p: &Xiangqi, iccs: &str) -> String {
    p.display_move(p.parse_move(iccs).unwrap())
}

#[test]
fn the_opening_moves() {
    let mut p = Xiangqi::start();
    for (iccs, text) in [
        ("h2e2", "C2.5"),
        ("b2e2", "C8.5"),
        ("h0g2", "H2+3"),
        ("b0c2", "H8+7"),
        ("i0i1", "R1+1"),
        ("a0a2", "R9+2"),
        ("c3c4", "P7+1"),
        ("g3g4", "P3+1"),
        ("c0e2", "E7+5"),
        ("g0e2", "E3+5"),
        ("f0e1", "A4+5"),
        ("d0e1", "A6+5"),
        ("e0e1", "K5+1"),
    ] {
        assert_eq!(wxf(&p, iccs), text, "{iccs}");
    }
    // Black counts files from its own right: its file 1 is file a.
    play(&mut p, "h2e2");
    for (iccs, text) in [
        ("h7e7", "C8.5"),
        ("b7e7", "C2.5"),
        ("h9g7", "H8+7"),
        ("b9c7", "H2+3"),
        ("a9a8", "R1+1"),
        ("g6g5", "P7+1"),
        ("c9e7", "E3+5"),
        ("e9e8", "K5+1"),
    ] {
        assert_eq!(wxf(&p, iccs), text, "{iccs}");
    }
}

#[test]
fn backward_moves_and_steps_counted() {
    // Red chariot on i1 back to i0; cannon e2 forward four to e6; horse g2 back to h0.
    let p = pos("4k4/9/9/9/9/9/9/4C1N2/8R/3K5 w - - 0 1");
    assert_eq!(wxf(&p, "i1i0"), "R1-1");
    assert_eq!(wxf(&p, "e2e6"), "C5+4");
    assert_eq!(wxf(&p, "g2h0"), "H3-2");
    assert_eq!(wxf(&p, "d0d1"), "K6+1");
    // Black: forward is down the board.
    let b = pos("5k3/9/4r4/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_eq!(wxf(&b, "e7e3"), "R5+4");
    assert_eq!(wxf(&b, "e7e8"), "R5-1");
    assert_eq!(wxf(&b, "e7a7"), "R5.1");
}

#[test]
fn two_like_pieces_on_a_file() {
    // Red chariots on e3 (rear) and e6 (front); Black cannons on c7 (front, for Black) and c8.
    let p = pos("3k5/2c6/2c6/4R4/9/9/4R4/9/9/5K3 w - - 0 1");
    assert_eq!(wxf(&p, "e6d6"), "R+.6");
    assert_eq!(wxf(&p, "e3e4"), "R-+1");
    assert_eq!(wxf(&p, "e3e0"), "R--3");
    let b = pos("3k5/2c6/2c6/4R4/9/9/4R4/9/9/5K3 b - - 0 1");
    assert_eq!(wxf(&b, "c7c6"), "C++1");
    assert_eq!(wxf(&b, "c8b8"), "C-.2");
    // Two advisors on one file need no mark: only one of them can go each way.
    let a = pos("3k5/9/9/9/9/9/9/3A5/9/3A1K3 w - - 0 1");
    assert_eq!(wxf(&a, "d2e1"), "A6-5");
    assert_eq!(wxf(&a, "d0e1"), "A6+5");
}

#[test]
fn soldiers_in_tandem() {
    // Three on file c (WXF file 7): front, middle and rear.
    let three = pos("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(wxf(&three, "c7d7"), "P+.6");
    assert_eq!(wxf(&three, "c6d6"), "P7.6");
    assert_eq!(wxf(&three, "c5d5"), "P-.6");
    // Two on c and two on g: the file first, then the mark.
    let two_files = pos("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(wxf(&two_files, "c6b6"), "7+.8");
    assert_eq!(wxf(&two_files, "c5b5"), "7-.8");
    assert_eq!(wxf(&two_files, "g6g7"), "3++1");
    // Five on one file: ++, P+, the middle by its file, P-, --.
    let five = pos("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(wxf(&five, "c9d9"), "++.6");
    assert_eq!(wxf(&five, "c8d8"), "P+.6");
    assert_eq!(wxf(&five, "c7d7"), "P7.6");
    assert_eq!(wxf(&five, "c6d6"), "P-.6");
    assert_eq!(wxf(&five, "c5d5"), "--.6");
    // Four: no middle one.
    let four = pos("3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(wxf(&four, "c8c9"), "+++1");
    assert_eq!(wxf(&four, "c7b7"), "P+.8");
    assert_eq!(wxf(&four, "c6b6"), "P-.8");
    assert_eq!(wxf(&four, "c5b5"), "--.8");
}

/// Moves are read in WXF as players write them, as well as in ICCS (issue 70: the boards
/// printed WXF and only ICCS was read): every legal move of random positions reads back
/// from the WXF the game writes, a tandem mark before the letter too (`+C.5` for `C+.5`),
/// and in either case.
#[test]
fn wxf_is_read_as_players_write_it() {
    let start = Xiangqi::start();
    for (wxf, iccs) in [
        ("C2.5", "h2e2"),
        ("c2.5", "h2e2"),
        ("H2+3", "h0g2"),
        ("N8+7", "b0c2"),
    ] {
        let mv = start
            .parse_move(wxf)
            .unwrap_or_else(|e| panic!("{wxf}: {e}"));
        assert_eq!(start.format_move(mv), iccs, "{wxf}");
    }
    assert!(start.parse_move("C2.9").is_err());
    let mut rng = duel_core::SplitMix64::new(70);
    let mut tandem = 0;
    for _ in 0..30 {
        let mut p = Xiangqi::start();
        for _ in 0..rng.below(80) {
            let mut moves = Vec::new();
            p.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let w = p.display_move(m);
                assert_eq!(p.parse_move(&w).unwrap(), m, "{w} in {}", p.to_text());
                let b = w.as_bytes();
                if b[0].is_ascii_alphabetic() && (b[1] == b'+' || b[1] == b'-') {
                    tandem += 1;
                    let before = format!("{}{}{}", b[1] as char, b[0] as char, &w[2..]);
                    assert_eq!(
                        p.parse_move(&before).unwrap(),
                        m,
                        "{before} in {}",
                        p.to_text()
                    );
                }
            }
            p.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(tandem > 0, "no tandem pieces met");
}
