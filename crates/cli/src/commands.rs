//! analyze, solve, perft, bench, compare and tree.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use duel_engine::{
    Algorithm, CompareRow, EngineError, Limits, SearchReport, SolveError, SolveLimits,
    SolveProgress, SolveStep, SolveStop,
};

use crate::args::{open_game, EngineArgs, LimitArgs, PositionArgs};
use crate::show::{self, describe, exact_words, ms};

/// "depth 9", "time 2s, nodes 1000".
pub fn describe_limits(l: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(t) = l.time {
        parts.push(format!("time {} ms", t.as_millis()));
    }
    parts.join(", ")
}

/// `analyze`: one line per completed depth as the search runs.
pub fn analyze(
    game: &str,
    position: &PositionArgs,
    limits: &LimitArgs,
    engine: &EngineArgs,
    out: &mut dyn Write,
) -> Result<()> {
    let mut s = engine.open(game)?;
    position.apply(s.as_mut())?;
    let limits = limits.limits(s.as_ref());
    writeln!(
        out,
        "analyze {}: {}, evaluator {}, {}, {} thread(s), {} MB hash",
        s.game(),
        describe(s.as_ref()),
        s.evaluator(),
        describe_limits(&limits),
        s.config().threads,
        s.config().tt_mb
    )?;
    writeln!(out, "scores in {}, from the side to move", s.score_unit())?;
    writeln!(
        out,
        "{:>5}  {:>10}  {:>12}  {:>10}  {:>10}  pv",
        "depth", "score", "nodes", "nps", "time ms"
    )?;
    let mut err = Ok(());
    let report = s.search(&limits, &mut |r: &SearchReport| {
        if err.is_ok() {
            err = writeln!(
                out,
                "{:>5}  {:>10}  {:>12}  {:>10}  {:>10}  {}",
                r.depth,
                show::score(r),
                r.stats.nodes,
                r.nps(),
                ms(r.time),
                r.pv.join(" ")
            )
            .and_then(|()| out.flush());
        }
    });
    err?;
    let report = report.context("cannot analyze")?;
    writeln!(
        out,
        "best move {} (score {}, depth {}, {} nodes in {} ms, hash {}‰)",
        report.best.as_deref().unwrap_or("-"),
        show::score(&report),
        report.depth,
        report.stats.nodes,
        ms(report.time),
        s.hashfull()
    )?;
    Ok(())
}

/// `solve` stopped by `--time` or `--nodes` before the value was proven. What it found has been
/// printed by then; the binary exits with [`Unfinished::EXIT_CODE`].
#[derive(Debug)]
pub struct Unfinished {
    /// The limit, as a flag and its value.
    limit: String,
}

impl Unfinished {
    /// The exit status of an unfinished solve: apart from clap's 2 for usage errors and 1 for
    /// every other error, so that scripts can tell "not proven within the limit" from failure.
    pub const EXIT_CODE: u8 = 3;
}

impl std::fmt::Display for Unfinished {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "solve unfinished: stopped by {} before the value was proven",
            self.limit
        )
    }
}

impl std::error::Error for Unfinished {}

/// `12,345,678`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A time limit as the flag would take it: `5m`, `10s`, `1500ms`.
fn duration_text(t: Duration) -> String {
    match (t.subsec_nanos(), t.as_secs()) {
        (0, s) if s > 0 && s.is_multiple_of(60) => format!("{}m", s / 60),
        (0, s) => format!("{s}s"),
        _ => format!("{}ms", t.as_millis()),
    }
}

/// `value >= +2`, `value in -4..+2`, `value +1`, `value unknown`.
fn bounds_text(lower: Option<i32>, upper: Option<i32>) -> String {
    match (lower, upper) {
        (Some(l), Some(u)) if l == u => format!("value {l:+}"),
        (Some(l), Some(u)) => format!("value in {l:+}..{u:+}"),
        (Some(l), None) => format!("value >= {l:+}"),
        (None, Some(u)) => format!("value <= {u:+}"),
        (None, None) => "value unknown".to_string(),
    }
}

/// `12,345,678 nodes, 3.2 s, 3.9 Mn/s`.
fn effort_text(nodes: u64, time: Duration) -> String {
    let secs = time.as_secs_f64();
    // Below a few milliseconds the rate says more about the clock than about the solver.
    let rate = if secs >= 0.005 {
        format!(", {:.1} Mn/s", nodes as f64 / secs / 1e6)
    } else {
        String::new()
    };
    format!("{} nodes, {secs:.1} s{rate}", grouped(nodes))
}

/// One line of a running solve's progress.
fn solve_progress_line(p: &SolveProgress<'_>) -> String {
    match p {
        SolveProgress::Plan {
            moves,
            method,
            margin_name,
        } => format!(
            "solving each of the {moves} moves exactly, one after the other ({method}); \
             values are {margin_name}s for the side that moves; Ctrl-C or --time/--nodes to stop"
        ),
        SolveProgress::Move(m) => {
            let head = format!("  move {} ({}/{})", m.mv, m.index + 1, m.of);
            let at = &m.search;
            let bounds = bounds_text(at.lower, at.upper);
            let guess = match at.guess {
                Some(g) if at.lower != at.upper || at.lower.is_none() => {
                    format!(", guess {g:+}")
                }
                _ => String::new(),
            };
            let what = match m.step {
                SolveStep::Started => "solving".to_string(),
                SolveStep::Solved => format!("solved, {bounds}"),
                SolveStep::Narrowed => format!("{bounds}{guess} ({})", at.stage),
                SolveStep::Running => {
                    let window = match at.window {
                        Some((a, b)) => format!(" ({a:+}, {b:+})"),
                        None => String::new(),
                    };
                    format!("{bounds}{guess}, {}{window} running", at.stage)
                }
            };
            format!("{head}: {what}, {}", effort_text(at.nodes, m.time))
        }
    }
}

/// The lines that say what an unfinished solve knows; the last one names the limit.
fn print_unfinished(
    out: &mut dyn Write,
    u: &duel_engine::Unfinished,
    mover: &str,
    limit: &str,
) -> Result<()> {
    let name = u.margin_name;
    if !u.solved.is_empty() {
        writeln!(out, "moves solved, for {mover}:")?;
        for m in &u.solved {
            let margin = m
                .margin
                .map_or(String::new(), |p| format!(" ({name} {p:+})"));
            writeln!(
                out,
                "  {:>3}  {}{margin}",
                m.mv,
                show::outcome_words(m.value, mover)
            )?;
        }
    }
    if let Some(c) = &u.current {
        writeln!(
            out,
            "move in progress: {}, {} ({name})",
            c.mv,
            bounds_text(c.lower, c.upper)
        )?;
    }
    if u.untried > 0 {
        writeln!(out, "moves not started: {}", u.untried)?;
    }
    let known = match u.at_least {
        Some(l) => format!("at least {l:+} for {mover}, {name}"),
        None => "no bound proven yet".to_string(),
    };
    writeln!(
        out,
        "unfinished: stopped by {limit} after {} nodes, {:.1} s; value unknown ({known})",
        grouped(u.nodes),
        u.time.as_secs_f64()
    )?;
    Ok(())
}

/// `solve`: the exact value and every move's value, with the progress of a long solve, within
/// the limits given.
pub fn solve(
    game: &str,
    position: &PositionArgs,
    time: Option<Duration>,
    nodes: Option<u64>,
    threads: usize,
    out: &mut dyn Write,
) -> Result<()> {
    let mut s = open_game(game, None)?;
    position.apply(s.as_mut())?;
    writeln!(out, "solve {}: {}", s.game(), describe(s.as_ref()))?;
    out.flush()?;
    let limits = SolveLimits {
        nodes,
        time,
        stop: None,
        threads,
    };
    let mut err = Ok(());
    let result = s.solve(&limits, &mut |p| {
        if err.is_ok() {
            let line = solve_progress_line(p);
            err = writeln!(out, "{line}").and_then(|()| out.flush());
        }
    });
    err?;
    let sol = match result {
        Ok(sol) => sol,
        Err(EngineError::Solve(SolveError::Unfinished(u))) => {
            let limit = match u.stop {
                SolveStop::Nodes(n) => format!("--nodes {n}"),
                SolveStop::Time(t) => format!("--time {}", duration_text(t)),
                SolveStop::Flag => "a stop".to_string(),
            };
            print_unfinished(out, &u, s.side_name(s.side_to_move()), &limit)?;
            return Err(Unfinished { limit }.into());
        }
        Err(EngineError::Solve(SolveError::TooFarFromEnd {
            distance, takes, ..
        })) => bail!(
            "too far from the end to solve without a limit: {distance} ({takes}); give \
             --time or --nodes to try anyway, and the solve prints what it proves before the \
             limit"
        ),
        Err(e) => return Err(e.into()),
    };
    let mover = s.side_name(s.side_to_move());
    let name = sol.margin_name;
    let margin = |p: Option<i32>| match p {
        Some(0) => format!(" ({name} 0)"),
        Some(p) => format!(" ({name} {p:+})"),
        None => String::new(),
    };
    let words = |v: duel_engine::Score| {
        if sol.plies_known {
            exact_words(v, mover)
        } else {
            show::outcome_words(v, mover)
        }
    };
    if s.outcome().is_some() {
        writeln!(out, "value: game over, {}", show::result(s.as_ref()))?;
    } else {
        writeln!(out, "value: {}{}", words(sol.value), margin(sol.margin))?;
        let best = sol.best_moves();
        writeln!(out, "best moves: {}", best.join(" "))?;
        writeln!(out, "every move, for {mover}:")?;
        for m in &sol.moves {
            let mark = if best.contains(&m.mv.as_str()) {
                "  <- best"
            } else {
                ""
            };
            writeln!(
                out,
                "  {:>3}  {}{}{mark}",
                m.mv,
                words(m.value),
                margin(m.margin)
            )?;
        }
    }
    writeln!(
        out,
        "method: {}, {} nodes, {} ms",
        sol.method,
        sol.nodes,
        ms(sol.time)
    )?;
    Ok(())
}

/// `perft`: leaves, time, leaves/s; with `divide`, the count below each move first.
pub fn perft(
    game: &str,
    position: &PositionArgs,
    depth: u32,
    divide: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let mut s = open_game(game, None)?;
    position.apply(s.as_mut())?;
    writeln!(
        out,
        "perft {} depth {depth} from {}",
        s.game(),
        describe(s.as_ref())
    )?;
    let start = Instant::now();
    let leaves = if divide {
        // Nothing here sets the flag: the command runs to its end or until interrupted.
        let never = std::sync::atomic::AtomicBool::new(false);
        let rows = s.perft_divide(depth, &never).unwrap_or_default();
        for (mv, n) in &rows {
            writeln!(out, "  {mv:>4}  {n}")?;
        }
        rows.iter().map(|(_, n)| n).sum::<u64>() + u64::from(depth == 0)
    } else {
        s.perft(depth)
    };
    let time = start.elapsed();
    writeln!(out, "leaves: {leaves}")?;
    writeln!(out, "time: {} ms", ms(time))?;
    writeln!(out, "leaves/s: {}", duel_engine::per_second(leaves, time))?;
    Ok(())
}

/// `games`: the registry, one block per game.
pub fn games(out: &mut dyn Write) -> Result<()> {
    for g in duel_engine::games() {
        if g.title.eq_ignore_ascii_case(g.name) {
            writeln!(out, "{}", g.name)?;
        } else if g.title.starts_with(g.name) {
            // A title that names the game first (`xiangqi (Chinese chess)`) says it all.
            writeln!(out, "{}", g.title)?;
        } else {
            writeln!(out, "{} ({})", g.name, g.title)?;
        }
        if !g.aliases.is_empty() {
            writeln!(out, "  also:        {}", g.aliases.join(", "))?;
        }
        let default = match g.evaluators {
            [_] => String::new(),
            [first, ..] => format!(" (default {first})"),
            [] => String::new(),
        };
        writeln!(out, "  evaluators:  {}{default}", g.evaluators.join(", "))?;
        // The UCI loop knows no game: it serves any of them for scripted use.
        let mut protocols = g.protocols.to_vec();
        if !protocols.contains(&"uci") {
            protocols.push("uci (duel uci --game NAME, for scripts)");
        }
        writeln!(out, "  protocols:   {}", protocols.join(", "))?;
        writeln!(out, "  notation:    {}", g.notation)?;
        let depth = duel_engine::open(g.name, None)?.default_depth();
        writeln!(
            out,
            "  search:      depth {depth} when no limit is given (analyze; play: --level, 1 s a move)"
        )?;
        if !g.variants.is_empty() {
            writeln!(out, "  variants:    {}", g.variants)?;
        }
    }
    Ok(())
}

/// `bench`: per position and per game nodes, time and nodes/s, then the totals and the
/// signature line `Total nodes: N`.
pub fn bench(game: Option<&str>, out: &mut dyn Write) -> Result<()> {
    let games: Vec<&str> = match game {
        Some(g) => vec![g],
        None => duel_engine::games().iter().map(|g| g.name).collect(),
    };
    let (mut nodes, mut time) = (0u64, std::time::Duration::ZERO);
    for g in games {
        let s = open_game(g, None)?;
        let b = s.bench();
        writeln!(
            out,
            "{}: {} positions, depth {}, evaluator {}, 1 thread, default options, table cleared \
             before each",
            b.game,
            b.entries.len(),
            b.depth,
            s.evaluator()
        )?;
        for e in &b.entries {
            let pos = if e.position.is_empty() {
                "(start)"
            } else {
                &e.position
            };
            writeln!(
                out,
                "  {pos:<16} nodes {:>10}  time {:>10} ms  nps {:>10}  best {}  score {}",
                e.report.stats.nodes,
                ms(e.report.time),
                e.report.nps(),
                e.report.best.as_deref().unwrap_or("-"),
                e.report.value
            )?;
        }
        writeln!(
            out,
            "{}: nodes {}, time {} ms, nps {}",
            b.game,
            b.nodes(),
            ms(b.time()),
            b.nps()
        )?;
        nodes += b.nodes();
        time += b.time();
    }
    writeln!(out, "Total time (ms): {}", ms(time))?;
    writeln!(
        out,
        "Nodes/second: {}",
        duel_engine::per_second(nodes, time)
    )?;
    writeln!(out, "Total nodes: {nodes}")?;
    Ok(())
}

/// Arguments of `compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    #[arg(help = crate::args::game_help())]
    pub game: String,
    /// The depth every algorithm searches to.
    #[arg(long, short = 'd', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Algorithms, comma-separated, from: minimax, negamax, alphabeta-hard, alphabeta, two-phase,
    /// node-budget, pvs, pvs-no-tt, mtdf. Default: all of them.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub algos: Vec<String>,
    /// The evaluator, where the game has several.
    #[arg(long, value_name = "NAME")]
    pub eval: Option<String>,
    #[command(flatten)]
    pub position: PositionArgs,
}

/// `compare`: the algorithms side by side on one position and depth.
pub fn compare(a: &CompareArgs, out: &mut dyn Write) -> Result<()> {
    let mut s = open_game(&a.game, a.eval.as_deref())?;
    a.position.apply(s.as_mut())?;
    let algos: Vec<Algorithm> = if a.algos.is_empty() {
        Algorithm::ALL.to_vec()
    } else {
        a.algos
            .iter()
            .map(|n| Algorithm::parse(n))
            .collect::<Result<_, _>>()
            .context("bad --algos")?
    };
    if s.outcome().is_some() {
        bail!("nothing to compare: {}", describe(s.as_ref()));
    }
    let rows = s.compare(a.depth, &algos)?;
    writeln!(
        out,
        "compare {}: {}, depth {}, evaluator {}",
        s.game(),
        describe(s.as_ref()),
        a.depth,
        s.evaluator()
    )?;
    writeln!(
        out,
        "values are for the side to move; wins count plies from this position"
    )?;
    let header = format!(
        "{:<14}  {:>10}  {:>4}  {:>10}  {:>10}  {:>9}  {:>9}  {:>6}  {:>10}",
        "algorithm",
        "value",
        "best",
        "nodes",
        "leaf evals",
        "cut-offs",
        "TT hits",
        "EBF",
        "time ms"
    );
    writeln!(out, "{header}")?;
    writeln!(out, "{}", "-".repeat(header.len()))?;
    for row in &rows {
        let r = &row.report;
        writeln!(
            out,
            "{:<14}  {:>10}  {:>4}  {:>10}  {:>10}  {:>9}  {:>9}  {:>6.2}  {:>10}",
            row.algorithm.name(),
            r.value.to_string(),
            r.best.as_deref().unwrap_or("-"),
            r.stats.nodes,
            r.stats.evals,
            r.stats.cutoffs,
            r.stats.tt_hits,
            r.ebf(),
            ms(r.time)
        )?;
    }
    writeln!(out, "{}", "-".repeat(header.len()))?;
    footer(&rows, out)
}

fn footer(rows: &[CompareRow], out: &mut dyn Write) -> Result<()> {
    let exact: Vec<&CompareRow> = rows.iter().filter(|r| r.algorithm.is_exact()).collect();
    if let Some(first) = exact.first() {
        let v = first.report.value;
        if exact.iter().all(|r| r.report.value == v) {
            let mut best: Vec<&str> = exact
                .iter()
                .filter_map(|r| r.report.best.as_deref())
                .collect();
            best.sort_unstable();
            best.dedup();
            let moves = if best.len() == 1 {
                format!("best move {}", best[0])
            } else {
                format!(
                    "best moves {} (equal values, different tie-breaks)",
                    best.join(" ")
                )
            };
            writeln!(
                out,
                "All {} exact algorithms agree: value {v}, {moves}.",
                exact.len()
            )?;
        } else {
            let all: Vec<String> = exact
                .iter()
                .map(|r| format!("{} {}", r.algorithm.name(), r.report.value))
                .collect();
            writeln!(
                out,
                "!!! DISAGREEMENT: the exact algorithms differ: {}",
                all.join(", ")
            )?;
            bail!(
                "exact algorithms disagree on the value ({}): this is a bug",
                all.join(", ")
            );
        }
    }
    for r in rows {
        if let Some(b) = r.budget {
            writeln!(
                out,
                "node-budget: budget {b} nodes (the alpha-beta node count at this depth); its \
                 horizon is uneven (deepest ply {}), so its value is not exact.",
                r.report.depth
            )?;
        }
    }
    if rows.iter().any(|r| {
        matches!(
            r.algorithm,
            Algorithm::Pvs | Algorithm::PvsNoTt | Algorithm::Mtdf
        )
    }) {
        writeln!(
            out,
            "pvs, pvs-no-tt, mtdf: the engine search (iterative deepening, all iterations \
             counted) with same-depth TT cut-offs only, no quiescence, no extensions, no \
             exact hook, every legal move."
        )?;
    }
    Ok(())
}

/// How `tree` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TreeFormat {
    /// Indented text, one node per line.
    Text,
    /// A Graphviz digraph (`dot -Tsvg`).
    Dot,
    /// Nested JSON objects.
    Json,
}

/// Arguments of `tree`.
#[derive(Debug, Clone, Args)]
pub struct TreeArgs {
    #[arg(help = crate::args::game_help())]
    pub game: String,
    /// The depth of the search.
    #[arg(long, short = 'd', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// The algorithm: minimax, negamax, alphabeta, alphabeta-hard (two-phase draws as minimax).
    #[arg(long, value_name = "NAME", default_value = "alphabeta")]
    pub algo: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TreeFormat::Text)]
    pub format: TreeFormat,
    /// Refuse trees with more nodes than this.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// The evaluator, where the game has several.
    #[arg(long, value_name = "NAME")]
    pub eval: Option<String>,
    #[command(flatten)]
    pub position: PositionArgs,
}

/// `tree`: the explored tree with backed-up values (for MAX) and pruned moves.
pub fn tree(a: &TreeArgs, out: &mut dyn Write) -> Result<()> {
    let mut s = open_game(&a.game, a.eval.as_deref())?;
    a.position.apply(s.as_mut())?;
    let algo = duel_engine::parse_reference(&a.algo).context("bad --algo")?;
    let (report, root) = s
        .tree(algo, a.depth, a.max_nodes)
        .context("tree refused (raise --max-nodes to draw it anyway)")?;
    let names = [
        s.side_name(duel_engine::Side::First),
        s.side_name(duel_engine::Side::Second),
    ];
    match a.format {
        TreeFormat::Text => {
            writeln!(
                out,
                "tree {}: {}, {}, depth {}, evaluator {}",
                s.game(),
                describe(s.as_ref()),
                algo.name(),
                a.depth,
                s.evaluator()
            )?;
            writeln!(
                out,
                "values for MAX ({}); >=v / <=v: only a bound was proved; +INF@n / -INF@n: MAX wins / \
                 loses n plies from here; cut: move pruned",
                names[0]
            )?;
            write!(out, "{}", show::tree_text(&root, names))?;
            writeln!(
                out,
                "{} nodes visited, {} moves cut, value for the side to move {}, best move {}",
                report.stats.nodes,
                show::pruned(&root),
                report.value,
                report.best.as_deref().unwrap_or("-")
            )?;
        }
        TreeFormat::Dot => write!(out, "{}", show::tree_dot(&root))?,
        TreeFormat::Json => {
            let doc = serde_json::json!({
                "game": s.game(),
                "position": s.position(),
                "algorithm": algo.name(),
                "depth": a.depth,
                "evaluator": s.evaluator(),
                "nodes": report.stats.nodes,
                "value_for_max": root.value_for_max().map(|v| v.0),
                "tree": show::tree_json(&root),
            });
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
