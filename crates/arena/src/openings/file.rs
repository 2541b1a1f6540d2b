//! Openings read from an openings file, as tournament managers take them from one: the game
//! reads its own formats ([`GameInfo::read_openings`]: chess EPD, FEN or PGN; Gomoku also
//! Piskvork's opening lists; every game one position or line of moves a line, read in the
//! match's variant), and each opening read becomes an [`Opening`] of the match.

use duel_core::{GameInfo, OpeningsError};

use crate::Opening;

/// The openings of `text` for a match of `G` from `start`: its variant's start position, with
/// the match's switches (chess's `UCI_Chess960` for Chess960 notation).
pub fn read_openings<G: GameInfo>(start: &G, text: &str) -> Result<Vec<Opening<G>>, OpeningsError> {
    Ok(G::read_openings(start, text)?
        .into_iter()
        .map(|(start, moves)| Opening { start, moves })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_chess::Chess;
    use duel_core::Game;
    use duel_gomoku::Gomoku;

    /// `text` read for a match from `G`'s start, in Chess960 notation where `chess960`.
    fn read<G: GameInfo>(
        text: &str,
        chess960: bool,
        start: &G,
    ) -> Result<Vec<Opening<G>>, OpeningsError> {
        let mut start = start.clone();
        start.set_switch("UCI_Chess960", chess960);
        read_openings(&start, text)
    }

    /// Piskvork's list, centred: 40 of its 41 lines fit 15x15 (one reaches 8 from the
    /// centre), all 41 fit 20x20; other games read their own position texts.
    #[test]
    fn gomoku_reads_piskvork_lists_and_other_games_their_texts() {
        let list = include_str!("../../../../data/gomoku/openings-piskvork.txt");
        let on = |spec: &str| {
            let start = <Gomoku as GameInfo>::variant(spec).unwrap();
            read(list, false, &start).unwrap()
        };
        let fifteen = on("");
        assert_eq!(fifteen.len(), 40);
        assert_eq!(fifteen[0].moves, ["7,7", "8,7", "8,10"]);
        assert_eq!(on("20").len(), 41);
        assert_eq!(on("20")[0].moves, ["10,10", "11,10", "11,13"]);
        let start = Gomoku::start();
        let texts = read("# two\nh8 i9\n\nh8 h9 h10\n", false, &start).unwrap();
        assert_eq!(texts[1].position().unwrap().to_text(), "h8 h9 h10");
        let err = read("h8 h8\n", false, &start).unwrap_err();
        assert!(err.to_string().starts_with("line 1:"), "{err}");
        let err = read("0,0, 1,x\n", false, &start).unwrap_err();
        assert!(err.to_string().starts_with("line 1:"), "{err}");
        let t = duel_tictactoe::TicTacToe::start();
        assert_eq!(read("519\n", false, &t).unwrap().len(), 1);
        // Othello: positions, or XOT's lines of moves from the start, all 10,784 of them.
        let o = duel_othello::Othello::start();
        let xot = include_str!("../../../../data/othello/xot-openings.txt");
        let lines = read(xot, false, &o).unwrap();
        assert_eq!(lines.len(), 10_784);
        assert_eq!(lines[0].moves.join(""), "f5d6c4d3c2b3b4b5");
        assert!(lines.iter().all(|l| l.moves.len() == 8 && l.line().is_ok()));
        let err = read("f5d6z9\n", false, &o).unwrap_err();
        assert!(err.to_string().contains("expected 64"), "{err}");
        assert!(matches!(
            read("# only\n", false, &t),
            Err(OpeningsError::Empty)
        ));
    }

    /// The stable-toolchain twin of fuzz/fuzz_targets/books.rs: openings files made of known
    /// lines, lines cut short and printable garbage, in any order. Reading must not panic, and each
    /// opening read starts from a position that passes the conformance checks and plays
    /// only moves its position accepts.
    mod property {
        use super::*;
        use duel_core::conformance::check_position;
        use proptest::prelude::*;

        const LINES: &[&str] = &[
            "# a comment",
            "",
            "[Event \"a\"]",
            "[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"]",
            "[SetUp \"1\"]",
            "1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6) 3. Bb5 a6 4. O-O *",
            "1. d4 d5 2. c4 1-0",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"x\";",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "h8 i9 h10",
            "7,7, 8,7, 8,10",
            "-7, -7, 0, 1",
            "f5d6c4d3",
            "---------------------------O*------*O--------------------------- X",
            "5193",
            "4453",
        ];

        fn files() -> impl Strategy<Value = String> {
            let line = prop_oneof![
                prop::sample::select(LINES).prop_map(str::to_string),
                (prop::sample::select(LINES), any::<prop::sample::Index>()).prop_map(|(l, cut)| l
                    .chars()
                    .take(cut.index(l.chars().count() + 1))
                    .collect()),
                "[ -~]{0,40}",
            ];
            prop::collection::vec(line, 0..8).prop_map(|lines| lines.join("\n"))
        }

        fn check<G: GameInfo>(text: &str, chess960: bool) -> Result<(), TestCaseError> {
            let Ok(openings) = read(text, chess960, &G::start()) else {
                return Ok(());
            };
            for o in openings {
                let mut pos = o.start.clone();
                check_position(&pos).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
                for m in &o.moves {
                    let mv = pos.parse_move(m).map_err(|e| {
                        TestCaseError::fail(format!("{text:?}: opening move '{m}' refused: {e}"))
                    })?;
                    pos.play(mv);
                }
            }
            Ok(())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn files_read_only_legal_openings(text in files(), chess960 in any::<bool>()) {
                check::<Chess>(&text, chess960)?;
                check::<Gomoku>(&text, chess960)?;
                check::<duel_othello::Othello>(&text, chess960)?;
                check::<duel_tictactoe::TicTacToe>(&text, chess960)?;
            }
        }
    }
}
