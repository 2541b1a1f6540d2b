//! `duel match`: a match of any game between two players, duel in process
//! (`duel:eval=pattern,nodes=2000`) or engines over UCI, xboard, UCCI, NBoard or Gomocup, from balanced random
//! openings with colours alternated, every game saved in the game's record format, and the
//! score as an Elo difference with its 95% interval; `duel match-merge`: the report of a match
//! played in shards, from the shards' result files.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use duel_arena::openings::numbered_start;
use duel_arena::player::{start_program, Maker};
use duel_arena::{
    random_openings, read_openings, run_match, Adjudication, DuelSpec, Fault, GameOutcome,
    GameResult, MatchParams, Opening, ProgramSpec, Protocol, RunResults, Schedule, Shard, Sprt,
    Standings, TimeControl, Verdict,
};
use duel_core::GameInfo;
use duel_engine::{GameVisitor, Limits, Session};

use crate::args::{command_line, parse_option};

/// Flags of `duel match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The game (any of `duel games`).
    #[arg(long, default_value = "chess")]
    pub game: String,
    /// The opponent: duel in this process, `duel` or `duel:KEY=VALUE,...` (eval, file, hash,
    /// threads, nodes, depth, and search switches such as lmr=off), or an engine's command
    /// line (`stockfish`, `/usr/games/phalanx -r 0`, `duel nboard`).
    #[arg(long, value_name = "PLAYER")]
    pub second: String,
    /// The opponent's protocol: uci, xboard, ucci, nboard or gomocup [default: the game's, else uci].
    #[arg(long, value_name = "PROTOCOL", value_parser = Protocol::parse)]
    pub second_protocol: Option<Protocol>,
    /// An option for the opponent engine, NAME=VALUE (repeatable), e.g. UCI_Elo=2400.
    #[arg(long = "second-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub second_options: Vec<(String, String)>,
    /// The first player, as --second [default: this duel over the game's protocol, `duel
    /// uci` for chess, `duel nboard` for Othello; in process for games without one].
    #[arg(long, value_name = "PLAYER")]
    pub first: Option<String>,
    /// The first engine's protocol: uci, xboard, ucci, nboard or gomocup [default: the game's, else uci].
    #[arg(long, value_name = "PROTOCOL", value_parser = Protocol::parse)]
    pub first_protocol: Option<Protocol>,
    /// An option for the first engine, NAME=VALUE (repeatable), e.g. Hash=64.
    #[arg(long = "first-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub first_options: Vec<(String, String)>,
    /// Games to play (each opening twice, colours swapped); with --sprt, at most this many.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Games played at once, each pair of players of its own (cutechess-cli's
    /// -concurrency). Give each game a core: two engines that think on each other's core
    /// lose time the clock still counts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// Stop when a sequential probability ratio test decides between "ELO0 stronger" (H0)
    /// and "ELO1 stronger" (H1): `ELO0,ELO1[,ALPHA,BETA]`, e.g. `0,5` (α = β = 0.05).
    /// cutechess-cli's model: BayesElo, the draw margin estimated from the games.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// Openings from a file instead of random ones: for chess EPD or FEN lines, or PGN games
    /// (from the standard start or their FEN tag); for other games a position a line in the
    /// game's notation, or for Gomoku Piskvork's opening list (data/gomoku/
    /// openings-piskvork.txt). Taken in an order drawn by --seed, each played twice with
    /// colours swapped. Used as they are: no balance check.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Time control: base seconds, plus increment seconds per move (`10+0.1`); or a fixed
    /// time per move (`1/move`: UCI `go movetime`, xboard `st`, Gomocup `timeout_turn` with no
    /// game limit), a move's flag falling a tenth and 0.1 s past it.
    #[arg(long, default_value = "10+0.1", value_parser = TimeControl::parse)]
    pub tc: TimeControl,
    /// Time odds: the first player's own control (`20+0.2`, `2/move`), the opponent keeping --tc. How
    /// much is twice the time worth against a given opponent?
    #[arg(long, value_name = "TC", value_parser = TimeControl::parse, conflicts_with_all = ["nodes", "depth"])]
    pub first_tc: Option<TimeControl>,
    /// Limit every move by this many nodes instead of the clock (duel in process and UCI
    /// engines): for measuring search changes without the clock's noise.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Limit every move to this depth instead of the clock (UCI `go depth`, xboard `sd`,
    /// NBoard `set depth`, duel in process).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Save the games here, in the game's record format (PGN for chess, GGF for Othello),
    /// each appended as it finishes; created if missing, and refused before the match when it
    /// cannot be appended to.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Seed of the random openings, or of the order of an openings file's (--openings).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies in each opening (then kept only if duel's search finds it near level:
    /// chess, depth 6 within 50 centipawns) [default: 8]; with --openings, the most moves
    /// taken from each game of a PGN file.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub opening_plies: Option<u32>,
    /// Chess960 (Fischer Random): each opening starts from one of the 960 starts, drawn by the
    /// seed, and both engines get `UCI_Chess960` (UCI engines only).
    #[arg(long)]
    pub chess960: bool,
    /// Play only shard K of N of the match's games (each pair of games, one opening, goes to
    /// one shard); the shards together play the whole match's games. Use with --results.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Write the games' results and the match's parameters here (JSON), for `duel
    /// match-merge`.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
}

/// Random plies in an opening unless --opening-plies says otherwise.
const RANDOM_PLIES: u32 = 8;

/// How far below the best move an opening move may be.
const PLAUSIBLE_CP: i32 = 25;

/// Keeps the moves a player might choose: within PLAUSIBLE_CP of the best by a search of every
/// root move two plies shallower than the balance test (`GameInfo::OPENING_DEPTH`), so that
/// openings look like openings rather than random walks.
fn plausible<G: GameInfo>(session: &mut dyn Session, pos: &G, moves: &mut Vec<G::Move>) {
    let mut config = session.config().clone();
    let single = config.multipv;
    config.multipv = moves.len();
    // The table keeps its size, so these cannot fail; if they did, the moves stay unfiltered.
    if session.set_config(config.clone()).is_err() {
        return;
    }
    let lines = session
        .set_position(&pos.to_text(), &[])
        .ok()
        .and_then(|()| {
            let depth = G::OPENING_DEPTH.saturating_sub(2).max(1);
            session.search(&Limits::depth(depth), &mut |_| {}).ok()
        })
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

/// Whether `pos` is level enough to start a game from: duel's search to the game's
/// `OPENING_DEPTH` (chess: 6) within its `OPENING_MARGIN` (chess: 50 cp).
fn balanced<G: GameInfo>(session: &mut dyn Session, pos: &G) -> bool {
    if session.set_position(&pos.to_text(), &[]).is_err() {
        return false;
    }
    match session.search(&Limits::depth(G::OPENING_DEPTH), &mut |_| {}) {
        Ok(r) => !r.value.is_decisive() && r.value.0.abs() <= G::OPENING_MARGIN,
        Err(_) => false,
    }
}

/// A player as the flags give it.
enum Who {
    Duel(DuelSpec),
    /// An outside program, and its name as given (`duel uci` stays so, not this binary's path).
    Program(ProgramSpec, String),
}

impl Who {
    /// The player `text` names (None: this duel), its protocol and options as given.
    fn read<G: GameInfo>(
        text: Option<&str>,
        protocol: Option<Protocol>,
        options: &[(String, String)],
        which: &str,
    ) -> Result<Who> {
        let own = Protocol::of_game(G::PROTOCOLS);
        let (command, shown) = match text {
            Some(t) => {
                if let Some(spec) = DuelSpec::parse(t)? {
                    if !options.is_empty() || protocol.is_some() {
                        bail!(
                            "the {which} player is duel in process ('{t}'): its options go in \
                             the spec (duel:KEY=VALUE,...), not in --{which}-option or \
                             --{which}-protocol"
                        );
                    }
                    return Ok(Who::Duel(spec));
                }
                let shown = t.split_whitespace().collect::<Vec<_>>().join(" ");
                (command_line(t, which)?, shown)
            }
            None => {
                let Some(p) = own else {
                    return Ok(Who::Duel(DuelSpec::parse("duel")?.unwrap_or_default()));
                };
                let exe = std::env::current_exe().context("cannot find the duel executable")?;
                let mut command = vec![exe.to_string_lossy().into_owned()];
                command.push(
                    G::PROTOCOLS
                        .iter()
                        .find(|n| Protocol::parse(n) == Ok(p))
                        .map_or("uci", |n| n)
                        .to_string(),
                );
                let shown = format!("duel {}", command[1]);
                (command, shown)
            }
        };
        let spec = ProgramSpec {
            command,
            options: options.to_vec(),
            protocol: protocol.or(own).unwrap_or(Protocol::Uci),
        };
        Ok(Who::Program(spec, shown))
    }

    fn name(&self) -> String {
        match self {
            Who::Duel(s) => s.text.clone(),
            Who::Program(_, shown) => shown.clone(),
        }
    }

    fn maker<G: GameInfo>(&self) -> Box<Maker<'_, G>> {
        match self {
            Who::Duel(spec) => Box::new(move || spec.player::<G>()),
            Who::Program(e, _) => Box::new(move || start_program::<G>(e)),
        }
    }
}

/// Runs `duel match` for the game named by `--game`.
pub fn play_match(a: &MatchArgs, out: &mut dyn Write) -> Result<()> {
    struct Visit<'a>(&'a MatchArgs, &'a mut dyn Write);
    impl GameVisitor for Visit<'_> {
        type Output = Result<()>;
        fn visit<G: GameInfo>(self) -> Result<()> {
            play::<G>(self.0, self.1)
        }
    }
    duel_engine::with_game(&a.game, Visit(a, out))?
}

/// Runs the match and prints a line per game, then the result.
fn play<G: GameInfo>(a: &MatchArgs, out: &mut dyn Write) -> Result<()> {
    let tc = match (a.nodes, a.depth) {
        (None, None) => a.tc,
        (nodes, depth) => TimeControl::per_move(nodes, depth),
    };
    let controls = [a.first_tc.unwrap_or(tc), tc];
    let [first, second] = players::<G>(a)?;
    // Before the openings are searched: a record file that cannot be appended to is refused
    // at once, not after the first game has been played for nothing.
    let mut pgn = match &a.pgn {
        Some(path) => Some((
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open {} to append the games", path.display()))?,
            path.display(),
        )),
        None => None,
    };
    let openings = openings::<G>(a)?;
    let params = MatchParams {
        game: match duel_engine::split_variant(&a.game).1 {
            Some(spec) => format!("{}:{spec}", G::NAME),
            None => G::NAME.to_string(),
        },
        first: first.name(),
        second: second.name(),
        games: a.games as usize,
        controls,
        openings: openings.len(),
        opening_source: match &a.openings {
            Some(path) => format!("from {}", path.display()),
            None => format!("of {} plies", a.opening_plies.unwrap_or(RANDOM_PLIES)),
        },
        chess960: a.chess960,
        seed: a.seed,
        sprt: a.sprt,
    };
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    header(out, &params, a.concurrency, shard)?;
    let mut report = Report::new(a.sprt);
    let mut write_error = None;
    let mut outcomes = Vec::new();
    let schedule = Schedule {
        games: a.games as usize,
        openings: &openings,
        controls,
        concurrency: a.concurrency as usize,
        shard,
        adjudication: Adjudication::default(),
    };
    let (make_first, make_second) = (first.maker::<G>(), second.maker::<G>());
    let standings = run_match(&*make_first, &*make_second, &schedule, |g, played, s| {
        outcomes.push(GameOutcome {
            index: g,
            result: played.result,
            reason: played.reason.clone(),
            fault: played.fault,
        });
        // Each record is appended whole and flushed as its game ends, so that nothing is
        // lost if duel itself stops later.
        let saved = match pgn.as_mut() {
            Some((f, path)) => f
                .write_all(format!("{}\n", played.record).as_bytes())
                .and_then(|()| f.flush())
                .with_context(|| format!("cannot append game {} to {path}", g + 1)),
            None => Ok(()),
        };
        if let Err(e) = &saved {
            // A full disk: the record goes where it can still be read, and no game is
            // started that could not be saved either.
            eprintln!("{e:#}; its record:\n{}", played.record);
        }
        let written = report.game(out, g, played.result, &played.reason, s);
        if let Err(e) = saved.and(written.map_err(anyhow::Error::from)) {
            write_error.get_or_insert(e);
        }
        // A shard plays all its games: the test is decided on the merged games.
        write_error.is_none() && (report.decided.is_none() || shard.count > 1)
    })?;
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(path) = &a.results {
        let run = RunResults {
            params,
            shard,
            games: outcomes,
        };
        std::fs::write(path, run.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    report.summary(out, &standings)
}

/// The two players as the flags give them, refused before the openings are searched where
/// they cannot be made (an evaluator the game lacks) or cannot obey the match (its limit,
/// Chess960 over another protocol than UCI).
fn players<G: GameInfo>(a: &MatchArgs) -> Result<[Who; 2]> {
    let mut first = Who::read::<G>(
        a.first.as_deref(),
        a.first_protocol,
        &a.first_options,
        "first",
    )?;
    let mut second = Who::read::<G>(
        Some(&a.second),
        a.second_protocol,
        &a.second_options,
        "second",
    )?;
    if a.chess960 {
        if G::NUMBERED_STARTS == 0 {
            bail!("--chess960 is a chess variant, not one of {}", G::TITLE);
        }
        for (who, which) in [(&mut first, "first"), (&mut second, "second")] {
            let Who::Program(spec, _) = who else { continue };
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
    // A player that cannot be made (an evaluator the game lacks) or cannot obey the limit is
    // refused before the openings are searched.
    for (who, which) in [(&first, "first"), (&second, "second")] {
        match who {
            Who::Duel(spec) => {
                spec.player::<G>()?;
            }
            Who::Program(e, _)
                if a.nodes.is_some() && !matches!(e.protocol, Protocol::Uci | Protocol::Ucci) =>
            {
                bail!(
                "--nodes limits duel in process, UCI and UCCI engines; the {which} engine speaks {}: \
                 use --depth or --tc",
                format!("{:?}", e.protocol).to_ascii_lowercase()
            )
            }
            Who::Program(..) => {}
        }
    }
    Ok([first, second])
}

/// The match's openings: read from --openings (in an order drawn by the seed, cut to the
/// games and to --opening-plies), else random and balanced ones; refused when there are none.
fn openings<G: GameInfo>(a: &MatchArgs) -> Result<Vec<Opening<G>>> {
    let count = (a.games as usize).div_ceil(2);
    // The variant named after the game (`gomoku:renju:20`) is every game's start.
    let start = match duel_engine::split_variant(&a.game).1 {
        Some(spec) => G::variant(spec)
            .map_err(|e| anyhow::anyhow!("'{}': no such variant: {}", a.game, e.reason))?,
        None => G::start(),
    };
    let openings = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            // Read in the match's notation: Chess960's where it is one.
            let mut notation = start.clone();
            notation.set_switch("UCI_Chess960", a.chess960);
            let mut all =
                read_openings(&notation, &text).with_context(|| path.display().to_string())?;
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
            let judge = std::cell::RefCell::new(duel_engine::open(G::NAME, None)?);
            random_openings(
                count,
                a.opening_plies.unwrap_or(RANDOM_PLIES) as usize,
                a.seed,
                |rng| match a.chess960 {
                    true => numbered_start::<G>(rng).unwrap_or_else(G::start),
                    false => start.clone(),
                },
                |pos, moves| plausible(judge.borrow_mut().as_mut(), pos, moves),
                |pos| balanced(judge.borrow_mut().as_mut(), pos),
            )
        }
    };
    if openings.is_empty() {
        bail!("no balanced opening found with seed {}", a.seed);
    }
    Ok(openings)
}

/// The first lines of a match's report: who plays whom, how, and the test if any.
fn header(
    out: &mut dyn Write,
    p: &MatchParams,
    concurrency: u32,
    shard: Shard,
) -> std::io::Result<()> {
    let [first_tc, second_tc] = p.controls;
    writeln!(
        out,
        "{} vs {}: {}{} game{} at {}{}{}, {} {}opening{} {} (seed {})",
        p.first,
        p.second,
        if p.sprt.is_some() { "at most " } else { "" },
        p.games,
        if p.games == 1 { "" } else { "s" },
        if first_tc == second_tc {
            second_tc.describe()
        } else {
            format!("{} against {}", first_tc.describe(), second_tc.describe())
        },
        if concurrency > 1 {
            format!(", {concurrency} at a time")
        } else {
            String::new()
        },
        if shard.count > 1 {
            format!(", shard {}/{}", shard.index, shard.count)
        } else {
            String::new()
        },
        p.openings,
        if p.chess960 { "Chess960 " } else { "" },
        if p.openings == 1 { "" } else { "s" },
        p.opening_source,
        p.seed
    )?;
    if let Some(s) = p.sprt {
        let (low, high) = s.bounds();
        writeln!(
            out,
            "SPRT: H0 Elo {} against H1 Elo {}, alpha {} beta {}: stops when the ratio leaves ({low:.2}, {high:.2})",
            s.elo0, s.elo1, s.alpha, s.beta
        )?;
    }
    Ok(())
}

/// The lines of a report after the header: one per game as it ends, then the result, the
/// pairs, each engine's faults if it had any, and the test's verdict. A live match and a
/// merge of shards write it alike.
struct Report {
    sprt: Option<Sprt>,
    /// The verdict, the ratio and the games when the test decided.
    decided: Option<(Verdict, f64, u32)>,
}

impl Report {
    fn new(sprt: Option<Sprt>) -> Report {
        Report {
            sprt,
            decided: None,
        }
    }

    /// Game `g` (from 0) has ended; `s` counts it.
    fn game(
        &mut self,
        out: &mut dyn Write,
        g: usize,
        result: GameResult,
        reason: &str,
        s: &Standings,
    ) -> std::io::Result<()> {
        let t = s.tally;
        if let (Some(sprt), None) = (self.sprt, self.decided) {
            if let Some(v) = sprt.verdict(&t) {
                self.decided = Some((v, sprt.llr(&t), t.games()));
            }
        }
        writeln!(
            out,
            "game {}: {} ({reason}); first engine {}-{}-{} (W-D-L), {:.1}%",
            g + 1,
            result.pgn(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score()
        )?;
        out.flush()
    }

    fn summary(&self, out: &mut dyn Write, s: &Standings) -> Result<()> {
        let (tally, pairs) = (s.tally, s.pairs);
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
        for (p, which) in ["first", "second"].iter().enumerate() {
            if s.faults.total(p) == 0 {
                continue;
            }
            let counts: Vec<String> = Fault::ALL
                .iter()
                .map(|&f| {
                    let n = s.faults.counts[p][f as usize];
                    let (one, many) = f.words();
                    format!("{n} {}", if n == 1 { one } else { many })
                })
                .collect();
            writeln!(out, "faults of the {which} engine: {}", counts.join(", "))?;
        }
        if let Some(s) = self.sprt {
            let (low, high) = s.bounds();
            match self.decided {
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
}

/// `duel match-merge FILE...`: the report of the match the files' shards make up, as one run
/// of it one game at a time would print it (with a test, up to the game that decided it).
pub fn merge(files: &[PathBuf], out: &mut dyn Write) -> Result<()> {
    let mut runs = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        runs.push((name.clone(), RunResults::read(&name, &text)?));
    }
    let (params, games) = duel_arena::merge(&runs)?;
    header(out, &params, 1, Shard::WHOLE)?;
    let mut report = Report::new(params.sprt);
    let mut standings = Standings::default();
    for g in &games {
        standings.add(g.index, g.result.half_points(g.index));
        if let Some(fault) = g.fault {
            standings.faults.add(g.index, g.result, fault);
        }
        report.game(out, g.index, g.result, &g.reason, &standings)?;
        if report.decided.is_some() {
            break;
        }
    }
    report.summary(out, &standings)
}

/// Puts `items` in an order drawn by `seed` (Fisher and Yates).
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = duel_core::SplitMix64::new(seed);
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}
