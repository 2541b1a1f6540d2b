//! The UCI module against the lines GUIs send and the lines they expect back.

use duel_protocol::uci::{
    parse, Bound, Command, Go, Info, OptionKind, ParseError, Position, Reply, Score, Start,
};

const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

fn go(line: &str) -> Go {
    match parse(line) {
        Ok(Command::Go(g)) => g,
        other => panic!("{line}: {other:?}"),
    }
}

fn position(line: &str) -> Position {
    match parse(line) {
        Ok(Command::Position(p)) => p,
        other => panic!("{line}: {other:?}"),
    }
}

fn moves(list: &[&str]) -> Vec<String> {
    list.iter().map(|m| m.to_string()).collect()
}

/// The message of the error `line` must give.
fn error(line: &str) -> String {
    match parse(line) {
        Err(e) => e.to_string(),
        Ok(c) => panic!("{line} parsed as {c:?}"),
    }
}

#[test]
fn simple_commands() {
    assert_eq!(parse("uci"), Ok(Command::Uci));
    assert_eq!(parse("isready"), Ok(Command::IsReady));
    assert_eq!(parse("ucinewgame"), Ok(Command::UciNewGame));
    assert_eq!(parse("stop"), Ok(Command::Stop));
    assert_eq!(parse("ponderhit"), Ok(Command::PonderHit));
    assert_eq!(parse("quit"), Ok(Command::Quit));
    assert_eq!(parse("d"), Ok(Command::Display));
    assert_eq!(parse("eval"), Ok(Command::Eval));
    assert_eq!(parse("debug on"), Ok(Command::Debug(true)));
    assert_eq!(parse("debug off"), Ok(Command::Debug(false)));
    assert_eq!(parse("register later"), Ok(Command::Register));
    assert_eq!(
        parse("register name Ann Other code 1234"),
        Ok(Command::Register)
    );
    assert_eq!(parse("register"), Ok(Command::Register));
}

#[test]
fn whitespace_is_tolerated() {
    assert_eq!(parse("  \tisready \r\n"), Ok(Command::IsReady));
    assert_eq!(
        parse("  position   startpos   moves  e2e4\te7e5  "),
        Ok(Command::Position(Position {
            start: Start::StartPos,
            moves: moves(&["e2e4", "e7e5"]),
        }))
    );
    assert_eq!(parse(""), Err(ParseError::Empty));
    assert_eq!(parse("   \t \r\n"), Err(ParseError::Empty));
}

#[test]
fn trailing_tokens_after_simple_commands_are_ignored() {
    // The UCI specification: unknown tokens are skipped.
    assert_eq!(parse("isready now"), Ok(Command::IsReady));
    assert_eq!(parse("debug on please"), Ok(Command::Debug(true)));
}

#[test]
fn setoption() {
    assert_eq!(
        parse("setoption name Hash value 128"),
        Ok(Command::SetOption {
            name: "Hash".into(),
            value: Some("128".into())
        })
    );
    assert_eq!(
        parse("setoption name Move Overhead value 30"),
        Ok(Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("30".into())
        })
    );
    assert_eq!(
        parse("setoption name Clear Hash"),
        Ok(Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        })
    );
    assert_eq!(
        parse("setoption  name  SyzygyPath  value  /tb/wdl  and more "),
        Ok(Command::SetOption {
            name: "SyzygyPath".into(),
            value: Some("/tb/wdl and more".into())
        })
    );
    // Case is kept: matching names is the engine's job.
    assert_eq!(
        parse("setoption name UCI_Chess960 value true"),
        Ok(Command::SetOption {
            name: "UCI_Chess960".into(),
            value: Some("true".into())
        })
    );
    assert_eq!(
        parse("setoption name Debug Log File value"),
        Ok(Command::SetOption {
            name: "Debug Log File".into(),
            value: Some(String::new())
        })
    );
}

#[test]
fn position_forms() {
    assert_eq!(
        position("position startpos"),
        Position {
            start: Start::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        position("position startpos moves"),
        Position {
            start: Start::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        position("position startpos moves e2e4 e7e5 g1f3"),
        Position {
            start: Start::StartPos,
            moves: moves(&["e2e4", "e7e5", "g1f3"])
        }
    );
    assert_eq!(
        position(&format!("position fen {FEN}")),
        Position {
            start: Start::Fen(FEN.into()),
            moves: vec![]
        }
    );
    assert_eq!(
        position(&format!("position fen {FEN} moves f1b5 a7a6 e1g1")),
        Position {
            start: Start::Fen(FEN.into()),
            moves: moves(&["f1b5", "a7a6", "e1g1"])
        }
    );
    // Stockfish reads FENs without the clocks (EPD style), and with only the halfmove clock.
    let four = "8/8/8/8/8/8/k7/K6R w - -";
    assert_eq!(
        position(&format!("position fen {four} moves h1h8")),
        Position {
            start: Start::Fen(four.into()),
            moves: moves(&["h1h8"])
        }
    );
    assert_eq!(
        position("position fen 8/8/8/8/8/8/k7/K6R b - - 0"),
        Position {
            start: Start::Fen("8/8/8/8/8/8/k7/K6R b - - 0".into()),
            moves: vec![]
        }
    );
    // The FEN is normalised to single spaces.
    assert_eq!(
        position("position fen  8/8/8/8/8/8/k7/K6R   w  -  -  0  1 moves"),
        Position {
            start: Start::Fen("8/8/8/8/8/8/k7/K6R w - - 0 1".into()),
            moves: vec![]
        }
    );
    // A xiangqi FEN is text like any other.
    let xq = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(
        position(&format!("position fen {xq} moves h2e2")),
        Position {
            start: Start::Fen(xq.into()),
            moves: moves(&["h2e2"])
        }
    );
}

#[test]
fn go_with_every_parameter() {
    assert_eq!(go("go"), Go::default());
    let g = go(
        "go searchmoves e2e4 d2d4 ponder wtime 300000 btime 299000 winc 2000 binc 2100 \
                movestogo 40 depth 20 nodes 123456789012 mate 5 movetime 1500 infinite perft 5",
    );
    assert_eq!(
        g,
        Go {
            searchmoves: moves(&["e2e4", "d2d4"]),
            ponder: true,
            wtime: Some(300_000),
            btime: Some(299_000),
            winc: Some(2000),
            binc: Some(2100),
            movestogo: Some(40),
            depth: Some(20),
            nodes: Some(123_456_789_012),
            mate: Some(5),
            movetime: Some(1500),
            infinite: true,
            perft: Some(5),
        }
    );
    // searchmoves at the end, as Stockfish expects it.
    let g = go("go depth 3 searchmoves e2e4 g1f3");
    assert_eq!(g.depth, Some(3));
    assert_eq!(g.searchmoves, moves(&["e2e4", "g1f3"]));
}

#[test]
fn go_forms() {
    let g = go("go infinite");
    assert!(g.is_infinite());
    assert!(!g.uses_clock());
    assert!(!go("go depth 5").is_infinite());

    assert_eq!(
        go("go perft 5"),
        Go {
            perft: Some(5),
            ..Go::default()
        }
    );

    // GUIs send negative times when the clock is slightly over.
    let g = go("go wtime -25 btime 1000 winc 0 binc 0");
    assert_eq!(g.wtime, Some(-25));
    assert!(g.uses_clock());
    assert_eq!(g.clock(true), Some((-25, 0)));
    assert_eq!(g.clock(false), Some((1000, 0)));

    let g = go("go btime 5000 binc 100");
    assert_eq!(g.clock(true), None);
    assert_eq!(g.clock(false), Some((5000, 100)));
    let g = go("go wtime 5000");
    assert_eq!(g.clock(true), Some((5000, 0)));

    let g = go("go ponder wtime 1000 btime 1000");
    assert!(g.ponder && !g.is_infinite());

    // Unknown tokens are skipped, as the specification asks.
    let g = go("go wtime 1000 frobnicate btime 900");
    assert_eq!((g.wtime, g.btime), (Some(1000), Some(900)));

    // The last of a repeated parameter wins.
    assert_eq!(go("go depth 3 depth 4").depth, Some(4));
}

#[test]
fn bench() {
    assert_eq!(parse("bench"), Ok(Command::Bench(String::new())));
    assert_eq!(
        parse("bench 16  1 13 default depth"),
        Ok(Command::Bench("16 1 13 default depth".into()))
    );
}

#[test]
fn malformed_lines_name_the_problem() {
    assert_eq!(parse("foo"), Err(ParseError::Unknown("foo".into())));
    assert_eq!(error("foo bar"), "unknown command 'foo'");
    // Commands are case-sensitive, as in Stockfish.
    assert_eq!(error("UCI"), "unknown command 'UCI'");

    assert_eq!(
        error("position"),
        "bad argument for 'position': 'startpos' or 'fen' is missing"
    );
    assert_eq!(
        error("position moves e2e4"),
        "bad argument for 'position': expected 'startpos' or 'fen', found 'moves'"
    );
    assert_eq!(
        error("position fen"),
        "bad argument for 'position': the FEN is missing"
    );
    assert_eq!(
        error("position fen moves e2e4"),
        "bad argument for 'position': the FEN is missing"
    );
    assert_eq!(
        error("position fen 8/8/8/8/8/8/k7/K6R moves h1h8"),
        "bad argument for 'position': the FEN '8/8/8/8/8/8/k7/K6R' has 1 field, expected 2 to 6"
    );
    assert!(error(&format!("position fen {FEN} e2e4")).contains("has 7 fields"));
    assert_eq!(
        error("position startpos e2e4"),
        "bad argument for 'position': expected 'moves' after 'startpos', found 'e2e4'"
    );

    assert_eq!(
        error("go depth x"),
        "bad argument for 'go': 'x' is not a valid number for 'depth'"
    );
    assert_eq!(
        error("go wtime"),
        "bad argument for 'go': 'wtime' needs a number"
    );
    assert_eq!(
        error("go wtime btime 100"),
        "bad argument for 'go': 'btime' is not a valid number for 'wtime'"
    );
    assert_eq!(
        error("go depth -1"),
        "bad argument for 'go': '-1' is not a valid number for 'depth'"
    );
    assert_eq!(
        error("go movetime 1.5"),
        "bad argument for 'go': '1.5' is not a valid number for 'movetime'"
    );
    assert_eq!(
        error("go perft"),
        "bad argument for 'go': 'perft' needs a number"
    );
    assert_eq!(
        error("go nodes 99999999999999999999999"),
        "bad argument for 'go': '99999999999999999999999' is not a valid number for 'nodes'"
    );

    assert_eq!(
        error("setoption value 3"),
        "bad argument for 'setoption': expected 'name', found 'value'"
    );
    assert_eq!(
        error("setoption"),
        "bad argument for 'setoption': 'name' is missing"
    );
    assert_eq!(
        error("setoption name"),
        "bad argument for 'setoption': the option name is missing"
    );
    assert_eq!(
        error("setoption name value 3"),
        "bad argument for 'setoption': the option name is missing"
    );

    assert_eq!(
        error("debug"),
        "bad argument for 'debug': 'on' or 'off' is missing"
    );
    assert_eq!(
        error("debug maybe"),
        "bad argument for 'debug': expected 'on' or 'off', found 'maybe'"
    );
}

#[test]
fn replies_print_exact_lines() {
    let cases: Vec<(Reply, &str)> = vec![
        (Reply::IdName("duel 0.1".into()), "id name duel 0.1"),
        (
            Reply::IdAuthor("the duel authors".into()),
            "id author the duel authors",
        ),
        (Reply::UciOk, "uciok"),
        (Reply::ReadyOk, "readyok"),
        (
            Reply::Option {
                name: "Ponder".into(),
                kind: OptionKind::Check { default: false },
            },
            "option name Ponder type check default false",
        ),
        (
            Reply::Option {
                name: "UCI_ShowWDL".into(),
                kind: OptionKind::Check { default: true },
            },
            "option name UCI_ShowWDL type check default true",
        ),
        (
            Reply::Option {
                name: "Hash".into(),
                kind: OptionKind::Spin {
                    default: 16,
                    min: 1,
                    max: 33_554_432,
                },
            },
            "option name Hash type spin default 16 min 1 max 33554432",
        ),
        (
            Reply::Option {
                name: "Contempt".into(),
                kind: OptionKind::Spin {
                    default: 0,
                    min: -100,
                    max: 100,
                },
            },
            "option name Contempt type spin default 0 min -100 max 100",
        ),
        (
            Reply::Option {
                name: "Style".into(),
                kind: OptionKind::Combo {
                    default: "Normal".into(),
                    vars: vec!["Solid".into(), "Normal".into(), "Risky".into()],
                },
            },
            "option name Style type combo default Normal var Solid var Normal var Risky",
        ),
        (
            Reply::Option {
                name: "Debug Log File".into(),
                kind: OptionKind::String {
                    default: String::new(),
                },
            },
            "option name Debug Log File type string default <empty>",
        ),
        (
            Reply::Option {
                name: "SyzygyPath".into(),
                kind: OptionKind::String {
                    default: "/tb".into(),
                },
            },
            "option name SyzygyPath type string default /tb",
        ),
        (
            Reply::Option {
                name: "Clear Hash".into(),
                kind: OptionKind::Button,
            },
            "option name Clear Hash type button",
        ),
        (
            Reply::BestMove {
                mv: Some("e2e4".into()),
                ponder: None,
            },
            "bestmove e2e4",
        ),
        (
            Reply::BestMove {
                mv: Some("e2e4".into()),
                ponder: Some("e7e5".into()),
            },
            "bestmove e2e4 ponder e7e5",
        ),
        (
            Reply::BestMove {
                mv: None,
                ponder: None,
            },
            "bestmove (none)",
        ),
        (
            Reply::BestMove {
                mv: None,
                ponder: Some("e7e5".into()),
            },
            "bestmove (none)",
        ),
        (
            Reply::InfoString(
                "bad argument for 'go': 'x' is not a valid number for 'depth'".into(),
            ),
            "info string bad argument for 'go': 'x' is not a valid number for 'depth'",
        ),
        (
            Reply::InfoString("two\nlines\r\n".into()),
            "info string two lines  ",
        ),
        (Reply::Info(Info::default()), "info"),
        (
            Reply::Info(Info {
                depth: Some(20),
                seldepth: Some(31),
                multipv: Some(1),
                score: Some(Score::Cp(34)),
                bound: None,
                nodes: Some(1_234_567),
                nps: Some(987_654),
                hashfull: Some(412),
                time: Some(1250),
                currmove: None,
                currmovenumber: None,
                pv: moves(&["e2e4", "e7e5", "g1f3"]),
            }),
            "info depth 20 seldepth 31 multipv 1 score cp 34 nodes 1234567 nps 987654 \
             hashfull 412 time 1250 pv e2e4 e7e5 g1f3",
        ),
        (
            Reply::Info(Info {
                depth: Some(12),
                score: Some(Score::Mate(-3)),
                bound: Some(Bound::Upper),
                ..Info::default()
            }),
            "info depth 12 score mate -3 upperbound",
        ),
        (
            Reply::Info(Info {
                score: Some(Score::Cp(-15)),
                bound: Some(Bound::Lower),
                nodes: Some(10),
                ..Info::default()
            }),
            "info score cp -15 lowerbound nodes 10",
        ),
        (
            Reply::Info(Info {
                score: Some(Score::Mate(2)),
                ..Info::default()
            }),
            "info score mate 2",
        ),
        (
            // A bound means nothing without a score.
            Reply::Info(Info {
                bound: Some(Bound::Lower),
                nodes: Some(10),
                ..Info::default()
            }),
            "info nodes 10",
        ),
        (
            Reply::Info(Info {
                depth: Some(18),
                currmove: Some("g1f3".into()),
                currmovenumber: Some(3),
                ..Info::default()
            }),
            "info depth 18 currmove g1f3 currmovenumber 3",
        ),
        (
            Reply::Info(Info {
                depth: Some(1),
                time: Some(0),
                currmove: Some("a2a3".into()),
                currmovenumber: Some(1),
                pv: moves(&["a2a3"]),
                ..Info::default()
            }),
            "info depth 1 time 0 currmove a2a3 currmovenumber 1 pv a2a3",
        ),
    ];
    for (reply, line) in cases {
        assert_eq!(reply.to_string(), line, "{reply:?}");
    }
}

#[test]
fn commands_print_back_to_themselves() {
    for line in [
        "uci",
        "debug on",
        "debug off",
        "isready",
        "setoption name Move Overhead value 30",
        "setoption name Clear Hash",
        "setoption name Debug Log File value",
        "register",
        "ucinewgame",
        "position startpos",
        "position startpos moves e2e4 e7e5",
        "position fen 8/8/8/8/8/8/k7/K6R w - - moves h1h8",
        "go",
        "go ponder wtime -5 btime 10 winc 1 binc 2 movestogo 3 depth 4 mate 5 movetime 6 \
         perft 7 nodes 8 infinite searchmoves e2e4 d2d4",
        "go perft 5",
        "stop",
        "ponderhit",
        "quit",
        "bench",
        "bench 16 1 13",
        "d",
        "eval",
    ] {
        let command = parse(line).unwrap();
        assert_eq!(command.to_string(), line);
        assert_eq!(parse(&command.to_string()), Ok(command));
    }
    // Non-canonical lines print canonically.
    let command = parse("position   startpos moves").unwrap();
    assert_eq!(command.to_string(), "position startpos");
    let command = parse("go searchmoves e2e4 depth 3").unwrap();
    assert_eq!(command.to_string(), "go depth 3 searchmoves e2e4");
}

/// A small deterministic generator: the crate has no random-number dependency, and a fixed
/// sequence makes any failure reproducible.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_token_sequences_never_panic_and_print_back() {
    const VOCABULARY: &[&str] = &[
        "uci",
        "debug",
        "on",
        "off",
        "isready",
        "setoption",
        "name",
        "value",
        "register",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "searchmoves",
        "ponder",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "infinite",
        "perft",
        "stop",
        "ponderhit",
        "quit",
        "bench",
        "d",
        "eval",
        "e2e4",
        "(none)",
        "0",
        "5",
        "-1",
        "-0",
        "+3",
        "18446744073709551616",
        "9223372036854775807",
        "-9223372036854775808",
        "x",
        "1.5",
        "w",
        "KQkq",
        "-",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "<empty>",
        "é",
        "\u{0}",
        "",
    ];
    const SEPARATORS: &[&str] = &[" ", "  ", "\t", " \r", "\u{a0}", "\u{3000}"];
    let mut rng = Lcg(0x5eed);
    let mut parsed = 0;
    for _ in 0..50_000 {
        let mut line = String::new();
        if rng.below(4) == 0 {
            line.push_str(SEPARATORS[rng.below(SEPARATORS.len())]);
        }
        for i in 0..rng.below(12) {
            if i > 0 {
                line.push_str(SEPARATORS[rng.below(SEPARATORS.len())]);
            }
            line.push_str(VOCABULARY[rng.below(VOCABULARY.len())]);
        }
        if let Ok(command) = parse(&line) {
            parsed += 1;
            let printed = command.to_string();
            assert_eq!(
                parse(&printed).as_ref(),
                Ok(&command),
                "{line:?} -> {printed:?}"
            );
        }
    }
    // The vocabulary is rich enough for the round trip to be exercised.
    assert!(parsed > 1000, "{parsed}");
}

/// The engine's side read back, as a match runner reads it: every reply parses to what was
/// printed, and malformed replies are typed errors.
#[test]
fn replies_parse_as_they_print() {
    let info = Info {
        depth: Some(12),
        seldepth: Some(16),
        multipv: Some(1),
        score: Some(Score::Mate(-3)),
        bound: Some(Bound::Upper),
        nodes: Some(900),
        nps: Some(100_000),
        hashfull: Some(12),
        time: Some(9),
        currmove: Some("e2e4".into()),
        currmovenumber: Some(1),
        pv: moves(&["e2e4", "e7e5"]),
    };
    for r in [
        Reply::IdName("duel 0.1".into()),
        Reply::IdAuthor("the duel authors".into()),
        Reply::UciOk,
        Reply::ReadyOk,
        Reply::BestMove {
            mv: Some("e2e4".into()),
            ponder: Some("e7e5".into()),
        },
        Reply::BestMove {
            mv: None,
            ponder: None,
        },
        Reply::Info(info),
        Reply::InfoString("depth 30 score cp 999".into()),
        Reply::Option {
            name: "Clear Hash".into(),
            kind: OptionKind::Button,
        },
        Reply::Option {
            name: "Hash".into(),
            kind: OptionKind::Spin {
                default: 16,
                min: 1,
                max: 1024,
            },
        },
        Reply::Option {
            name: "Evaluator".into(),
            kind: OptionKind::Combo {
                default: "net".into(),
                vars: moves(&["net", "strong"]),
            },
        },
        Reply::Option {
            name: "EvalFile".into(),
            kind: OptionKind::String {
                default: String::new(),
            },
        },
        Reply::Option {
            name: "UCI_Chess960".into(),
            kind: OptionKind::Check { default: false },
        },
    ] {
        assert_eq!(Reply::parse(&r.to_string()), Ok(r.clone()), "{r}");
    }
    // Fields a GUI does not know are skipped.
    assert_eq!(
        Reply::parse("info depth 3 tbhits 0 wdl 300 400 300 score cp 7"),
        Ok(Reply::Info(Info {
            depth: Some(3),
            score: Some(Score::Cp(7)),
            ..Info::default()
        }))
    );
    // A lone `\r` inside a line reads as the space it prints as.
    assert_eq!(
        Reply::parse("info string a\rb"),
        Ok(Reply::InfoString("a b".into()))
    );
    assert_eq!(Reply::parse(""), Err(ParseError::Empty));
    assert!(matches!(Reply::parse("hello"), Err(ParseError::Unknown(w)) if w == "hello"));
    for bad in [
        "bestmove",
        "info depth x",
        "info score cp",
        "option type spin",
        "id",
    ] {
        assert!(
            matches!(Reply::parse(bad), Err(ParseError::BadArgument { .. })),
            "{bad}"
        );
    }
}

/// Found by the property test of tests/it/parsers.rs: a bound with no score was kept, and
/// printed as nothing, so the line did not print back to itself.
#[test]
fn a_bound_without_a_score_is_dropped() {
    for line in ["info lowerbound", "info depth 3 upperbound nodes 5"] {
        let Ok(Reply::Info(info)) = Reply::parse(line) else {
            panic!("{line}");
        };
        assert_eq!(info.bound, None, "{line}");
        assert_eq!(
            Reply::parse(&Reply::Info(info.clone()).to_string()),
            Ok(Reply::Info(info))
        );
    }
    let Ok(Reply::Info(info)) = Reply::parse("info score cp 5 lowerbound") else {
        panic!();
    };
    assert_eq!(info.bound, Some(Bound::Lower));
}

/// The `protocol_lines` fuzz target's `bestmove 0000 ponder e8e5`: a ponder move after no move
/// is dropped, so the reply prints back to what reads the same.
#[test]
fn a_ponder_after_no_move_is_dropped() {
    let r = Reply::parse("bestmove 0000 ponder e8e5").unwrap();
    assert_eq!(
        r,
        Reply::BestMove {
            mv: None,
            ponder: None
        }
    );
    assert_eq!(Reply::parse(&r.to_string()), Ok(r));
}
