//! The Gomocup module against the lines managers send and the lines brains answer.

use duel_protocol::gomocup::{
    parse, read_line, rule, Command, Field, Info, ParseError, Point, Reader, Reply, MAX_LINE,
    UNLIMITED_TIME_LEFT,
};

fn p(x: u32, y: u32) -> Point {
    Point::new(x, y)
}

/// What a reader makes of `text`, split on CR and LF as a brain reads its input.
fn read_all(text: &str) -> Vec<Result<Command, ParseError>> {
    let mut reader = Reader::new();
    let out = text
        .split(['\r', '\n'])
        .filter_map(|line| reader.feed(line))
        .collect();
    assert!(!reader.in_block(), "{text:?} leaves a block open");
    out
}

/// The one command `text` is, read through a reader.
fn command(text: &str) -> Command {
    match read_all(text).as_slice() {
        [Ok(c)] => c.clone(),
        other => panic!("{text:?}: {other:?}"),
    }
}

/// The one error `text` gives, read through a reader.
fn error(text: &str) -> ParseError {
    match read_all(text).as_slice() {
        [Err(e)] => e.clone(),
        other => panic!("{text:?}: {other:?}"),
    }
}

/// The reason of the bad-argument error `text` gives, checking the command it names.
fn reason(text: &str, command: &str) -> String {
    match error(text) {
        ParseError::BadArgument { command: c, reason } if c == command => reason,
        other => panic!("{text:?}: {other:?}"),
    }
}

#[test]
fn one_line_commands() {
    assert_eq!(parse("START 20"), Ok(Command::Start(20)));
    assert_eq!(
        parse("RECTSTART 30,20"),
        Ok(Command::RectStart {
            width: 30,
            height: 20
        })
    );
    assert_eq!(parse("RESTART"), Ok(Command::Restart));
    assert_eq!(parse("BEGIN"), Ok(Command::Begin));
    assert_eq!(parse("TURN 10,10"), Ok(Command::Turn(p(10, 10))));
    assert_eq!(parse("TURN 0,19"), Ok(Command::Turn(p(0, 19))));
    assert_eq!(parse("END"), Ok(Command::End));
    assert_eq!(parse("ABOUT"), Ok(Command::About));
    assert_eq!(parse("TAKEBACK 9,10"), Ok(Command::Takeback(p(9, 10))));
    assert_eq!(parse("PLAY 12,10"), Ok(Command::Play(p(12, 10))));
    assert_eq!(
        parse("INFO timeout_turn 10000"),
        Ok(Command::Info(Info::TimeoutTurn(10000)))
    );
    // x first: the first number is the column.
    assert_eq!(parse("TURN 3,7"), Ok(Command::Turn(Point { x: 3, y: 7 })));
}

#[test]
fn info_keys_and_values() {
    let info = |line: &str| match parse(line) {
        Ok(Command::Info(i)) => i,
        other => panic!("{line}: {other:?}"),
    };
    assert_eq!(
        info("INFO timeout_match 300000"),
        Info::TimeoutMatch(300000)
    );
    assert_eq!(info("INFO timeout_turn 0"), Info::TimeoutTurn(0));
    assert_eq!(
        info("INFO max_memory 83886080"),
        Info::MaxMemory(83_886_080)
    );
    assert_eq!(
        info("INFO max_memory 68719476736"),
        Info::MaxMemory(1 << 36),
        "more than 4 GiB"
    );
    assert_eq!(info("INFO time_left 1500"), Info::TimeLeft(1500));
    // The specification: negative once the brain has run out of time.
    assert_eq!(info("INFO time_left -250"), Info::TimeLeft(-250));
    assert_eq!(
        info("INFO time_left 2147483647"),
        Info::TimeLeft(UNLIMITED_TIME_LEFT)
    );
    assert_eq!(info("INFO game_type 1"), Info::GameType(1));
    assert_eq!(info("INFO rule 1"), Info::Rule(rule::EXACT_FIVE));
    assert_eq!(
        info("INFO rule 6"),
        Info::Rule(rule::CONTINUOUS | rule::RENJU)
    );
    assert_eq!(info("INFO rule 8"), Info::Rule(rule::CARO));
    assert_eq!(info("INFO evaluate 3,4"), Info::Evaluate(p(3, 4)));
    // A folder keeps its case and its spaces.
    assert_eq!(
        info(r"INFO folder C:\Gomoku Data\Brains"),
        Info::Folder(r"C:\Gomoku Data\Brains".into())
    );
    // Unknown keys are kept, lower case, values as sent.
    assert_eq!(
        info("INFO caution_factor 4"),
        Info::Other {
            key: "caution_factor".into(),
            value: "4".into()
        }
    );
    // Yixin Board's: the threads, and limits besides the time (0 or less: none).
    assert_eq!(info("INFO THREAD_NUM 2"), Info::ThreadNum(2));
    assert_eq!(info("INFO max_depth 12"), Info::MaxDepth(12));
    assert_eq!(info("INFO max_node -1"), Info::MaxNode(-1));
    assert_eq!(
        info("INFO max_node 1000000000000"),
        Info::MaxNode(1_000_000_000_000)
    );
    assert_eq!(
        info("INFO usedatabase"),
        Info::Other {
            key: "usedatabase".into(),
            value: String::new()
        }
    );
    assert_eq!(
        info("INFO pondering Yes Please"),
        Info::Other {
            key: "pondering".into(),
            value: "Yes Please".into()
        }
    );
    // Known keys are matched in any case.
    assert_eq!(info("INFO Timeout_Turn 5000"), Info::TimeoutTurn(5000));
    assert_eq!(info("info TIME_LEFT 7"), Info::TimeLeft(7));
}

#[test]
fn commands_print_as_the_manager_writes_them() {
    let lines = [
        (Command::Start(20), "START 20"),
        (
            Command::RectStart {
                width: 30,
                height: 20,
            },
            "RECTSTART 30,20",
        ),
        (Command::Restart, "RESTART"),
        (Command::Begin, "BEGIN"),
        (Command::Turn(p(10, 11)), "TURN 10,11"),
        (
            Command::Board(vec![(p(10, 10), Field::Own), (p(10, 11), Field::Opponent)]),
            "BOARD\n10,10,1\n10,11,2\nDONE",
        ),
        (Command::Board(vec![]), "BOARD\nDONE"),
        (
            Command::Info(Info::TimeoutTurn(10000)),
            "INFO timeout_turn 10000",
        ),
        (
            Command::Info(Info::TimeoutMatch(300000)),
            "INFO timeout_match 300000",
        ),
        (Command::Info(Info::TimeLeft(-5)), "INFO time_left -5"),
        (
            Command::Info(Info::MaxMemory(83886080)),
            "INFO max_memory 83886080",
        ),
        (Command::Info(Info::GameType(2)), "INFO game_type 2"),
        (Command::Info(Info::Rule(4)), "INFO rule 4"),
        (Command::Info(Info::Evaluate(p(1, 2))), "INFO evaluate 1,2"),
        (
            Command::Info(Info::Folder("/tmp/x y".into())),
            "INFO folder /tmp/x y",
        ),
        (
            Command::Info(Info::Other {
                key: "caution_factor".into(),
                value: "4".into(),
            }),
            "INFO caution_factor 4",
        ),
        (
            Command::Info(Info::Other {
                key: "flag".into(),
                value: String::new(),
            }),
            "INFO flag",
        ),
        (Command::End, "END"),
        (Command::About, "ABOUT"),
        (Command::Takeback(p(9, 10)), "TAKEBACK 9,10"),
        (Command::Play(p(12, 10)), "PLAY 12,10"),
        (Command::Swap2Board(vec![]), "SWAP2BOARD\nDONE"),
        (
            Command::Swap2Board(vec![p(7, 7), p(8, 7), p(9, 9)]),
            "SWAP2BOARD\n7,7\n8,7\n9,9\nDONE",
        ),
    ];
    for (command, text) in lines {
        assert_eq!(command.to_string(), text);
        // And the reader reads each back, by LF or by CR LF as the manager sends them.
        assert_eq!(read_all(text), vec![Ok(command.clone())], "{text}");
        let crlf = text.replace('\n', "\r\n") + "\r\n";
        assert_eq!(read_all(&crlf), vec![Ok(command)], "{crlf:?}");
    }
}

#[test]
fn fields_number_as_the_protocol_does() {
    for (field, n) in [(Field::Own, 1), (Field::Opponent, 2), (Field::Marked, 3)] {
        assert_eq!(field.number(), n);
        assert_eq!(Field::from_number(n), Some(field));
    }
    assert_eq!(Field::from_number(0), None);
    assert_eq!(Field::from_number(4), None);
}

/// The specification's examples, line by line, and what the brain answers.
#[test]
fn transcripts_from_the_specification() {
    let manager = "START 20\r\n\
        INFO timeout_match 300000\r\n\
        INFO timeout_turn 10000\r\n\
        INFO max_memory 83886080\r\n\
        INFO game_type 1\r\n\
        INFO rule 1\r\n\
        INFO time_left 300000\r\n\
        BEGIN\r\n\
        INFO time_left 299000\r\n\
        TURN 10,10\r\n\
        TAKEBACK 9,10\r\n\
        RESTART\r\n\
        BOARD\r\n\
        10,10,1\r\n\
        10,11,2\r\n\
        11,11,1\r\n\
        9,10,2\r\n\
        DONE\r\n\
        PLAY 12,10\r\n\
        ABOUT\r\n\
        END\r\n";
    let expected = vec![
        Command::Start(20),
        Command::Info(Info::TimeoutMatch(300000)),
        Command::Info(Info::TimeoutTurn(10000)),
        Command::Info(Info::MaxMemory(83886080)),
        Command::Info(Info::GameType(1)),
        Command::Info(Info::Rule(1)),
        Command::Info(Info::TimeLeft(300000)),
        Command::Begin,
        Command::Info(Info::TimeLeft(299000)),
        Command::Turn(p(10, 10)),
        Command::Takeback(p(9, 10)),
        Command::Restart,
        Command::Board(vec![
            (p(10, 10), Field::Own),
            (p(10, 11), Field::Opponent),
            (p(11, 11), Field::Own),
            (p(9, 10), Field::Opponent),
        ]),
        Command::Play(p(12, 10)),
        Command::About,
        Command::End,
    ];
    assert_eq!(
        read_all(manager),
        expected.into_iter().map(Ok).collect::<Vec<_>>()
    );

    // The brain's side of the same examples.
    for (line, reply) in [
        ("OK", Reply::Ok),
        ("ERROR message", Reply::Error("message".into())),
        ("11,10", Reply::Move(p(11, 10))),
        ("9,9", Reply::Move(p(9, 9))),
        ("SUGGEST 10,10", Reply::Suggest(p(10, 10))),
        (
            "DEBUG The most promising move now is [10,14] alfa=10025 beta=8641",
            Reply::Debug("The most promising move now is [10,14] alfa=10025 beta=8641".into()),
        ),
        (
            "MESSAGE I will be the winner",
            Reply::Message("I will be the winner".into()),
        ),
        (
            r#"name="SomeBrain", version="1.0", author="Nymand", country="USA""#,
            Reply::About(vec![
                ("name".into(), "SomeBrain".into()),
                ("version".into(), "1.0".into()),
                ("author".into(), "Nymand".into()),
                ("country".into(), "USA".into()),
            ]),
        ),
        ("UNKNOWN command", Reply::Unknown("command".into())),
    ] {
        assert_eq!(Reply::parse(line), Ok(reply.clone()), "{line}");
        assert_eq!(reply.to_string(), line);
    }
}

/// The three SWAP2BOARD cases of the Gomocup extension, and the BOARD that follows.
#[test]
fn swap2_transcripts() {
    assert_eq!(
        command("SWAP2BOARD\r\nDONE\r\n"),
        Command::Swap2Board(vec![])
    );
    assert_eq!(
        Reply::parse("7,7 8,7 9,9"),
        Ok(Reply::Moves(vec![p(7, 7), p(8, 7), p(9, 9)]))
    );

    assert_eq!(
        command("SWAP2BOARD\r\n7,7\r\n8,7\r\n9,9\r\nDONE\r\n"),
        Command::Swap2Board(vec![p(7, 7), p(8, 7), p(9, 9)])
    );
    assert_eq!(Reply::parse("SWAP"), Ok(Reply::Swap));
    assert_eq!(Reply::parse("8,8"), Ok(Reply::Move(p(8, 8))));
    assert_eq!(
        Reply::parse("8,8 8,6"),
        Ok(Reply::Moves(vec![p(8, 8), p(8, 6)]))
    );

    assert_eq!(
        command("SWAP2BOARD\n7,7\n8,7\n9,9\n8,8\n8,6\nDONE\n"),
        Command::Swap2Board(vec![p(7, 7), p(8, 7), p(9, 9), p(8, 8), p(8, 6)])
    );
    assert_eq!(Reply::parse("6,8"), Ok(Reply::Move(p(6, 8))));

    // What the other brain is sent after the opening.
    assert_eq!(
        command("BOARD\n7,7,1\n8,7,2\n9,9,1\n8,8,2\n8,6,1\n6,8,2\nDONE"),
        Command::Board(vec![
            (p(7, 7), Field::Own),
            (p(8, 7), Field::Opponent),
            (p(9, 9), Field::Own),
            (p(8, 8), Field::Opponent),
            (p(8, 6), Field::Own),
            (p(6, 8), Field::Opponent),
        ])
    );
}

#[test]
fn commands_and_keys_in_any_case() {
    assert_eq!(parse("start 20"), Ok(Command::Start(20)));
    assert_eq!(parse("Begin"), Ok(Command::Begin));
    assert_eq!(parse("tUrN 1,2"), Ok(Command::Turn(p(1, 2))));
    assert_eq!(
        parse("rectstart 10,12"),
        Ok(Command::RectStart {
            width: 10,
            height: 12
        })
    );
    assert_eq!(parse("end"), Ok(Command::End));
    assert_eq!(parse("about"), Ok(Command::About));
    assert_eq!(parse("Restart"), Ok(Command::Restart));
    assert_eq!(parse("takeback 1,1"), Ok(Command::Takeback(p(1, 1))));
    assert_eq!(parse("play 1,1"), Ok(Command::Play(p(1, 1))));
    assert_eq!(
        command("board\n1,1,1\ndone"),
        Command::Board(vec![(p(1, 1), Field::Own)])
    );
    assert_eq!(command("Swap2Board\nDone"), Command::Swap2Board(vec![]));
    assert_eq!(Reply::parse("ok"), Ok(Reply::Ok));
    assert_eq!(Reply::parse("swap"), Ok(Reply::Swap));
    assert_eq!(Reply::parse("Suggest 3,4"), Ok(Reply::Suggest(p(3, 4))));
    assert_eq!(Reply::parse("error Bad"), Ok(Reply::Error("Bad".into())));
    assert_eq!(Reply::parse("Unknown"), Ok(Reply::Unknown(String::new())));
    assert_eq!(Reply::parse("message Hi"), Ok(Reply::Message("Hi".into())));
    assert_eq!(Reply::parse("debug x"), Ok(Reply::Debug("x".into())));
}

#[test]
fn white_space_and_line_endings() {
    assert_eq!(parse("  TURN   10,11  \r\n"), Ok(Command::Turn(p(10, 11))));
    assert_eq!(parse("TURN 10 , 11"), Ok(Command::Turn(p(10, 11))));
    assert_eq!(parse("\tBEGIN\r"), Ok(Command::Begin));
    assert_eq!(parse(""), Err(ParseError::Empty));
    assert_eq!(parse(" \t\r\n"), Err(ParseError::Empty));
    // Words after an argument-less command are ignored, as the reference skeleton does.
    assert_eq!(parse("BEGIN now"), Ok(Command::Begin));
    assert_eq!(parse("END please"), Ok(Command::End));

    // LF, CR LF and CR alone, and empty lines, in a block and out of it.
    let board = Command::Board(vec![(p(1, 2), Field::Own), (p(3, 4), Field::Marked)]);
    for text in [
        "BOARD\n1,2,1\n3,4,3\nDONE\n",
        "BOARD\r\n1,2,1\r\n3,4,3\r\nDONE\r\n",
        "BOARD\r1,2,1\r3,4,3\rDONE\r",
        "\r\n\r\nBOARD\r\n\r\n1,2,1\r\n \r\n3,4,3\r\n\r\nDONE\r\n\r\n",
        "BOARD \n 1 , 2 , 1 \n3,4,3\t\n  DONE  ",
    ] {
        assert_eq!(read_all(text), vec![Ok(board.clone())], "{text:?}");
    }

    // The reader takes lines with their line ending on.
    let mut reader = Reader::new();
    assert_eq!(reader.feed("BOARD\r\n"), None);
    assert!(reader.in_block());
    assert_eq!(reader.feed("1,2,1\r\n"), None);
    assert_eq!(reader.feed("\r\n"), None);
    assert_eq!(reader.feed("3,4,3\n"), None);
    assert_eq!(reader.feed("DONE\r\n"), Some(Ok(board)));
    assert!(!reader.in_block());
    assert_eq!(reader.feed("\r\n"), None);
    assert_eq!(reader.feed(""), None);
}

#[test]
fn read_line_splits_on_cr_and_lf() {
    let input = b"START 20\r\nBEGIN\rTURN 1,1\nEND";
    let mut cursor = std::io::Cursor::new(&input[..]);
    let mut lines = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = read_line(&mut cursor, &mut line).unwrap();
        if n == 0 {
            break;
        }
        lines.push(String::from_utf8(line).unwrap());
    }
    // The LF of CR LF reads as an empty line, which the reader ignores.
    assert_eq!(lines, ["START 20", "", "BEGIN", "TURN 1,1", "END"]);

    let mut reader = Reader::new();
    let commands: Vec<_> = lines.iter().filter_map(|l| reader.feed(l)).collect();
    assert_eq!(
        commands,
        vec![
            Ok(Command::Start(20)),
            Ok(Command::Begin),
            Ok(Command::Turn(p(1, 1))),
            Ok(Command::End)
        ]
    );

    // A line ending in the middle of the buffer is answered without waiting for more.
    struct Small<'a>(&'a [u8]);
    impl std::io::Read for Small<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(3).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut small = std::io::BufReader::with_capacity(3, Small(b"TURN 10,11\rX"));
    let mut line = Vec::new();
    assert_eq!(read_line(&mut small, &mut line).unwrap(), 11);
    assert_eq!(line, b"TURN 10,11");

    // An overlong line is kept to MAX_LINE + 1 bytes, so that it is refused, not split.
    let long = format!("INFO folder {}\nBEGIN\n", "x".repeat(3 * MAX_LINE));
    let mut cursor = std::io::Cursor::new(long.as_bytes());
    let mut line = Vec::new();
    assert_eq!(
        read_line(&mut cursor, &mut line).unwrap(),
        "INFO folder ".len() + 3 * MAX_LINE + 1
    );
    assert_eq!(line.len(), MAX_LINE + 1);
    let text = String::from_utf8(line).unwrap();
    assert!(matches!(
        parse(&text),
        Err(ParseError::BadArgument { command, .. }) if command == "INFO"
    ));
    let mut line = Vec::new();
    read_line(&mut cursor, &mut line).unwrap();
    assert_eq!(line, b"BEGIN");
}

/// Malformed lines, each with the error kind it must give and words its reason must hold.
#[test]
fn malformed_lines_name_the_problem() {
    let big = format!("INFO timeout_turn {}", "9".repeat(30));
    let long_folder = format!("INFO folder {}", "d".repeat(MAX_LINE));
    let long_turn = format!("TURN 1,{}", "1".repeat(MAX_LINE));
    let cases: Vec<(&str, &str, &[&str])> = vec![
        // START and RECTSTART
        ("START", "START", &["START needs a size"]),
        ("START x", "START", &["'x' is not a number"]),
        ("START 0", "START", &["size 0 is too small"]),
        ("START -20", "START", &["'-20' is negative"]),
        ("START 20 20", "START", &["one size", "'20 20'"]),
        ("START 20,20", "START", &["'20,20' is not a number"]),
        ("START 4294967296", "START", &["'4294967296' is too large"]),
        ("START 2.5", "START", &["'2.5' is not a number"]),
        ("RECTSTART", "RECTSTART", &["needs width,height"]),
        (
            "RECTSTART 30",
            "RECTSTART",
            &["'30' is not width,height", "2 numbers expected, found 1"],
        ),
        ("RECTSTART 30,20,10", "RECTSTART", &["found 3"]),
        ("RECTSTART 0,20", "RECTSTART", &["width 0 is too small"]),
        ("RECTSTART 20,0", "RECTSTART", &["height 0 is too small"]),
        ("RECTSTART 30,", "RECTSTART", &["a number is missing"]),
        ("RECTSTART -1,5", "RECTSTART", &["'-1' is negative"]),
        // Points
        ("TURN", "TURN", &["TURN needs a point x,y"]),
        (
            "TURN a,3",
            "TURN",
            &["'a,3' is not a point x,y", "'a' is not a number"],
        ),
        ("TURN 3", "TURN", &["'3' is not a point x,y", "found 1"]),
        ("TURN 3,4,1", "TURN", &["found 3"]),
        ("TURN 3,-4", "TURN", &["'-4' is negative"]),
        ("TURN ,4", "TURN", &["a number is missing"]),
        ("TURN 3,", "TURN", &["a number is missing"]),
        ("TURN 3;4", "TURN", &["'3;4' is not a point"]),
        ("TURN 3 4", "TURN", &["'3 4' is not a point"]),
        ("TURN 1,2 3,4", "TURN", &["is not a point", "found 3"]),
        ("TURN 0x1,2", "TURN", &["'0x1' is not a number"]),
        (
            "TURN 1,99999999999",
            "TURN",
            &["'99999999999' is too large"],
        ),
        (&long_turn, "TURN", &["bytes long", "4096"]),
        ("TAKEBACK", "TAKEBACK", &["TAKEBACK needs a point x,y"]),
        ("TAKEBACK 1.5,2", "TAKEBACK", &["'1.5' is not a number"]),
        ("PLAY", "PLAY", &["PLAY needs a point x,y"]),
        ("PLAY ten,eleven", "PLAY", &["'ten' is not a number"]),
        // INFO
        ("INFO", "INFO", &["INFO needs a key and a value"]),
        (&big, "INFO", &["timeout_turn: '999", "' is too large"]),
        (
            "INFO timeout_turn",
            "INFO",
            &["timeout_turn: a number is missing"],
        ),
        (
            "INFO timeout_turn fast",
            "INFO",
            &["timeout_turn: 'fast' is not a number"],
        ),
        (
            "INFO timeout_turn -1",
            "INFO",
            &["timeout_turn: '-1' is negative"],
        ),
        (
            "INFO timeout_match 1e6",
            "INFO",
            &["timeout_match: '1e6' is not a number"],
        ),
        (
            "INFO time_left 99999999999999999999",
            "INFO",
            &["time_left", "is too large"],
        ),
        (
            "INFO time_left -99999999999999999999",
            "INFO",
            &["time_left", "is too small"],
        ),
        (
            "INFO max_memory 80MB",
            "INFO",
            &["max_memory: '80MB' is not a number"],
        ),
        ("INFO max_memory -1", "INFO", &["'-1' is negative"]),
        (
            "INFO game_type 1 2",
            "INFO",
            &["game_type: '1 2' is not a number"],
        ),
        (
            "INFO rule renju",
            "INFO",
            &["rule: 'renju' is not a number"],
        ),
        (
            "INFO evaluate",
            "INFO",
            &["evaluate: a point x,y is missing"],
        ),
        (
            "INFO evaluate 3",
            "INFO",
            &["evaluate: '3' is not a point x,y"],
        ),
        ("INFO folder", "INFO", &["folder: the folder is missing"]),
        (&long_folder, "INFO", &["bytes long"]),
        // DONE alone
        (
            "DONE",
            "DONE",
            &["DONE without BOARD, SWAP2BOARD or a YX block"],
        ),
        ("done", "DONE", &["DONE without"]),
        // Blocks with a bad line
        (
            "BOARD\n10,10\nDONE",
            "BOARD",
            &[
                "line 1 after BOARD, '10,10'",
                "not a stone x,y,field",
                "found 2",
            ],
        ),
        (
            "BOARD\n1,1,1\n10,10,4\nDONE",
            "BOARD",
            &[
                "line 2",
                "field 4 is not 1 (own), 2 (opponent) or 3 (marked)",
            ],
        ),
        ("BOARD\n10,10,0\nDONE", "BOARD", &["field 0 is not"]),
        ("BOARD\n-1,10,1\nDONE", "BOARD", &["'-1' is negative"]),
        (
            "BOARD\n1,1,1\nTURN 2,2\nDONE",
            "BOARD",
            &[
                "line 2",
                "'TURN 2,2'",
                "expected x,y,field or DONE, found the command TURN",
            ],
        ),
        ("BOARD\nBOARD\nDONE", "BOARD", &["found the command BOARD"]),
        (
            "BOARD\nx,1,1\ny,1,1\nz,1,1\nDONE",
            "BOARD",
            &["line 1", "'x' is not a number", "2 more bad lines"],
        ),
        (
            "BOARD\n1,1,1,1\n2,2,2\n\n3,3,x\nDONE",
            "BOARD",
            &["line 1", "found 4", "; 1 more bad line"],
        ),
        (
            "SWAP2BOARD\n7,7,1\nDONE",
            "SWAP2BOARD",
            &["line 1 after SWAP2BOARD", "'7,7,1' is not a point x,y"],
        ),
        (
            "SWAP2BOARD\n7,7\n8,7\n9,9\n8,8\nDONE",
            "SWAP2BOARD",
            &["0, 3 or 5 stones, found 4"],
        ),
        ("SWAP2BOARD\n7,7\nDONE", "SWAP2BOARD", &["found 1"]),
        (
            "SWAP2BOARD\nBEGIN\nDONE",
            "SWAP2BOARD",
            &["expected x,y or DONE, found the command BEGIN"],
        ),
    ];
    assert!(cases.len() >= 40, "{}", cases.len());
    for (text, command, words) in cases {
        let reason = reason(text, command);
        for word in words {
            assert!(reason.contains(word), "{text:?}: {reason:?} lacks {word:?}");
        }
        // Reasons name the line's text briefly, even for long lines.
        assert!(reason.len() < 200, "{text:?}: {reason:?}");
    }

    // Words that are no command.
    for (text, word) in [
        ("FOO", "FOO"),
        ("hello world", "hello"),
        ("10,10,1", "10,10,1"),
        ("YXBALANCETWO 1", "YXBALANCETWO"),
        ("STARTX 20", "STARTX"),
        ("SUGGEST 1,1", "SUGGEST"),
        ("OK", "OK"),
    ] {
        assert_eq!(error(text), ParseError::Unknown(word.into()), "{text}");
    }
    // A long unknown word is shortened in the error.
    let long = "Z".repeat(10_000);
    match parse(&long) {
        Err(ParseError::Unknown(word)) => assert!(word.len() < 50 && word.starts_with("ZZZ")),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        parse("FOO bar").unwrap_err().to_string(),
        "unknown command 'FOO'"
    );
    assert_eq!(
        parse("TURN a,3").unwrap_err().to_string(),
        "bad argument for 'TURN': 'a,3' is not a point x,y ('a' is not a number)"
    );
    // Non-ASCII text does not upset the byte counts.
    assert!(matches!(
        parse("TURN é,3"),
        Err(ParseError::BadArgument { .. })
    ));
    assert!(matches!(parse("ÉTAT"), Err(ParseError::Unknown(w)) if w == "ÉTAT"));
}

#[test]
fn parse_refuses_blocks() {
    for (line, name) in [("BOARD", "BOARD"), ("SWAP2BOARD", "SWAP2BOARD")] {
        match parse(line) {
            Err(ParseError::BadArgument { command, reason }) => {
                assert_eq!(command, name);
                assert!(reason.contains("Reader"), "{reason}");
            }
            other => panic!("{line}: {other:?}"),
        }
    }
    assert!(matches!(
        parse("DONE"),
        Err(ParseError::BadArgument { command, .. }) if command == "DONE"
    ));
}

#[test]
fn a_bad_block_keeps_the_reader_in_step() {
    // The bad line is reported once, at DONE; the lines after it are not taken for commands,
    // and the next command reads as usual.
    let text = "BOARD\n1,1,1\nBEGIN\n2,2,2\nDONE\nTURN 3,3\n";
    let results = read_all(text);
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(
        matches!(&results[0], Err(ParseError::BadArgument { command, reason })
        if command == "BOARD" && reason.contains("line 2") && reason.contains("BEGIN"))
    );
    assert_eq!(results[1], Ok(Command::Turn(p(3, 3))));

    // Nothing comes out of the reader until DONE.
    let mut reader = Reader::new();
    for line in ["BOARD", "1,1,1", "nonsense", "", "2,2,2", "TURN 1,1"] {
        assert_eq!(reader.feed(line), None, "{line}");
        assert!(reader.in_block());
    }
    assert!(matches!(reader.feed("DONE"), Some(Err(_))));
    assert!(!reader.in_block());
    // A second DONE is out of place.
    assert!(matches!(
        reader.feed("DONE"),
        Some(Err(ParseError::BadArgument { command, .. })) if command == "DONE"
    ));

    // END is obeyed inside a block, which is dropped.
    let mut reader = Reader::new();
    assert_eq!(reader.feed("BOARD"), None);
    assert_eq!(reader.feed("1,1,1"), None);
    assert_eq!(reader.feed("end"), Some(Ok(Command::End)));
    assert!(!reader.in_block());
    assert_eq!(
        reader.feed("1,1,1"),
        Some(Err(ParseError::Unknown("1,1,1".into())))
    );

    // A block of stones in any order, marked ones included, with repeated points left to the
    // engine (this crate knows no board).
    assert_eq!(
        command("BOARD\n5,5,3\n0,0,2\n5,5,1\nDONE"),
        Command::Board(vec![
            (p(5, 5), Field::Marked),
            (p(0, 0), Field::Opponent),
            (p(5, 5), Field::Own),
        ])
    );
}

#[test]
fn an_overlong_block_is_refused_at_done() {
    let mut reader = Reader::new();
    assert_eq!(reader.feed("BOARD"), None);
    let limit = duel_protocol::gomocup::MAX_BLOCK_LINES;
    for i in 0..limit as u32 + 10 {
        assert_eq!(reader.feed(&format!("{},{},1", i % 256, i / 256)), None);
    }
    match reader.feed("DONE") {
        Some(Err(ParseError::BadArgument { command, reason })) => {
            assert_eq!(command, "BOARD");
            assert!(reason.contains(&format!("line {}", limit + 1)), "{reason}");
            assert!(reason.contains("more than 65536 lines"), "{reason}");
            assert!(reason.contains("9 more bad lines"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    // A full 256x256 board is fine.
    let mut reader = Reader::new();
    reader.feed("BOARD");
    for i in 0..limit as u32 {
        reader.feed(&format!("{},{},2", i % 256, i / 256));
    }
    match reader.feed("DONE") {
        Some(Ok(Command::Board(stones))) => assert_eq!(stones.len(), limit),
        other => panic!("{other:?}"),
    }
}

#[test]
fn replies_print_exact_lines() {
    let about = Reply::About(vec![
        ("name".into(), "duel".into()),
        ("version".into(), "0.1".into()),
        ("author".into(), "The duel authors".into()),
        ("country".into(), "CZ".into()),
    ]);
    for (reply, line) in [
        (Reply::Ok, "OK"),
        (
            Reply::Error("size 7 is not supported".into()),
            "ERROR size 7 is not supported",
        ),
        (Reply::Error(String::new()), "ERROR"),
        (
            Reply::Unknown("unknown command 'FOO'".into()),
            "UNKNOWN unknown command 'FOO'",
        ),
        (Reply::Message("two\r\nlines".into()), "MESSAGE two  lines"),
        (Reply::Debug("depth 7".into()), "DEBUG depth 7"),
        (Reply::Suggest(p(10, 10)), "SUGGEST 10,10"),
        (Reply::Move(p(11, 10)), "11,10"),
        (Reply::Swap, "SWAP"),
        (Reply::Moves(vec![p(7, 7), p(8, 7), p(9, 9)]), "7,7 8,7 9,9"),
        (
            about,
            r#"name="duel", version="0.1", author="The duel authors", country="CZ""#,
        ),
        (
            Reply::About(vec![("name".into(), "say \"hi\"".into())]),
            r#"name="say 'hi'""#,
        ),
    ] {
        assert_eq!(reply.to_string(), line);
    }
}

#[test]
fn replies_parse_robustly() {
    for (line, reply) in [
        ("  OK  ", Reply::Ok),
        ("OK - everything is good", Reply::Ok),
        ("Ok", Reply::Ok),
        ("SWAP - if the AI decides to swap", Reply::Swap),
        ("ERROR   bad   size ", Reply::Error("bad   size".into())),
        ("10, 11", Reply::Move(p(10, 11))),
        (" 10 ,11 \r", Reply::Move(p(10, 11))),
        ("8,8   8,6", Reply::Moves(vec![p(8, 8), p(8, 6)])),
        (
            "7 , 7  8 ,7 9, 9",
            Reply::Moves(vec![p(7, 7), p(8, 7), p(9, 9)]),
        ),
        ("SUGGEST   3 , 4", Reply::Suggest(p(3, 4))),
        (
            r#"name = "Some Brain" ,version="1.0, beta",author=Ann"#,
            Reply::About(vec![
                ("name".into(), "Some Brain".into()),
                ("version".into(), "1.0, beta".into()),
                ("author".into(), "Ann".into()),
            ]),
        ),
        (
            r#"Name="x", WWW="https://example.org/?a=b""#,
            Reply::About(vec![
                ("Name".into(), "x".into()),
                ("WWW".into(), "https://example.org/?a=b".into()),
            ]),
        ),
    ] {
        assert_eq!(Reply::parse(line), Ok(reply), "{line:?}");
    }

    assert_eq!(Reply::parse(""), Err(ParseError::Empty));
    assert_eq!(Reply::parse(" \r\n"), Err(ParseError::Empty));
    // An old brain's free-text ABOUT answer, or anything else.
    assert_eq!(
        Reply::parse("Swine by Ann, 2004"),
        Err(ParseError::Unknown("Swine".into()))
    );
    for (line, command, words) in [
        ("SUGGEST", "SUGGEST", "SUGGEST needs a point x,y"),
        ("SUGGEST 1", "SUGGEST", "'1' is not a point x,y"),
        ("10", "move", "'10' is not a point x,y"),
        ("10,x", "move", "'x' is not a number"),
        ("-1,5", "move", "'-1' is negative"),
        ("1,2 3", "move", "'3' is not a point"),
        ("1,2,3", "move", "found 3"),
        ("1,2 pass", "move", "'pass' is not a point"),
        (r#"name="duel"#, "ABOUT", "no closing quote"),
        (
            r#"name="duel" version="1""#,
            "ABOUT",
            "',' expected after the value of 'name'",
        ),
        (r#"="duel""#, "ABOUT", "'' is not a key"),
        (r#"my name="duel""#, "ABOUT", "'my name' is not a key"),
        (r#"name="duel", ,"#, "ABOUT", "is not key=\"value\""),
        (
            r#"name=du"el"#,
            "ABOUT",
            "the value of 'name' has a stray quote",
        ),
    ] {
        match Reply::parse(line) {
            Err(ParseError::BadArgument { command: c, reason }) => {
                assert_eq!(c, command, "{line}");
                assert!(reason.contains(words), "{line}: {reason}");
            }
            other => panic!("{line}: {other:?}"),
        }
    }
}

#[test]
fn errors_are_answered_as_the_protocol_asks() {
    assert_eq!(Reply::for_error(&ParseError::Empty), None);
    assert_eq!(
        Reply::for_error(&parse("FOO").unwrap_err()),
        Some(Reply::Unknown("unknown command 'FOO'".into()))
    );
    assert_eq!(
        Reply::for_error(&parse("START 0").unwrap_err()),
        Some(Reply::Error(
            "bad argument for 'START': size 0 is too small".into()
        ))
    );
    assert_eq!(
        Reply::for_error(&error("BOARD\n1,1,9\nDONE")).map(|r| r.to_string()),
        Some(
            "ERROR bad argument for 'BOARD': line 1 after BOARD, '1,1,9': \
             field 9 is not 1 (own), 2 (opponent) or 3 (marked)"
                .into()
        )
    );
    // No ERROR after INFO: the manager would read it as the answer to its next command.
    assert_eq!(
        Reply::for_error(&parse("INFO timeout_turn x").unwrap_err()),
        Some(Reply::Message(
            "bad argument for 'INFO': timeout_turn: 'x' is not a number".into()
        ))
    );
}

/// Found by fuzz/fuzz_targets/protocol_lines.rs: a lone `\r` inside a free-text reply was
/// kept, printed as a space, and so did not read back to itself.
#[test]
fn a_carriage_return_inside_free_text_reads_as_a_space() {
    let reply = Reply::parse("MESSAGE h\x1d\ri").unwrap();
    assert_eq!(reply, Reply::Message("h\x1d i".into()));
    assert_eq!(Reply::parse(&reply.to_string()), Ok(reply));
    let about = Reply::parse("name=a\rb").unwrap();
    assert_eq!(about, Reply::About(vec![("name".into(), "a b".into())]));
    assert_eq!(Reply::parse(&about.to_string()), Ok(about));
}

mod properties {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;

    fn point() -> impl Strategy<Value = Point> {
        (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Point::new(x, y))
    }

    fn field() -> impl Strategy<Value = Field> {
        prop_oneof![Just(Field::Own), Just(Field::Opponent), Just(Field::Marked)]
    }

    /// Text without surrounding white space, line breaks or double quotes.
    fn text() -> impl Strategy<Value = String> {
        "([!#-~é]([ !#-~é]{0,20}[!#-~é])?)?"
    }

    fn info() -> impl Strategy<Value = Info> {
        const KNOWN: [&str; 8] = [
            "timeout_turn",
            "timeout_match",
            "time_left",
            "max_memory",
            "game_type",
            "rule",
            "evaluate",
            "folder",
        ];
        prop_oneof![
            any::<u64>().prop_map(Info::TimeoutTurn),
            any::<u64>().prop_map(Info::TimeoutMatch),
            any::<i64>().prop_map(Info::TimeLeft),
            any::<u64>().prop_map(Info::MaxMemory),
            any::<u32>().prop_map(Info::GameType),
            any::<u32>().prop_map(Info::Rule),
            point().prop_map(Info::Evaluate),
            text()
                .prop_filter("a folder", |t| !t.is_empty())
                .prop_map(Info::Folder),
            ("[a-z_][a-z0-9_]{0,12}", text())
                .prop_filter("an unknown key", |(k, _)| !KNOWN.contains(&k.as_str()))
                .prop_map(|(key, value)| Info::Other { key, value }),
        ]
    }

    fn command() -> impl Strategy<Value = Command> {
        prop_oneof![
            (1..=u32::MAX).prop_map(Command::Start),
            (1..=u32::MAX, 1..=u32::MAX)
                .prop_map(|(width, height)| Command::RectStart { width, height }),
            Just(Command::Restart),
            Just(Command::Begin),
            point().prop_map(Command::Turn),
            vec((point(), field()), 0..40).prop_map(Command::Board),
            info().prop_map(Command::Info),
            Just(Command::End),
            Just(Command::About),
            point().prop_map(Command::Takeback),
            point().prop_map(Command::Play),
            prop_oneof![Just(0usize), Just(3), Just(5)]
                .prop_flat_map(|n| vec(point(), n))
                .prop_map(Command::Swap2Board),
        ]
    }

    fn reply() -> impl Strategy<Value = Reply> {
        prop_oneof![
            Just(Reply::Ok),
            text().prop_map(Reply::Error),
            text().prop_map(Reply::Unknown),
            text().prop_map(Reply::Message),
            text().prop_map(Reply::Debug),
            point().prop_map(Reply::Suggest),
            point().prop_map(Reply::Move),
            Just(Reply::Swap),
            vec(point(), 2..6).prop_map(Reply::Moves),
            vec(("[a-zA-Z][a-zA-Z0-9_]{0,10}", "[ !#-~é]{0,20}"), 1..6).prop_map(Reply::About),
        ]
    }

    /// A line made of the protocol's words, numbers and punctuation, or of anything but a line
    /// break (the caller splits lines).
    fn noise() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            Just("BOARD".to_string()),
            Just("SWAP2BOARD".to_string()),
            Just("DONE".to_string()),
            Just("END".to_string()),
            Just("TURN".to_string()),
            Just("START".to_string()),
            Just("RECTSTART".to_string()),
            Just("INFO".to_string()),
            Just("time_left".to_string()),
            Just("folder".to_string()),
            Just("evaluate".to_string()),
            Just(",".to_string()),
            Just("-".to_string()),
            Just("=".to_string()),
            Just("\"".to_string()),
            Just("é".to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            (0u32..30, 0u32..30, 0u32..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
            (0u32..30, 0u32..30).prop_map(|(x, y)| format!("{x},{y}")),
        ];
        prop_oneof![
            vec(token, 0..6).prop_map(|t| t.join(" ")),
            "[^\r\n]{0,30}",
            "[0-9, ]{0,12}",
        ]
    }

    proptest! {
        #[test]
        fn commands_read_back_as_printed(command in command()) {
            let mut reader = Reader::new();
            let mut results = Vec::new();
            for line in command.to_string().split('\n') {
                results.extend(reader.feed(&format!("{line}\r\n")));
            }
            prop_assert_eq!(results, vec![Ok(command)]);
            prop_assert!(!reader.in_block());
        }

        #[test]
        fn one_line_commands_read_back_in_any_case(command in command(), upper in any::<bool>()) {
            prop_assume!(!matches!(
                command,
                Command::Board(_) | Command::Swap2Board(_) | Command::Info(Info::Folder(_))
                    | Command::Info(Info::Other { .. })
            ));
            let line = command.to_string();
            let line = if upper { line.to_ascii_uppercase() } else { line.to_ascii_lowercase() };
            prop_assert_eq!(parse(&line), Ok(command));
        }

        #[test]
        fn replies_read_back_as_printed(reply in reply()) {
            prop_assert_eq!(Reply::parse(&reply.to_string()), Ok(reply));
        }

        #[test]
        fn any_lines_give_commands_or_errors(lines in vec(noise(), 0..12)) {
            let mut reader = Reader::new();
            for line in &lines {
                // Never a panic; whatever parses prints back to itself.
                if let Some(Ok(command)) = reader.feed(line) {
                    let mut again = Reader::new();
                    let back: Vec<_> =
                        command.to_string().split('\n').filter_map(|l| again.feed(l)).collect();
                    prop_assert_eq!(back, vec![Ok(command)]);
                }
                let _ = parse(line);
                if let Ok(reply) = Reply::parse(line) {
                    prop_assert_eq!(Reply::parse(&reply.to_string()), Ok(reply));
                }
            }
        }
    }
}

/// Yixin Board's extensions, with what Rapfi answers them: Kai Sun's Yixin protocol and the
/// commands Rapfi reads.
#[test]
fn yixin_extensions() {
    assert_eq!(parse("STOP"), Ok(Command::Stop));
    assert_eq!(parse("yxstop"), Ok(Command::Stop));
    assert_eq!(parse("YXNBEST 5"), Ok(Command::YxNBest(5)));
    assert_eq!(parse("yxnbest 1"), Ok(Command::YxNBest(1)));
    assert_eq!(parse("YXSHOWFORBID"), Ok(Command::YxShowForbid));
    assert_eq!(parse("YXHASHCLEAR"), Ok(Command::YxHashClear));
    assert_eq!(parse("YXSHOWHASHUSAGE"), Ok(Command::YxShowHashUsage));
    assert_eq!(parse("YXSHOWINFO"), Ok(Command::YxShowInfo));
    assert_eq!(parse("YXBLOCKRESET"), Ok(Command::YxBlockReset));
    // The protocol's own example: a board sent in the order played, answered by nothing.
    assert_eq!(
        command("yxboard\n10,10,1\n10,11,2\n11,11,1\n9,10,2\nDONE"),
        Command::YxBoard(vec![
            (p(10, 10), Field::Own),
            (p(10, 11), Field::Opponent),
            (p(11, 11), Field::Own),
            (p(9, 10), Field::Opponent),
        ])
    );
    assert_eq!(command("YXBOARD\nDONE"), Command::YxBoard(Vec::new()));
    assert_eq!(
        command("YXBLOCK\n7,7\n8,8\nDONE"),
        Command::YxBlock(vec![p(7, 7), p(8, 8)])
    );
    assert_eq!(
        command("yxblockundo\r\n7,7\r\ndone"),
        Command::YxBlockUndo(vec![p(7, 7)])
    );
    // Each prints as the manager writes it, and reads back.
    for cmd in [
        Command::Stop,
        Command::YxNBest(3),
        Command::YxShowForbid,
        Command::YxHashClear,
        Command::YxShowHashUsage,
        Command::YxShowInfo,
        Command::YxBlockReset,
        Command::YxBoard(vec![(p(1, 2), Field::Own)]),
        Command::YxBlock(vec![p(3, 4)]),
        Command::YxBlockUndo(Vec::new()),
        Command::Info(Info::ThreadNum(4)),
        Command::Info(Info::MaxDepth(0)),
        Command::Info(Info::MaxNode(20000)),
    ] {
        assert_eq!(command(&cmd.to_string()), cmd, "{cmd}");
    }
    assert_eq!(Command::YxNBest(3).to_string(), "YXNBEST 3");
    assert_eq!(
        Command::YxBlock(vec![p(3, 4)]).to_string(),
        "YXBLOCK\n3,4\nDONE"
    );
    // Bad arguments are the brain's ERROR; blocks need their reader.
    assert!(reason("YXNBEST", "YXNBEST").contains("needs the number"));
    assert!(reason("YXNBEST 0", "YXNBEST").contains("at least 1"));
    assert!(reason("YXNBEST x", "YXNBEST").contains("'x' is not a number"));
    assert!(reason("YXNBEST -2", "YXNBEST").contains("negative"));
    assert!(reason("YXNBEST 2 3", "YXNBEST").contains("not a number"));
    assert!(reason("YXBOARD\n1,1,4\nDONE", "YXBOARD").contains("field 4"));
    assert!(reason("YXBLOCK\n1,1,1\nDONE", "YXBLOCK").contains("2 numbers expected"));
    assert!(reason("YXBLOCKUNDO\nx\nDONE", "YXBLOCKUNDO").contains("'x' is not a point"));
    assert!(reason("INFO thread_num x", "INFO").contains("thread_num"));
    assert!(reason("INFO max_node", "INFO").contains("missing"));
    assert!(matches!(
        parse("YXBOARD"),
        Err(ParseError::BadArgument { .. })
    ));
    assert!(matches!(
        parse("YXBLOCK"),
        Err(ParseError::BadArgument { .. })
    ));
    // Yixin commands duel does not answer stay unknown, named.
    assert_eq!(
        error("YXBALANCEONE 0"),
        ParseError::Unknown("YXBALANCEONE".into())
    );
}

#[test]
fn forbidden_points_read_and_print_in_two_digits() {
    // The protocol's own example, and Rapfi's answer when there is none.
    assert_eq!(
        Reply::parse("FORBID 09121011."),
        Ok(Reply::Forbid(vec![p(9, 12), p(10, 11)]))
    );
    assert_eq!(Reply::parse("FORBID ."), Ok(Reply::Forbid(Vec::new())));
    assert_eq!(Reply::Forbid(Vec::new()).to_string(), "FORBID .");
    assert_eq!(
        Reply::Forbid(vec![p(7, 7), p(12, 3)]).to_string(),
        "FORBID 07071203."
    );
    for bad in [
        "FORBID",
        "FORBID 0707",
        "FORBID 070.",
        "FORBID 07x7.",
        "FORBID 07 07.",
    ] {
        assert!(
            matches!(Reply::parse(bad), Err(ParseError::BadArgument { .. })),
            "{bad}"
        );
    }
}
