//! duel against the `minimax` crate (0.6), the same work side by side.
//!
//! ```text
//! cargo run --release -p duel-bench-minimax -- [PARTS] [--runs N] [--perft-depth D]
//!                                              [--id-depth D] [--smp-depth D] [--smp-tt-mb MB]
//! ```
//! PARTS are any of `ttt`, `perft`, `id`, `smp` (default: all). Every figure is the best
//! (smallest time) of N runs, N = 5 by default; duel and `minimax` runs alternate so that a
//! change in the machine's load hits both alike. Ratios are `minimax` time / duel time:
//! above 1, duel is faster.
//!
//! Both perfts run in a child process of this binary, one per run, because `minimax::perft`
//! prints its own table to standard output; the child's output is read back and `minimax`'s
//! own per-depth timing is shown too.

use std::process::Command;
use std::time::{Duration, Instant};

use duel_bench_minimax::{
    describe_evaluation, mm_open_lines, mm_threats, moves_played, reset_count, Counted, DuelEval,
    MmConnect4, MmTicTacToe,
};
use duel_connect4::{Connect4, Threats};
use duel_core::{perft, Game};
use duel_search::{Limits, Reference, ReferenceOptions, Report, SearchConfig, Searcher};
use duel_tictactoe::{OpenLines, TicTacToe};
use minimax::{IterativeOptions, IterativeSearch, Negamax, Strategy};

const CHILD_FLAG: &str = "--child-perft";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(CHILD_FLAG) {
        child_perft(&args[1..]);
        return;
    }
    let opts = match Options::parse(&args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("error: {e:#}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    header(&opts);
    if opts.has("ttt") {
        tictactoe(&opts);
    }
    if opts.has("perft") {
        connect4_perft(&opts);
    }
    if opts.has("id") {
        connect4_id(&opts);
    }
    if opts.has("smp") {
        lazy_smp(&opts);
    }
    println!("\nload average at the end: {}", loadavg());
}

const USAGE: &str = "usage: duel-bench-minimax [ttt] [perft] [id] [smp] [--runs N] \
[--perft-depth D] [--id-depth D] [--smp-depth D] [--smp-tt-mb MB]
  ttt    tic-tac-toe: whole tree (Reference::Minimax, perft) and full solve (alpha-beta)
  perft  Connect Four perft to --perft-depth (default 10)
  id     Connect Four iterative deepening to --id-depth (default 14)
  smp    duel Lazy SMP, 1 vs 2 threads, Connect Four to --smp-depth (default 18),
         with a --smp-tt-mb table (default: the default config's)";

/// Command-line options.
struct Options {
    parts: Vec<String>,
    runs: usize,
    perft_depth: u32,
    id_depth: u32,
    smp_depth: u32,
    smp_tt_mb: usize,
}

impl Options {
    /// The options `args` give; None when they ask for the help.
    fn parse(args: &[String]) -> anyhow::Result<Option<Options>> {
        let mut o = Options {
            parts: Vec::new(),
            runs: 5,
            perft_depth: 10,
            id_depth: 14,
            smp_depth: 18,
            smp_tt_mb: SearchConfig::default().tt_mb,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut number = |name: &str| -> anyhow::Result<u32> {
                it.next()
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| anyhow::anyhow!("{name} needs a number"))
            };
            match a.as_str() {
                "--runs" => o.runs = number(a)?.max(1) as usize,
                "--perft-depth" => o.perft_depth = number(a)?.min(20),
                "--id-depth" => o.id_depth = number(a)?.clamp(1, 40),
                "--smp-depth" => o.smp_depth = number(a)?.clamp(1, 40),
                "--smp-tt-mb" => o.smp_tt_mb = number(a)?.max(1) as usize,
                "-h" | "--help" => return Ok(None),
                "ttt" | "perft" | "id" | "smp" => o.parts.push(a.clone()),
                other => anyhow::bail!("unknown argument '{other}'"),
            }
        }
        Ok(Some(o))
    }

    fn has(&self, part: &str) -> bool {
        self.parts.is_empty() || self.parts.iter().any(|p| p == part)
    }
}

// ---------------------------------------------------------------------------------------------
// Output.

fn header(opts: &Options) {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    println!("duel vs minimax 0.6 -- same games, same evaluators, same depths");
    println!(
        "date {} | nproc {cpus} | CPU {model} | load average {}",
        utc_now(),
        loadavg()
    );
    println!(
        "best of {} runs, duel and minimax runs alternating; ratio = minimax time / duel time \
         (above 1: duel faster)",
        opts.runs
    );
}

/// The current UTC date and time, `YYYY-MM-DD HH:MM UTC`.
fn utc_now() -> String {
    let t = time::OffsetDateTime::now_utc();
    let (h, mi) = (t.hour(), t.minute());
    format!("{} {h:02}:{mi:02} UTC", t.date())
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// One line of a table: what is measured, duel's figure, minimax's figure, the ratio.
struct Row {
    item: String,
    duel: String,
    minimax: String,
    ratio: String,
}

fn row(item: &str, duel: String, minimax: String, ratio: String) -> Row {
    Row {
        item: item.to_string(),
        duel,
        minimax,
        ratio,
    }
}

fn print_table(title: &str, heads: [&str; 4], rows: &[Row]) {
    let w = |f: &dyn Fn(&Row) -> &str, head: &str| {
        rows.iter()
            .map(|r| f(r).chars().count())
            .chain([head.chars().count()])
            .max()
            .unwrap_or(0)
    };
    let w0 = w(&|r| &r.item, heads[0]);
    let w1 = w(&|r| &r.duel, heads[1]);
    let w2 = w(&|r| &r.minimax, heads[2]);
    let w3 = w(&|r| &r.ratio, heads[3]);
    println!("\n{title}");
    println!(
        "| {:<w0$} | {:<w1$} | {:<w2$} | {:<w3$} |",
        heads[0], heads[1], heads[2], heads[3]
    );
    println!(
        "|{}|{}|{}|{}|",
        "-".repeat(w0 + 2),
        "-".repeat(w1 + 2),
        "-".repeat(w2 + 2),
        "-".repeat(w3 + 2)
    );
    for r in rows {
        println!(
            "| {:<w0$} | {:<w1$} | {:<w2$} | {:>w3$} |",
            r.item, r.duel, r.minimax, r.ratio
        );
    }
}

/// Milliseconds with three significant decimals for short times.
fn ms(d: Duration) -> String {
    let v = d.as_secs_f64() * 1e3;
    if v < 10.0 {
        format!("{v:.3} ms")
    } else if v < 1000.0 {
        format!("{v:.1} ms")
    } else {
        format!("{v:.0} ms")
    }
}

/// An integer with thousands separators.
fn count(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Millions of `what` per second.
fn mega_rate(n: u64, d: Duration, what: &str) -> String {
    format!("{:.1} M {what}/s", n as f64 / d.as_secs_f64() / 1e6)
}

fn ratio(minimax: Duration, duel: Duration) -> String {
    format!("{:.2}x", minimax.as_secs_f64() / duel.as_secs_f64())
}

/// A range `a` or `a..b` of counts.
fn span(values: &[u64]) -> String {
    let lo = values.iter().copied().min().unwrap_or(0);
    let hi = values.iter().copied().max().unwrap_or(0);
    if lo == hi {
        count(lo)
    } else {
        format!("{}..{}", count(lo), count(hi))
    }
}

// ---------------------------------------------------------------------------------------------
// Measurement.

/// Runs `a` and `b` alternately `runs` times each; returns every result of each.
fn alternate<A, B>(
    runs: usize,
    mut a: impl FnMut() -> A,
    mut b: impl FnMut() -> B,
) -> (Vec<A>, Vec<B>) {
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        ra.push(a());
        rb.push(b());
    }
    (ra, rb)
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let out = f();
    (start.elapsed(), out)
}

/// The run with the smallest time.
fn best<T: Clone>(runs: &[(Duration, T)]) -> (Duration, T) {
    runs.iter()
        .min_by_key(|r| r.0)
        .cloned()
        .expect("at least one run")
}

/// What one perft child reports.
#[derive(Debug, Clone, Default)]
struct PerftRun {
    /// Leaves summed over depths 0..=D.
    total: u64,
    /// perft(D).
    last: u64,
    /// Time of the whole loop over depths 0..=D.
    time: Duration,
    /// Time of depth D alone (for minimax: read from its own table).
    last_time: Option<Duration>,
    /// The child's standard output (minimax's table).
    output: String,
}

/// The child side: `--child-perft duel|minimax ttt|c4 DEPTH`. Prints the library's own output,
/// then `RESULT total last nanos last_nanos`.
fn child_perft(args: &[String]) {
    let (lib, game, depth) = match args {
        [lib, game, d] => (
            lib.as_str(),
            game.as_str(),
            d.parse::<u32>().expect("depth"),
        ),
        _ => panic!("usage: {CHILD_FLAG} duel|minimax ttt|c4 DEPTH"),
    };
    fn duel_loop<G: Game>(depth: u32) -> (u64, u64, Duration, Duration) {
        let mut pos = G::start();
        let (mut total, mut last, mut last_time) = (0, 0, Duration::ZERO);
        let start = Instant::now();
        for d in 0..=depth {
            let (t, n) = timed(|| perft(&mut pos, d));
            total += n;
            last = n;
            last_time = t;
        }
        (total, last, start.elapsed(), last_time)
    }
    fn minimax_loop<M>(depth: u32) -> (u64, u64, Duration, Duration)
    where
        M: minimax::Game,
        M::S: Game + Clone + Sync,
        M::M: Copy + Sync,
    {
        let mut pos = <M::S as Game>::start();
        let (t, counts) = timed(|| minimax::perft::<M>(&mut pos, depth as u8, false));
        let last = counts.last().copied().unwrap_or(0);
        (counts.iter().sum(), last, t, Duration::ZERO)
    }
    let (total, last, time, last_time) = match (lib, game) {
        ("duel", "ttt") => duel_loop::<TicTacToe>(depth),
        ("duel", "c4") => duel_loop::<Connect4>(depth),
        ("minimax", "ttt") => minimax_loop::<MmTicTacToe>(depth),
        ("minimax", "c4") => minimax_loop::<MmConnect4>(depth),
        _ => panic!("unknown library or game: {lib} {game}"),
    };
    println!(
        "RESULT {total} {last} {} {}",
        time.as_nanos(),
        last_time.as_nanos()
    );
}

/// Runs one perft child and reads its report.
fn run_child(lib: &str, game: &str, depth: u32) -> PerftRun {
    let exe = std::env::current_exe().expect("own executable");
    let out = Command::new(exe)
        .args([CHILD_FLAG, lib, game, &depth.to_string()])
        .output()
        .expect("perft child runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "perft child {lib} {game} {depth} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = stdout
        .lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .expect("child prints RESULT");
    let f: Vec<u128> = result
        .split_whitespace()
        .map(|x| x.parse().expect("number"))
        .collect();
    let mut run = PerftRun {
        total: f[0] as u64,
        last: f[1] as u64,
        time: Duration::from_nanos(f[2] as u64),
        last_time: (f[3] > 0).then(|| Duration::from_nanos(f[3] as u64)),
        output: String::new(),
    };
    if lib == "minimax" {
        // Its table: "depth count time kn/s", the time printed as `{:.1?}`: two significant
        // digits only at a second or more. The last depth's time is therefore taken as the
        // loop's time minus the printed times of the shallower depths (those have four digits).
        let mut shallower = Duration::ZERO;
        let mut all_read = true;
        for l in stdout.lines() {
            let cols: Vec<&str> = l.split_whitespace().collect();
            match cols.as_slice() {
                [d, _, t, _] if d.parse::<u32>().is_ok_and(|d| d < depth) => {
                    match parse_debug_duration(t) {
                        Some(t) => shallower += t,
                        None => all_read = false,
                    }
                }
                _ => {}
            }
        }
        run.last_time = all_read.then(|| run.time.saturating_sub(shallower));
        run.output = stdout
            .lines()
            .filter(|l| !l.starts_with("RESULT"))
            .collect::<Vec<_>>()
            .join("\n");
    }
    run
}

/// Reads a `Duration` printed with `{:?}` (`52.3ms`, `1.2s`, `812.0µs`, `95ns`).
fn parse_debug_duration(s: &str) -> Option<Duration> {
    for (suffix, scale) in [("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0)] {
        if let Some(num) = s.strip_suffix(suffix) {
            return num
                .parse::<f64>()
                .ok()
                .map(|v| Duration::from_secs_f64(v * scale));
        }
    }
    None
}

/// Perft through both libraries, children alternating; returns the best run of each.
fn perft_pair(game: &str, depth: u32, runs: usize) -> (PerftRun, PerftRun) {
    let (d, m) = alternate(
        runs,
        || run_child("duel", game, depth),
        || run_child("minimax", game, depth),
    );
    let pick = |v: Vec<PerftRun>| v.into_iter().min_by_key(|r| r.time).expect("one run");
    // The depth-D-alone figure is the best over all runs, like the loop's.
    let best_last = |v: &[PerftRun]| v.iter().filter_map(|r| r.last_time).min();
    let (dl, ml) = (best_last(&d), best_last(&m));
    let (mut d, mut m) = (pick(d), pick(m));
    d.last_time = dl;
    m.last_time = ml;
    (d, m)
}

fn perft_rows(rows: &mut Vec<Row>, what: &str, depth: u32, d: &PerftRun, m: &PerftRun) {
    rows.push(row(
        &format!("{what} perft, loop over depths 0..={depth} (as minimax::perft does)"),
        format!(
            "{} ({} leaves, {})",
            ms(d.time),
            count(d.total),
            mega_rate(d.total, d.time, "leaves")
        ),
        format!(
            "{} ({} leaves, {})",
            ms(m.time),
            count(m.total),
            mega_rate(m.total, m.time, "leaves")
        ),
        ratio(m.time, d.time),
    ));
    if let (Some(dt), Some(mt)) = (d.last_time, m.last_time) {
        rows.push(row(
            &format!(
                "{what} perft({depth}) alone (minimax: loop minus its printed depths < {depth})"
            ),
            format!(
                "{} ({} leaves, {})",
                ms(dt),
                count(d.last),
                mega_rate(d.last, dt, "leaves")
            ),
            format!(
                "{} ({} leaves, {})",
                ms(mt),
                count(m.last),
                mega_rate(m.last, mt, "leaves")
            ),
            ratio(mt, dt),
        ));
    }
    assert_eq!(
        (d.total, d.last),
        (m.total, m.last),
        "the two perfts disagree"
    );
}

// ---------------------------------------------------------------------------------------------
// 1. Tic-tac-toe.

fn tictactoe(opts: &Options) {
    let runs = opts.runs;
    let start = TicTacToe::start();
    let mut rows = Vec::new();

    // (a) The whole tree.
    let (d, m) = alternate(
        runs,
        || timed(|| Reference::Minimax.search(&start, &OpenLines, 9, ReferenceOptions::default())),
        || run_child("minimax", "ttt", 9),
    );
    let (dt, dr) = best(&d);
    let m = m.into_iter().min_by_key(|r| r.time).expect("one run");
    rows.push(row(
        "whole tree: duel Reference::Minimax d9 / minimax::perft(9) (10 passes, depths 0..=9)",
        format!(
            "{} ({} nodes, value {})",
            ms(dt),
            count(dr.stats.nodes),
            dr.value
        ),
        format!(
            "{} (sum of counts {}, perft(9) {})",
            ms(m.time),
            count(m.total),
            count(m.last)
        ),
        ratio(m.time, dt),
    ));
    let (pd, pm) = perft_pair("ttt", 9, runs);
    perft_rows(&mut rows, "tic-tac-toe", 9, &pd, &pm);

    // (b) The full solve from the empty board. A solve takes well under a millisecond, so a
    // best of `runs` would still catch cold caches and timer noise: take 20 times as many.
    let solve_runs = runs * 20;
    let (ab, neg) = alternate(
        solve_runs,
        || {
            timed(|| {
                Reference::AlphaBetaSoft.search(&start, &OpenLines, 9, ReferenceOptions::default())
            })
        },
        || {
            let mut s = Negamax::new(mm_open_lines(), 9);
            let (t, mv) = timed(|| s.choose_move(&start));
            (t, (mv, s.root_value()))
        },
    );
    // The engine twice: as it plays (iterative deepening) and as a fixed-depth search like
    // Negamax's. Each run gets a fresh searcher, so an empty table; allocating it is not timed,
    // as Negamax::new is not.
    let engine = |iterative: bool, depth: Option<u32>| {
        let config = SearchConfig {
            iterative,
            ..SearchConfig::default()
        };
        let start = &start;
        move || {
            let mut s = Searcher::new(OpenLines, config.clone());
            let limits = Limits {
                depth,
                ..Limits::default()
            };
            timed(|| s.search(start, &limits, |_| {}))
        }
    };
    let (searcher, fixed) = alternate(solve_runs, engine(true, None), engine(false, Some(9)));
    // Negamax reports no node count: count in separate runs (a counter slows the timed ones).
    let neg_nodes: Vec<u64> = (0..runs)
        .map(|_| {
            let mut s = Negamax::new(DuelEval::<_, Counted<TicTacToe>>::new(OpenLines), 9);
            reset_count();
            s.choose_move(&start);
            moves_played() + 1
        })
        .collect();
    let (abt, abr) = best(&ab);
    let (st, sr) = best(&searcher);
    let (ft, fr) = best(&fixed);
    let (nt, (nmv, nv)) = best(&neg);
    let mm_solve = format!(
        "{} ({} nodes, value {}, move {})",
        ms(nt),
        span(&neg_nodes),
        describe_evaluation(nv),
        nmv.map_or("-".into(), |c| start.format_move(c))
    );
    rows.push(row(
        "solve d9: duel Reference::AlphaBetaSoft / minimax Negamax::new(open-lines, 9)",
        describe_report(abt, &abr, &start),
        mm_solve.clone(),
        ratio(nt, abt),
    ));
    rows.push(row(
        "solve: duel Searcher (default config, Limits::default()) / minimax Negamax d9",
        describe_report(st, &sr, &start),
        mm_solve.clone(),
        ratio(nt, st),
    ));
    rows.push(row(
        "solve d9: duel Searcher fixed depth (iterative: false, Limits::depth(9)) / minimax Negamax d9",
        describe_report(ft, &fr, &start),
        mm_solve,
        ratio(nt, ft),
    ));
    print_table(
        "1. Tic-tac-toe from the empty board (open-lines evaluator on both sides)",
        ["item", "duel", "minimax 0.6", "ratio"],
        &rows,
    );
    println!(
        "\nminimax::perft's own table (its fastest run):\n{}",
        pm.output
    );
}

fn describe_report<G: Game>(t: Duration, r: &Report<G::Move>, pos: &G) -> String {
    format!(
        "{} ({} nodes, value {}, move {}, depth {})",
        ms(t),
        count(r.stats.nodes),
        r.value,
        r.best.map_or("-".into(), |m| pos.format_move(m)),
        r.depth
    )
}

// ---------------------------------------------------------------------------------------------
// 2. Connect Four perft.

fn connect4_perft(opts: &Options) {
    let (d, m) = perft_pair("c4", opts.perft_depth, opts.runs);
    let mut rows = Vec::new();
    perft_rows(&mut rows, "Connect Four", opts.perft_depth, &d, &m);
    print_table(
        "2. Connect Four perft from the empty board (one thread each)",
        ["item", "duel duel_core::perft", "minimax::perft", "ratio"],
        &rows,
    );
    println!(
        "\nminimax::perft's own table (its fastest run):\n{}",
        m.output
    );
}

// ---------------------------------------------------------------------------------------------
// 3. Connect Four iterative deepening.

/// What a minimax iterative search reports: nodes (parsed from `stats()`), depth, value, move.
#[derive(Debug, Clone)]
struct MmId {
    nodes: u64,
    depth: u32,
    value: i16,
    best: Option<u8>,
}

fn minimax_id(depth: u32, table_bytes: Option<usize>) -> (Duration, MmId) {
    let mut o = IterativeOptions::new();
    if let Some(b) = table_bytes {
        o = o.with_table_byte_size(b);
    }
    let mut s = IterativeSearch::new(mm_threats(Threats::default()), o);
    s.set_max_depth(depth as u8);
    let mut pos = Connect4::start();
    let (t, mv) = timed(|| s.choose_move(&pos));
    let stats = s.stats(&mut pos);
    // "Explored N nodes to depth D. ..."
    let words: Vec<&str> = stats.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "Explored")
        .expect("minimax stats name the nodes");
    let nodes = words[at + 1].parse().expect("node count");
    let depth = words[at + 5].trim_end_matches('.').parse().unwrap_or(0);
    (
        t,
        MmId {
            nodes,
            depth,
            value: s.root_value(),
            best: mv,
        },
    )
}

fn connect4_id(opts: &Options) {
    let depth = opts.id_depth;
    let pos = Connect4::start();
    let duel_run = || {
        let mut s = Searcher::new(Threats::default(), SearchConfig::default());
        timed(|| s.search(&pos, &Limits::depth(depth), |_| {}))
    };
    let (d, m) = alternate(opts.runs, duel_run, || minimax_id(depth, None));
    let (_, m16) = alternate(opts.runs, || (), || minimax_id(depth, Some(16 << 20)));
    let (dt, dr) = best(&d);
    let describe = |runs: &[(Duration, MmId)]| {
        let (t, r) = best(runs);
        let nodes: Vec<u64> = runs.iter().map(|r| r.1.nodes).collect();
        (
            t,
            format!(
                "{} ({} nodes, {}, value {}, move {}, depth {})",
                ms(t),
                span(&nodes),
                mega_rate(r.nodes, t, "nodes"),
                describe_evaluation(r.value),
                r.best.map_or("-".into(), |c| pos.format_move(c)),
                r.depth
            ),
        )
    };
    let duel = format!(
        "{} ({} nodes, {}, value {}, move {}, depth {})",
        ms(dt),
        count(dr.stats.nodes),
        mega_rate(dr.stats.nodes, dt, "nodes"),
        dr.value,
        dr.best.map_or("-".into(), |c| pos.format_move(c)),
        dr.depth
    );
    let (mt, ms1) = describe(&m);
    let (mt16, ms16) = describe(&m16);
    let rows = vec![
        row(
            &format!("d{depth}: duel Searcher (16 MiB TT) / IterativeSearch defaults (1 MiB TT)"),
            duel.clone(),
            ms1,
            ratio(mt, dt),
        ),
        row(
            &format!("d{depth}: duel Searcher (16 MiB TT) / IterativeSearch with a 16 MiB TT"),
            duel,
            ms16,
            ratio(mt16, dt),
        ),
    ];
    print_table(
        "3. Connect Four iterative deepening from the empty board (threats evaluator, one thread; \
         node counts as min..max over the runs)",
        [
            "item",
            "duel Searcher, default config",
            "minimax IterativeSearch",
            "ratio",
        ],
        &rows,
    );
}

// ---------------------------------------------------------------------------------------------
// 4. Lazy SMP.

fn lazy_smp(opts: &Options) {
    let depth = opts.smp_depth;
    let pos = Connect4::start();
    // Each run: wall time, the report, and the CPU time the process used meanwhile (so a
    // 2-thread run that did not get two cores on a shared machine shows it).
    let run = |threads: usize| {
        let config = SearchConfig {
            threads,
            tt_mb: opts.smp_tt_mb,
            ..SearchConfig::default()
        };
        let mut s = Searcher::new(Threats::default(), config);
        let cpu = cpu_time();
        let (t, r) = timed(|| s.search(&pos, &Limits::depth(depth), |_| {}));
        let cores = match (cpu, cpu_time()) {
            (Some(a), Some(b)) => (b.saturating_sub(a)).as_secs_f64() / t.as_secs_f64(),
            _ => f64::NAN,
        };
        (t, (r, cores))
    };
    let (one, two) = alternate(opts.runs, || run(1), || run(2));
    let describe = |runs: &[(Duration, (Report<u8>, f64))]| {
        let (t, (r, cores)) = best(runs);
        (
            t,
            format!(
                "{}, {}, {cores:.2} cores busy",
                describe_report(t, &r, &pos),
                mega_rate(r.stats.nodes, t, "nodes")
            ),
        )
    };
    let (t1, d1) = describe(&one);
    let (t2, d2) = describe(&two);
    let rows = vec![row(
        &format!(
            "duel Searcher d{depth}, default config{}",
            if opts.smp_tt_mb == SearchConfig::default().tt_mb {
                String::new()
            } else {
                format!(" but a {} MiB TT", opts.smp_tt_mb)
            }
        ),
        d1,
        d2,
        format!("{:.2}x", t1.as_secs_f64() / t2.as_secs_f64()),
    )];
    print_table(
        "4. duel Lazy SMP on Connect Four from the empty board (fresh searcher each run; \
         speedup = 1-thread time / 2-thread time; cores busy = process CPU time / wall time)",
        ["item", "1 thread", "2 threads", "speedup"],
        &rows,
    );
    let every = |runs: &[(Duration, (Report<u8>, f64))]| {
        runs.iter()
            .map(|(t, (_, c))| format!("{} ({c:.2} cores)", ms(*t)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("every 1-thread run: {}", every(&one));
    println!("every 2-thread run: {}", every(&two));
}

/// CPU time used by this process so far, all threads (finished ones included), from
/// `/proc/self/stat` (utime + stime, in clock ticks of 1/100 s as on every Linux here).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses: state is field 3, utime 14.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}
