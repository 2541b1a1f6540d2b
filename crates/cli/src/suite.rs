//! `duel suite`: a chess test suite in EPD (Win At Chess, Bratko-Kopec, ...), each position
//! searched under the same limit; a position is solved when the move chosen is one of its `bm`
//! moves and none of its `am` moves.

use std::io::Write;

use anyhow::{bail, Context, Result};
use clap::Args;
use duel_arena::{Analyst, EngineSpec, Protocol};
use duel_chess::Chess;
use duel_core::Game;
use duel_engine::{Limits, Session};

use crate::args::{command_line, parse_option, EngineArgs, LimitArgs};

/// Flags of `duel suite`.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// The EPD file: FEN's first four fields, then operations such as `bm Qg6; id "WAC.001";`.
    pub file: std::path::PathBuf,
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

/// One position of a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Problem {
    id: String,
    fen: String,
    /// Best moves and moves to avoid, in UCI notation.
    best: Vec<String>,
    avoid: Vec<String>,
}

/// Reads one EPD line (`line_no` for messages).
fn parse_epd(line: &str, line_no: usize) -> Result<Problem> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        bail!("line {line_no}: an EPD line needs four FEN fields and at least one operation");
    }
    let fen = format!("{} 0 1", fields[..4].join(" "));
    let pos = Chess::from_text(&fen).with_context(|| format!("line {line_no}"))?;
    let ops = fields[4..].join(" ");
    let mut problem = Problem {
        id: format!("line {line_no}"),
        fen,
        best: Vec::new(),
        avoid: Vec::new(),
    };
    for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (code, operand) = op.split_once(' ').unwrap_or((op, ""));
        let moves = |list: &str| -> Result<Vec<String>> {
            list.split_whitespace()
                .map(|san| {
                    pos.parse_san(san)
                        .map(|m| pos.format_move(m))
                        .with_context(|| format!("line {line_no}: move '{san}'"))
                })
                .collect()
        };
        match code {
            "bm" => problem.best = moves(operand)?,
            "am" => problem.avoid = moves(operand)?,
            "id" => problem.id = operand.trim().trim_matches('"').to_string(),
            _ => {}
        }
    }
    if problem.best.is_empty() && problem.avoid.is_empty() {
        bail!("line {line_no}: no bm or am operation");
    }
    Ok(problem)
}

/// Runs the suite and prints a line per position, then the count solved.
pub fn suite(a: &SuiteArgs, out: &mut dyn Write) -> Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("cannot read {}", a.file.display()))?;
    let problems = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| parse_epd(l, i + 1))
        .collect::<Result<Vec<_>>>()?;
    let mut tested = Tested::open(a)?;
    let mut solved = 0;
    let mut nodes = 0;
    let mut time = std::time::Duration::ZERO;
    for p in &problems {
        let r = tested.choose(p)?;
        let mv = r.best.unwrap_or_else(|| "-".into());
        let ok = (p.best.is_empty() || p.best.contains(&mv)) && !p.avoid.contains(&mv);
        solved += usize::from(ok);
        nodes += r.nodes.unwrap_or(0);
        time += r.time;
        if !ok || !a.quiet {
            let want = if p.best.is_empty() {
                format!("not {}", p.avoid.join(" "))
            } else {
                p.best.join(" ")
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
            analyst.name::<Chess>(),
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
        let session = a.engine.open("chess")?;
        let limits = a.limits.limits(session.as_ref());
        let Some(cmd) = &a.program else {
            return Ok(Tested::Duel(session, limits));
        };
        let spec = EngineSpec {
            command: command_line(cmd, "tested")?,
            options: a.engine_options.clone(),
            protocol: a.engine_protocol,
        };
        let analyst = Analyst::start(&spec)?;
        Ok(Tested::Other(analyst, limits))
    }

    fn choose(&mut self, p: &Problem) -> Result<Answer> {
        match self {
            Tested::Duel(session, limits) => {
                session.set_position(&p.fen, &[])?;
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
                let pos = Chess::from_text(&p.fen)?;
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
    fn epd_lines() {
        let p = parse_epd(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
            1,
        )
        .unwrap();
        assert_eq!(p.id, "WAC.001");
        assert_eq!(p.best, ["g3g6"]);
        let p = parse_epd("4k3/8/8/8/8/8/8/R3K3 w Q - am O-O-O Ra8+;", 7).unwrap();
        assert_eq!(p.avoid, ["e1c1", "a1a8"]);
        assert_eq!(p.id, "line 7");
        for (bad, says) in [
            ("4k3/8/8/8/8/8/8/R3K3 w Q -", "operation"),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - bm Nf3;", "Nf3"),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - id \"x\";", "no bm"),
            ("4k3/8/8/9/8/8/8/R3K3 w Q - bm Ra8+;", "line 3"),
        ] {
            let e = format!("{:#}", parse_epd(bad, 3).unwrap_err());
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
