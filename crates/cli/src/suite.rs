//! `duel suite`: a test suite in the game's format (chess: EPD, as Win At Chess and
//! Bratko-Kopec are written; `GameInfo::read_suite_line`), each position searched under the
//! same limit; a position is solved when the move chosen is one of its best moves (EPD's `bm`)
//! and none of its moves to avoid (`am`).

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;
use duel_arena::{Analyst, ProgramSpec, Protocol};
use duel_core::{GameInfo, SuitePosition};
use duel_engine::{GameVisitor, Limits, Session};

use crate::args::{command_line, parse_option, EngineArgs, LimitArgs};

/// Flags of `duel suite`.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// The EPD file: FEN's first four fields, then operations such as `bm Qg6; id "WAC.001";`.
    pub file: std::path::PathBuf,
    /// The game of the suite: one with a test-suite format (chess's EPD).
    #[arg(long, default_value = "chess")]
    pub game: String,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Print only the unsolved positions and the total.
    #[arg(long)]
    pub quiet: bool,
    /// Run the suite with another engine instead of duel, for a figure side by side: its
    /// command line (e.g. `/usr/games/stockfish`). duel's own --eval and --eval-file do not
    /// apply; give the engine's options with --engine-option.
    #[arg(long = "engine", value_name = "CMD", conflicts_with_all = ["eval", "eval_file"])]
    pub program: Option<String>,
    /// The other engine's protocol: uci or xboard (an xboard engine needs `setboard`, and
    /// takes a time or a depth, not nodes).
    #[arg(long, value_name = "PROTOCOL", default_value = "uci", value_parser = Protocol::parse, requires = "program")]
    pub engine_protocol: Protocol,
    /// An option for the other engine, NAME=VALUE (repeatable), e.g. Hash=16.
    #[arg(long = "engine-option", value_name = "NAME=VALUE", value_parser = parse_option, requires = "program")]
    pub engine_options: Vec<(String, String)>,
}

/// One position of a suite, as the game reads it, named.
#[derive(Debug)]
struct Problem {
    /// Its `id`, or its line.
    id: String,
    suite: SuitePosition,
}

/// The positions of suite `text`, a line each (blank lines and lines starting with `#`
/// skipped).
fn read_problems<G: GameInfo>(text: &str) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let Some(read) = G::read_suite_line(line) else {
            anyhow::bail!("{} has no test-suite format", G::TITLE);
        };
        let suite = read.with_context(|| format!("line {}", i + 1))?;
        let id = suite
            .id
            .clone()
            .unwrap_or_else(|| format!("line {}", i + 1));
        problems.push(Problem { id, suite });
    }
    Ok(problems)
}

/// Runs `duel suite` for the game named by `--game`.
pub fn suite(a: &SuiteArgs, out: &mut dyn Write) -> Result<()> {
    struct Visit<'a>(&'a SuiteArgs, &'a mut dyn Write);
    impl GameVisitor for Visit<'_> {
        type Output = Result<()>;
        fn visit<G: GameInfo>(self) -> Result<()> {
            run::<G>(self.0, self.1)
        }
    }
    duel_engine::with_game(&a.game, Visit(a, out))?
}

/// Runs the suite and prints a line per position, then the count solved.
fn run<G: GameInfo>(a: &SuiteArgs, out: &mut dyn Write) -> Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("cannot read {}", a.file.display()))?;
    let problems = read_problems::<G>(&text)?;
    let mut tested = Tested::open(a)?;
    let mut solved = 0;
    let mut nodes = 0;
    let mut time = std::time::Duration::ZERO;
    for p in &problems {
        let r = tested.choose::<G>(p)?;
        let mv = r.best.unwrap_or_else(|| "-".into());
        let (best, avoid) = (&p.suite.best, &p.suite.avoid);
        let ok = (best.is_empty() || best.contains(&mv)) && !avoid.contains(&mv);
        solved += usize::from(ok);
        nodes += r.nodes.unwrap_or(0);
        time += r.time;
        if !ok || !a.quiet {
            let want = if best.is_empty() {
                format!("not {}", avoid.join(" "))
            } else {
                best.join(" ")
            };
            let depth = r.depth.map_or("-".into(), |d| d.to_string());
            let effort = match r.nodes {
                Some(n) => format!("nodes {n}"),
                None => format!("time {:.3} s", r.time.as_secs_f64()),
            };
            writeln!(
                out,
                "{:<10} {} {mv:<6} (want {want}) depth {depth} {effort}",
                p.id,
                if ok { "ok  " } else { "FAIL" },
            )?;
        }
    }
    if let Tested::Other(analyst, _) = &tested {
        writeln!(
            out,
            "solved {solved}/{} by {} ({:.1} s)",
            problems.len(),
            analyst.name::<G>(),
            time.as_secs_f64()
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "solved {solved}/{} ({} nodes in {:.1} s)",
        problems.len(),
        nodes,
        time.as_secs_f64()
    )?;
    Ok(())
}

/// The engine a suite runs with: duel's own search, or another engine over its protocol.
enum Tested {
    Duel(Box<dyn Session>, Limits),
    Other(Analyst, Limits),
}

/// What the tested engine chose in one position.
struct Answer {
    best: Option<String>,
    depth: Option<u32>,
    /// duel's count; another engine's is not read.
    nodes: Option<u64>,
    time: std::time::Duration,
}

impl Tested {
    fn open(a: &SuiteArgs) -> Result<Tested> {
        // duel's session also gives the default limit, so that a bare run of either compares.
        let session = a.engine.open(&a.game)?;
        let limits = a.limits.limits(session.as_ref());
        let Some(cmd) = &a.program else {
            return Ok(Tested::Duel(session, limits));
        };
        let spec = ProgramSpec {
            command: command_line(cmd, "tested")?,
            options: a.engine_options.clone(),
            protocol: a.engine_protocol,
        };
        let analyst = Analyst::start(&spec)?;
        Ok(Tested::Other(analyst, limits))
    }

    fn choose<G: GameInfo>(&mut self, p: &Problem) -> Result<Answer> {
        match self {
            Tested::Duel(session, limits) => {
                session.set_position(&p.suite.position, &[])?;
                // Each position on its own, as if it were the first: no table from the last one.
                session.new_game();
                let r = session.search(limits, &mut |_| {})?;
                Ok(Answer {
                    best: r.best.clone(),
                    depth: Some(r.depth),
                    nodes: Some(r.stats.nodes),
                    time: r.time,
                })
            }
            Tested::Other(analyst, limits) => {
                let pos = G::from_text(&p.suite.position)?;
                let c = analyst.choose(&pos, limits).with_context(|| p.id.clone())?;
                Ok(Answer {
                    best: c.best,
                    depth: c.depth,
                    nodes: None,
                    time: c.time,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_named_by_id_or_line_and_refused_by_line() {
        let text = "# a suite\n\n\
            2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
            4k3/8/8/8/8/8/8/R3K3 w Q - am O-O-O Ra8+;\n";
        let problems = read_problems::<duel_chess::Chess>(text).unwrap();
        let ids: Vec<&str> = problems.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["WAC.001", "line 4"]);
        assert_eq!(problems[1].suite.avoid, ["e1c1", "a1a8"]);
        for (bad, says) in [
            (
                "\n4k3/8/8/8/8/8/8/R3K3 w Q - bm Nf3;",
                "line 2: move 'Nf3': ",
            ),
            (
                "4k3/8/8/9/8/8/8/R3K3 w Q - bm Ra8+;",
                "line 1: invalid chess position",
            ),
            ("4k3/8/8/8/8/8/8/R3K3 w Q -", "line 1: an EPD line needs"),
        ] {
            let e = format!("{:#}", read_problems::<duel_chess::Chess>(bad).unwrap_err());
            assert!(e.contains(says), "{bad}: {e}");
        }
        let e = read_problems::<duel_othello::Othello>("f5\n").unwrap_err();
        assert_eq!(e.to_string(), "Othello has no test-suite format");
    }
}
