//! `duel match`: a chess match between two engines (duel itself by default as the first), from
//! balanced random openings with colours alternated, every game saved as PGN, and the score as
//! an Elo difference with its 95% interval.

use std::io::Write;

use anyhow::{bail, Context, Result};
use clap::Args;
use duel_core::Game;
use duel_engine::arena::{
    random_openings, read_openings, run_match, EngineSpec, Protocol, Sprt, TimeControl, Verdict,
};
use duel_engine::{Limits, Session};

use crate::args::{command_line, parse_option};

/// Flags of `duel match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The opponent: its command line (e.g. `stockfish`, or `/usr/games/phalanx -r 0`).
    #[arg(long, value_name = "CMD")]
    pub second: String,
    /// The opponent's protocol: uci or xboard.
    #[arg(long, value_name = "PROTOCOL", default_value = "uci", value_parser = Protocol::parse)]
    pub second_protocol: Protocol,
    /// An option for the opponent, NAME=VALUE (repeatable), e.g. UCI_Elo=2400.
    #[arg(long = "second-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub second_options: Vec<(String, String)>,
    /// The first engine's command line (default: this duel, `duel uci`).
    #[arg(long, value_name = "CMD")]
    pub first: Option<String>,
    /// The first engine's protocol: uci or xboard.
    #[arg(long, value_name = "PROTOCOL", default_value = "uci", value_parser = Protocol::parse)]
    pub first_protocol: Protocol,
    /// An option for the first engine, NAME=VALUE (repeatable), e.g. Hash=64.
    #[arg(long = "first-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub first_options: Vec<(String, String)>,
    /// Games to play (each opening twice, colours swapped); with --sprt, at most this many.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Games played at once, each pair of engines in its own processes (cutechess-cli's
    /// -concurrency). Give each game a core: two engines that think on each other's core
    /// lose time the clock still counts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// Stop when a sequential probability ratio test decides between "ELO0 stronger" (H0)
    /// and "ELO1 stronger" (H1): `ELO0,ELO1[,ALPHA,BETA]`, e.g. `0,5` (α = β = 0.05).
    /// cutechess-cli's model: BayesElo, the draw margin estimated from the games.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// Openings from a file instead of random ones: EPD or FEN lines, or PGN games (from
    /// the standard start or their FEN tag), taken in an order drawn by --seed, each played
    /// twice with colours swapped. Used as they are: no balance check.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<std::path::PathBuf>,
    /// Time control: base seconds, plus increment seconds per move (`10+0.1`).
    #[arg(long, default_value = "10+0.1", value_parser = TimeControl::parse)]
    pub tc: TimeControl,
    /// Time odds: the first engine's own control (`20+0.2`), the opponent keeping --tc. How
    /// much is twice the time worth against a given opponent?
    #[arg(long, value_name = "TC", value_parser = TimeControl::parse, conflicts_with = "nodes")]
    pub first_tc: Option<TimeControl>,
    /// Limit every move by this many nodes instead of the clock (UCI engines only): for
    /// measuring search changes without the clock's noise.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Save the games here as PGN (appended to as they finish).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<std::path::PathBuf>,
    /// Seed of the random openings, or of the order of a book's (--openings).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies in each opening (then kept only if duel's depth-6 search finds it within
    /// 50 centipawns of level) [default: 8]; with --openings, the most moves taken from each
    /// game of a PGN book.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub opening_plies: Option<u32>,
    /// Chess960 (Fischer Random): each opening starts from one of the 960 starts, drawn by the
    /// seed, and both engines get `UCI_Chess960` (UCI engines only).
    #[arg(long)]
    pub chess960: bool,
}

/// Random plies in an opening unless --opening-plies says otherwise.
const RANDOM_PLIES: u32 = 8;

/// How far below the best move an opening move may be.
const PLAUSIBLE_CP: i32 = 25;

/// Keeps the moves a player might choose: within PLAUSIBLE_CP of the best by a depth-4 search of every
/// root move, so that openings look like openings rather than random walks.
fn plausible(session: &mut dyn Session, fen: &str, moves: &mut Vec<duel_chess::Move>) {
    let Ok(pos) = duel_chess::Chess::from_text(fen) else {
        return;
    };
    let mut config = session.config().clone();
    let single = config.multipv;
    config.multipv = moves.len();
    // The table keeps its size, so these cannot fail; if they did, the moves stay unfiltered.
    if session.set_config(config.clone()).is_err() {
        return;
    }
    let lines = session
        .set_position(fen, &[])
        .ok()
        .and_then(|()| session.search(&Limits::depth(4), &mut |_| {}).ok())
        .map(|r| r.lines)
        .unwrap_or_default();
    config.multipv = single;
    if session.set_config(config).is_err() {
        return;
    }
    let Some(best) = lines.first().map(|l| l.0) else {
        return;
    };
    moves.retain(|&m| {
        let text = pos.format_move(m);
        lines
            .iter()
            .any(|(v, line)| line.first() == Some(&text) && best.0 - v.0 <= PLAUSIBLE_CP)
    });
}

/// Whether `pos` is level enough to start a game from: duel's depth-6 search within 50 cp.
fn balanced(session: &mut dyn Session, fen: &str) -> bool {
    if session.set_position(fen, &[]).is_err() {
        return false;
    }
    match session.search(&Limits::depth(6), &mut |_| {}) {
        Ok(r) => !r.value.is_decisive() && r.value.0.abs() <= 50,
        Err(_) => false,
    }
}

/// Runs the match and prints a line per game, then the result.
pub fn play_match(a: &MatchArgs, out: &mut dyn Write) -> Result<()> {
    let first = match &a.first {
        Some(cmd) => command_line(cmd, "first")?,
        None => {
            let exe = std::env::current_exe().context("cannot find the duel executable")?;
            vec![exe.to_string_lossy().into_owned(), "uci".into()]
        }
    };
    let mut first = EngineSpec {
        command: first,
        options: a.first_options.clone(),
        protocol: a.first_protocol,
    };
    let mut second = EngineSpec {
        command: command_line(&a.second, "second")?,
        options: a.second_options.clone(),
        protocol: a.second_protocol,
    };
    let tc = match a.nodes {
        Some(n) => TimeControl::per_move_nodes(n),
        None => a.tc,
    };
    let tcs = [a.first_tc.unwrap_or(tc), tc];
    if a.chess960 {
        for (spec, which) in [(&mut first, "first"), (&mut second, "second")] {
            if spec.protocol != Protocol::Uci {
                bail!("--chess960 needs UCI engines: the {which} engine speaks xboard");
            }
            if !spec
                .options
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("UCI_Chess960"))
            {
                spec.options.push(("UCI_Chess960".into(), "true".into()));
            }
        }
    }
    let count = (a.games as usize).div_ceil(2);
    let openings = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let mut all = read_openings(&text, a.chess960)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            shuffle(&mut all, a.seed);
            all.truncate(count);
            if let Some(plies) = a.opening_plies {
                for o in &mut all {
                    o.moves.truncate(plies as usize);
                }
            }
            all
        }
        None => {
            let judge = std::cell::RefCell::new(duel_engine::open("chess", None)?);
            random_openings(
                count,
                a.opening_plies.unwrap_or(RANDOM_PLIES) as usize,
                a.seed,
                a.chess960,
                |pos, moves| plausible(judge.borrow_mut().as_mut(), &pos.to_text(), moves),
                |pos| balanced(judge.borrow_mut().as_mut(), &pos.to_text()),
            )
        }
    };
    if openings.is_empty() {
        bail!("no balanced opening found with seed {}", a.seed);
    }
    let mut pgn = match &a.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?,
        ),
        None => None,
    };
    let source = match &a.openings {
        Some(path) => format!("from {}", path.display()),
        None => format!("of {} plies", a.opening_plies.unwrap_or(RANDOM_PLIES)),
    };
    writeln!(
        out,
        "{} vs {}: {}{} games at {}{}, {} {}openings {source} (seed {})",
        first.command.join(" "),
        second.command.join(" "),
        if a.sprt.is_some() { "at most " } else { "" },
        a.games,
        if tcs[0] == tcs[1] {
            tc.describe()
        } else {
            format!("{} against {}", tcs[0].describe(), tcs[1].describe())
        },
        if a.concurrency > 1 {
            format!(", {} at a time", a.concurrency)
        } else {
            String::new()
        },
        openings.len(),
        if a.chess960 { "Chess960 " } else { "" },
        a.seed
    )?;
    if let Some(s) = a.sprt {
        let (low, high) = s.bounds();
        writeln!(
            out,
            "SPRT: H0 Elo {} against H1 Elo {}, alpha {} beta {}: stops when the ratio leaves ({low:.2}, {high:.2})",
            s.elo0, s.elo1, s.alpha, s.beta
        )?;
    }
    let mut write_error = None;
    let mut decided: Option<(Verdict, f64, u32)> = None;
    let (tally, pairs) = run_match(
        &first,
        &second,
        tcs,
        a.games as usize,
        &openings,
        a.concurrency as usize,
        |n, played, t| {
            let line = format!(
                "game {n}: {} ({}); first engine {}-{}-{} (W-D-L), {:.1}%",
                played.result.pgn(),
                played.reason,
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score()
            );
            let written = writeln!(out, "{line}").and_then(|()| out.flush());
            let saved = match pgn.as_mut() {
                Some(f) => writeln!(f, "{}", played.pgn),
                None => Ok(()),
            };
            if let Err(e) = written.and(saved) {
                write_error.get_or_insert(e);
            }
            if let (Some(s), None) = (a.sprt, decided) {
                if let Some(v) = s.verdict(t) {
                    decided = Some((v, s.llr(t), t.games()));
                }
            }
            decided.is_none()
        },
    )
    .map_err(anyhow::Error::msg)?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    write!(
        out,
        "result: {}-{}-{} (W-D-L) for the first engine, score {:.1}%",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score()
    )?;
    match tally.elo() {
        Some((elo, low, high)) => {
            // Rounded to whole Elo, without the "-0" a tiny negative value would print.
            let [elo, low, high] = [elo, low, high].map(|x| x.round() + 0.0);
            writeln!(out, ", Elo {elo:+} (95%: {low:+} to {high:+})")?
        }
        None => writeln!(out)?,
    }
    if let Some((elo, low, high)) = pairs.elo() {
        let [elo, low, high] = [elo, low, high].map(|x| x.round() + 0.0);
        let c = pairs.counts;
        write!(
            out,
            "pairs by the first engine's points (0, 0.5, 1, 1.5, 2): {} {} {} {} {}",
            c[0], c[1], c[2], c[3], c[4]
        )?;
        // Pairs that all scored alike have no spread to give an interval from.
        if low < high {
            writeln!(out, ", Elo {elo:+} (95%: {low:+} to {high:+})")?;
        } else {
            writeln!(out)?;
        }
    }
    if let Some(s) = a.sprt {
        let (low, high) = s.bounds();
        match decided {
            Some((v, llr, games)) => writeln!(
                out,
                "SPRT: {} accepted after {games} games (ratio {llr:.2}, bounds {low:.2}, {high:.2})",
                match v {
                    Verdict::H0 => "H0",
                    Verdict::H1 => "H1",
                }
            )?,
            None => writeln!(
                out,
                "SPRT: no decision in {} games (ratio {:.2}, bounds {low:.2}, {high:.2})",
                tally.games(),
                s.llr(&tally)
            )?,
        }
    }
    Ok(())
}

/// Puts `items` in an order drawn by `seed` (Fisher and Yates).
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = duel_core::SplitMix64::new(seed);
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}
