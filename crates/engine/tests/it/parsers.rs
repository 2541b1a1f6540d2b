//! The stable-toolchain twin of fuzz/fuzz_targets/{positions,weights}.rs, over every game the
//! engine registers: known texts with random edits through the position, move and record
//! readers and the weight loaders. Nothing may panic; what is read must pass the
//! conformance checks for outside text and write back to what reads the same.

use duel_core::conformance::{check_record_text, check_text};
use duel_core::GameInfo;
use proptest::prelude::*;

/// `text` with a few characters replaced, inserted or removed.
fn edited(texts: &'static [&'static str]) -> impl Strategy<Value = String> {
    let edit = (any::<prop::sample::Index>(), 0..3u8, any::<char>());
    (
        prop::sample::select(texts),
        prop::collection::vec(edit, 0..4),
    )
        .prop_map(|(text, edits)| {
            let mut chars: Vec<char> = text.chars().collect();
            for (at, kind, c) in edits {
                let i = at.index(chars.len() + 1);
                match kind {
                    0 if i < chars.len() => chars[i] = c,
                    1 => chars.insert(i, c),
                    _ if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ => {}
                }
            }
            chars.into_iter().collect()
        })
}

fn check<G: GameInfo>(position: &str, mv: &str) -> Result<(), TestCaseError> {
    check_text::<G>(position, mv).map_err(TestCaseError::fail)?;
    check_record_text(&G::start(), position).map_err(TestCaseError::fail)
}

const OTHELLO_GGF: &str = "(;GM[Othello]PC[NBoard]TI[5:00]TY[8]\
    BO[8 ---------------------------O*------*O--------------------------- *]\
    B[D3//0.12]W[C3]B[F5/1.50/0.2]W[D2]B[D1]W[E1]B[B2]W[C1]B[PA]W[A3]B[A1];)";
const CHESS_PGN: &str = "[Event \"t\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O *\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn tictactoe_text(p in edited(&["", "51", "5193"]), m in edited(&["7", "1"])) {
        check::<duel_tictactoe::TicTacToe>(&p, &m)?;
    }

    #[test]
    fn connect4_text(p in edited(&["", "4453", "444444"]), m in edited(&["4", "1"])) {
        check::<duel_connect4::Connect4>(&p, &m)?;
    }

    #[test]
    fn othello_text(
        p in edited(&[
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
            "f5d6c4d3c2b3b4b5",
            OTHELLO_GGF,
        ]),
        m in edited(&["g8", "pass", "f5"]),
    ) {
        check::<duel_othello::Othello>(&p, &m)?;
    }

    #[test]
    fn chess_text(
        p in edited(&[
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
            "8/P6k/8/8/8/8/8/K7 w - -",
            CHESS_PGN,
        ]),
        m in edited(&["e1g1", "a7a8q", "e2e4"]),
    ) {
        check::<duel_chess::Chess>(&p, &m)?;
    }

    #[test]
    fn gomoku_text(
        p in edited(&["h8", "freestyle:15 7,7 8,6", "renju f8 a1 g8 a3 h8"]),
        m in edited(&["h9", "a1"]),
    ) {
        check::<duel_gomoku::Gomoku>(&p, &m)?;
    }

    #[test]
    fn xiangqi_text(
        p in edited(&[
            "2r1k4/9/4c4/9/2n1R4/9/9/9/9/3K5 w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ]),
        m in edited(&["h2e2", "e4e9"]),
    ) {
        check::<duel_xiangqi::Xiangqi>(&p, &m)?;
    }

    #[test]
    fn weight_tables_write_back_to_themselves(
        text in edited(&[
            include_str!("../../../games/gomoku/weights/patterns.txt"),
            include_str!("../../../games/chess/weights/strong.txt"),
            include_str!("../../../games/xiangqi/weights/strong.txt"),
        ]),
    ) {
        if let Ok(w) = duel_gomoku::PatternWeights::parse(&text) {
            prop_assert_eq!(duel_gomoku::PatternWeights::parse(&w.to_text("t")), Ok(w));
        }
        if let Ok(w) = duel_chess::strong::Weights::parse(&text) {
            prop_assert_eq!(duel_chess::strong::Weights::parse(&w.to_text("t")), Ok(w));
        }
        if let Ok(w) = duel_xiangqi::strong::Weights::parse(&text) {
            prop_assert_eq!(duel_xiangqi::strong::Weights::parse(&w.to_text("t")), Ok(w));
        }
    }
}
