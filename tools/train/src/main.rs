//! `duel-train`: generates labelled Othello positions, fits the pattern weights, grows the
//! Othello opening book (`othello-book`), measures the
//! evaluator's speed and plays evaluator matches; the same for chess's Strong evaluator
//! (`chess-*` subcommands), for xiangqi's Strong (`xiangqi-*`); the same for Gomoku's Patterns
//! (`gomoku-*`). See `crates/games/othello/weights/README.md` and
//! `crates/games/chess/weights/README.md` and `crates/games/gomoku/weights/README.md` for the commands that produced the committed weights.

mod book;
mod chess;
mod gomoku;
mod linear;
mod nnue;
mod xiangqi;

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use duel_chess::Chess;
use duel_othello::{Pattern, Textbook};
use duel_xiangqi::Xiangqi;

use duel_train::data::{self, GenConfig};
use duel_train::probcut;
use duel_train::{fit, matches};

#[derive(Parser)]
#[command(
    name = "duel-train",
    about = "Fit and test duel's Othello pattern, chess and xiangqi Strong and Gomoku Patterns evaluators"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum EvalName {
    Textbook,
    Pattern,
}

#[derive(Clone, Copy, ValueEnum)]
enum ChessEval {
    Pst,
    Strong,
}

#[derive(Clone, Copy, ValueEnum)]
enum XiangqiEval {
    Material,
    Strong,
}

/// The flags of every self-play generation.
#[derive(Args)]
struct SelfPlayArgs {
    /// The file to append to.
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    #[arg(long, default_value_t = 2026)]
    seed: u64,
}

/// The flags of Strong's matches, the node count aside.
#[derive(Args)]
struct MatchArgs {
    /// Distinct openings (each gives two games).
    #[arg(long, default_value_t = 100)]
    openings: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Strong's weights (default: the committed ones).
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// Self-play flags, with games played side by side.
#[derive(Args)]
struct ThreadedArgs {
    #[command(flatten)]
    play: SelfPlayArgs,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// The flags every Texel fit takes.
#[derive(Args)]
struct TexelArgs {
    /// The game's `-gen` files (validation holds out the tail of the last one).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// Starting weights (default: the hand ones; chess: Pst's values, zero for the other
    /// terms).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Percent of positions (the files' tail) held out for validation.
    #[arg(long, default_value_t = 10)]
    valid_percent: u32,
    #[arg(long, default_value_t = 400)]
    epochs: u32,
    /// Adam's first step size, in the weights' units (chess centipawns, Gomoku eighths).
    #[arg(long, default_value_t = 2.0)]
    learning_rate: f64,
    /// L2 penalty towards the starting weights, λ·Σ(w − w_init)², w in the weights' units.
    #[arg(long, default_value_t = 0.0)]
    lambda: f64,
}

impl TexelArgs {
    /// Refuses settings that cannot work; reads the data files' text.
    fn check_and_read(&self) -> Result<String> {
        if self.valid_percent >= 100
            || self.epochs == 0
            || !self.learning_rate.is_finite()
            || self.learning_rate <= 0.0
            || !self.lambda.is_finite()
            || self.lambda < 0.0
        {
            bail!(
                "need --valid-percent below 100, --epochs at least 1, a positive --learning-rate \
                 and a --lambda of 0 or more"
            );
        }
        read_all(&self.data)
    }
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games, labelled by the exact solver; appends records to a file.
    Gen {
        /// Output file (records of 22 bytes).
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 1000)]
        games: u32,
        #[arg(long, default_value_t = 0)]
        first_game: u32,
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// Evaluator of the move-choosing search.
        #[arg(long, value_enum, default_value_t = EvalName::Textbook)]
        eval: EvalName,
        /// Weights for `--eval pattern` (default: the committed ones).
        #[arg(long)]
        weights: Option<PathBuf>,
        #[arg(long, default_value_t = 2)]
        depth: u32,
        #[arg(long, default_value_t = 18)]
        solve_empties: u32,
        #[arg(long, default_value_t = 2)]
        min_random_plies: u32,
        #[arg(long, default_value_t = 12)]
        max_random_plies: u32,
        #[arg(long, default_value_t = 5)]
        random_percent: u32,
        #[arg(long, default_value_t = 10)]
        endgame_random_percent: u32,
        /// Multi-ProbCut selectivity of the search, in hundredths of a sigma (0: off).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..=1000))]
        probcut: i32,
    },
    /// Fits weights on record files by regularised least squares.
    Fit {
        /// Record files.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// The weights file to write.
        #[arg(long)]
        out: PathBuf,
        /// Percent of games held out for validation.
        #[arg(long, default_value_t = 10)]
        valid_percent: u32,
        /// Conjugate-gradient iterations per phase.
        #[arg(long, default_value_t = 200)]
        iters: u32,
        /// L2 penalty λ·Σw² (w in discs), added to the phase's sum of squared errors. 60
        /// validated best of the values tried (0.5 to 150, see weights/README.md).
        #[arg(long, default_value_t = 60.0)]
        lambda: f64,
        /// Positions this many empties outside a phase's bucket also train it.
        #[arg(long, default_value_t = 2)]
        margin: u32,
        /// Share of each label taken from the fitted evaluation of the same game's first
        /// position a phase later (0 to 1; 0: the game's result alone).
        #[arg(long, default_value_t = 0.0)]
        bootstrap: f64,
    },
    /// Evaluations per second of both evaluators on recorded positions.
    Speed {
        data: PathBuf,
        #[arg(long)]
        weights: Option<PathBuf>,
    },
    /// Othello Multi-ProbCut's error model: shallow against deep search values on positions
    /// of duel's own games, fitted to sigma = c0 + c1·empties + c2·deep + c3·shallow.
    OthelloProbcut {
        /// Fit the samples in this file (written by an earlier run's `--out`) instead of
        /// measuring new ones.
        #[arg(long)]
        samples: Option<PathBuf>,
        /// Where to write the measured samples.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long)]
        weights: Option<PathBuf>,
        #[command(flatten)]
        plan: probcut::Plan,
    },
    /// Grows an Othello opening book by drop-out expansion from the start, its leaves
    /// searched by `duel nboard`'s engine (see `crates/games/othello/book/README.md`).
    OthelloBook {
        /// The book file: read first when it exists, written after every round.
        #[arg(long)]
        out: PathBuf,
        /// Stop after the round that reaches this many positions.
        #[arg(long, default_value_t = 1000)]
        positions: usize,
        /// Depth of the leaf searches.
        #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Candidates expanded a round.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        batch: u32,
        /// Positions with this many empty squares or fewer are not expanded.
        #[arg(long, default_value_t = 36, value_parser = clap::value_parser!(u32).range(0..=59))]
        min_empties: u32,
        /// Sessions searching side by side (the book is the same whatever their number).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
        threads: u32,
        /// Multi-ProbCut threshold of the searches, hundredths of a sigma (0: off; `duel
        /// nboard`'s default is 150).
        #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(i32).range(0..=1000))]
        probcut: i32,
    },
    /// What an Othello book holds: positions by number of discs, the value and line from the
    /// start, and which positions of an openings file (one position a line) it has.
    OthelloBookStats {
        book: PathBuf,
        #[arg(long)]
        openings: Option<PathBuf>,
    },
    /// Textbook against pattern at equal fixed depth, each opening played with both colours.
    Match {
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Distinct openings (each gives two games).
        #[arg(long, default_value_t = 100)]
        openings: usize,
        /// Random legal plies per opening.
        #[arg(long, default_value_t = 8)]
        plies: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        weights: Option<PathBuf>,
    },
    /// Chess self-play at fixed nodes per move from random openings; appends quiet positions
    /// labelled with the game result (`FEN;result`, result for White) to a file.
    ChessGen {
        /// Evaluator of both players.
        #[arg(long, value_enum, default_value_t = ChessEval::Pst)]
        eval: ChessEval,
        /// Weights for `--eval strong` (default: the committed ones).
        #[arg(long)]
        weights: Option<PathBuf>,
        #[command(flatten)]
        run: ThreadedArgs,
        /// Both players use the network evaluation from this net file (`--eval` is then
        /// not given): game results from the best evaluator duel has.
        #[arg(long, conflicts_with_all = ["eval", "weights"])]
        net: Option<PathBuf>,
    },
    /// Texel fit of chess Strong's weights on `chess-gen` files; writes a weights file.
    ChessFit {
        #[command(flatten)]
        texel: TexelArgs,
        /// Share of each label taken from the search value recorded with the position (0 to 1;
        /// positions recorded without one keep their game result).
        #[arg(long, default_value_t = 0.0)]
        value_weight: f64,
    },
    /// Positions near those of `chess-gen` files, a few random moves away, labelled by a short
    /// search with Strong or a net (`FEN;?;value`): cheap data for `chess-nnue`.
    ChessLabel {
        /// `chess-gen` files (the FEN of each line is used).
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        /// The file to append to.
        #[arg(long)]
        out: PathBuf,
        /// Positions made from each input line.
        #[arg(long, default_value_t = 2)]
        variations: u32,
        /// Random legal moves played before each search: 0 to this many.
        #[arg(long, default_value_t = 4)]
        max_random_plies: u32,
        #[arg(long, default_value_t = 1000)]
        nodes: u64,
        /// Use every n-th input line only.
        #[arg(long, default_value_t = 1)]
        every: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Search with the network evaluation from this net file instead of Strong: once a
        /// net plays better, its searches make the better labels.
        #[arg(long)]
        net: Option<PathBuf>,
    },
    /// Trains chess's network evaluation on `chess-gen` files; writes a net file.
    ChessNnue {
        /// `FEN;result;value` files (validation holds out the tail of the last one).
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        /// The net file to write.
        #[arg(long)]
        out: PathBuf,
        /// Percent of positions (the files' tail) held out for validation.
        #[arg(long, default_value_t = 5)]
        valid_percent: u32,
        #[arg(long, default_value_t = 30)]
        epochs: u32,
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        /// Adam's step size.
        #[arg(long, default_value_t = 0.001)]
        learning_rate: f32,
        /// The step size is multiplied by `--drop` after this share of the epochs.
        #[arg(long, default_value_t = 0.75)]
        drop_at: f32,
        #[arg(long, default_value_t = 0.1)]
        drop: f32,
        /// Texel's K: the label of a value v is σ(K·v/400). Strong's fits found 1.17 to 1.21.
        #[arg(long, default_value_t = 1.2)]
        k: f32,
        /// Share of each label taken from the recorded search value (0 to 1).
        #[arg(long, default_value_t = 0.5)]
        value_weight: f32,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed of the starting weights and of the shuffles.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Positions held out for validation (then every `--data` position trains).
        #[arg(long)]
        valid: Option<PathBuf>,
        /// Train the net to add to Strong's value instead of replacing it.
        #[arg(long)]
        residual: bool,
        /// Also train on each position in which neither side may castle mirrored left to
        /// right (files a and h swapped), with the same label: twice the positions from the
        /// same searches.
        #[arg(long)]
        mirror: bool,
        /// Sets of output weights, chosen by the number of pieces on the board (1 to 31).
        #[arg(long, default_value_t = 1)]
        buckets: usize,
        /// Sets of feature weights, chosen by where each side's king stands (1 or 4; see
        /// `duel_chess::nnue::king_bucket`). A net of one may start (`--init`) a training of
        /// four, and the new net then starts as the old one.
        #[arg(long, default_value_t = 1)]
        king_buckets: usize,
        /// A net file to start from instead of random weights (same hidden size, base and
        /// buckets), to train a net that plays on new data.
        #[arg(long)]
        init: Option<PathBuf>,
    },
    /// Gomoku self-play with Patterns at fixed nodes per move on one thread, from random
    /// openings; appends the positions of ordinary evaluation labelled with the game's result
    /// (`moves;result`, result for Black) to a file.
    GomokuGen {
        #[command(flatten)]
        play: SelfPlayArgs,
        /// Patterns' weights for both players (default: the committed ones).
        #[arg(long)]
        weights: Option<PathBuf>,
        #[command(flatten)]
        games_like: gomoku::GameConfig,
    },
    /// Texel fit of Patterns' weights on `gomoku-gen` files; writes a weights file.
    GomokuFit {
        #[command(flatten)]
        texel: TexelArgs,
    },
    /// Xiangqi self-play at fixed nodes per move from random openings; appends quiet positions
    /// labelled with the game result and the search's value (`FEN;result;value`, for Red).
    XiangqiGen {
        /// Evaluator of both players.
        #[arg(long, value_enum, default_value_t = XiangqiEval::Strong)]
        eval: XiangqiEval,
        /// Weights for `--eval strong` (default: the committed ones).
        #[arg(long)]
        weights: Option<PathBuf>,
        #[command(flatten)]
        run: ThreadedArgs,
    },
    /// Texel fit of xiangqi Strong's weights on `xiangqi-gen` files; writes a weights file.
    XiangqiFit {
        #[command(flatten)]
        texel: TexelArgs,
        /// Share of each label taken from the recorded search value (0 to 1).
        #[arg(long, default_value_t = 0.0)]
        value_weight: f64,
    },
    /// Xiangqi Strong against Material at equal fixed nodes per move, each opening with both
    /// colours.
    XiangqiMatch {
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        #[command(flatten)]
        m: MatchArgs,
    },
    /// Chess Strong against Pst at equal fixed nodes per move, each opening with both colours.
    ChessMatch {
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        #[command(flatten)]
        m: MatchArgs,
    },
}

fn load_chess_weights(path: &PathBuf) -> Result<duel_chess::strong::Weights> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    duel_chess::strong::Weights::parse(&text).with_context(|| path.display().to_string())
}

/// Xiangqi Strong's weights from `path`, or the committed ones.
fn load_xiangqi_weights(path: Option<&PathBuf>) -> Result<duel_xiangqi::strong::Weights> {
    let Some(path) = path else {
        return Ok(duel_xiangqi::strong::Weights::committed().clone());
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    duel_xiangqi::strong::Weights::parse(&text).with_context(|| path.display().to_string())
}

/// Self-play games of a linear evaluator's game with `eval` on both sides, as `chess-gen` and
/// `xiangqi-gen` play them, appended to the `--out` file.
fn self_play<G: linear::Linear, E: duel_core::Evaluator<G>>(
    eval: E,
    run: ThreadedArgs,
) -> Result<()> {
    let SelfPlayArgs {
        out,
        games,
        nodes,
        seed,
    } = run.play;
    let threads = run.threads;
    if nodes == 0 || threads == 0 {
        bail!("--nodes and --threads must be at least 1");
    }
    let mut w = open_for_append(&out)?;
    let start = Instant::now();
    let cfg = linear::GenConfig {
        games,
        nodes,
        seed,
        threads,
    };
    let n = linear::generate(eval, &cfg, &mut w, progress(start));
    report_written(n, &mut w, &out, &format!("{games} games"), start)
}

/// Plays an evaluator match, its openings' lines on stderr, and prints the summary.
fn print_match(
    nodes: u64,
    openings: usize,
    play: impl FnOnce(fn(&str)) -> Result<String, duel_arena::ArenaError>,
) -> Result<()> {
    if nodes == 0 || openings == 0 {
        bail!("--nodes and --openings must be at least 1");
    }
    print!("{}", play(|line| eprintln!("{line}"))?);
    std::io::stdout().flush()?;
    Ok(())
}

/// A Texel fit of a linear evaluator from `init`, as `chess-fit` and `xiangqi-fit` run it:
/// prints the summary and writes the weights file, `text` turning the fitted pairs into its
/// text after a header that starts with `what`.
fn linear_fit<G: linear::Linear>(
    texel: &TexelArgs,
    value_weight: f64,
    init: &[[i32; 2]],
    what: &str,
    text: impl FnOnce(Vec<[i32; 2]>, &str) -> Result<String>,
) -> Result<()> {
    if !(0.0..=1.0).contains(&value_weight) {
        bail!("need a --value-weight from 0 to 1");
    }
    let start = Instant::now();
    let data_text = texel.check_and_read()?;
    let mut data = linear::Dataset::<G>::parse(&data_text).context("data")?;
    enough(data.len(), start)?;
    let cfg = linear::FitConfig {
        valid_percent: texel.valid_percent,
        epochs: texel.epochs,
        learning_rate: texel.learning_rate,
        lambda: texel.lambda,
        value_weight,
    };
    let r = linear::fit(&mut data, init, &cfg, |line| eprintln!("{line}"));
    print!("{}", r.summary);
    let header = format!(
        "duel {what}.\nWritten by duel-train {}-fit ({} positions, K = {:.4}); see README.md.",
        <G as duel_core::Game>::NAME,
        data.len(),
        r.k
    );
    write_weights(&texel.out, &text(r.weights, &header)?, start)
}

fn load_gomoku_weights(path: Option<&PathBuf>) -> Result<duel_gomoku::PatternWeights> {
    let Some(path) = path else {
        return Ok(duel_gomoku::PatternWeights::committed().clone());
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    duel_gomoku::PatternWeights::parse(&text).with_context(|| path.display().to_string())
}

fn load_net(path: &std::path::Path) -> Result<duel_chess::nnue::Network> {
    duel_chess::nnue::Network::read(path).with_context(|| path.display().to_string())
}

fn load_pattern(weights: Option<&PathBuf>) -> Result<Pattern> {
    match weights {
        None => Ok(Pattern::default()),
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            Pattern::from_bytes(&bytes).with_context(|| path.display().to_string())
        }
    }
}

/// The files' text, one after the other, each ending its last line.
fn read_all(files: &[PathBuf]) -> Result<String> {
    let mut text = String::new();
    for f in files {
        let t = std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        text.push_str(&t);
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    Ok(text)
}

/// Writes a fit's weights file and says so.
fn write_weights(out: &Path, text: &str, start: Instant) -> Result<()> {
    std::fs::write(out, text).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "wrote {} in {:.1} s",
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A generation's progress report: a line every hundred games.
fn progress(start: Instant) -> impl Fn(u32, u64) {
    move |done, recs| {
        if done.is_multiple_of(100) {
            eprintln!(
                "{done} games, {recs} positions, {:.1} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
}

/// Refuses a data set too small to learn from; reports its size.
fn enough(positions: usize, start: Instant) -> Result<()> {
    if positions < 10 {
        bail!("data: {positions} positions are too few to learn from");
    }
    eprintln!(
        "{positions} positions read in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Opens a generation run's output to append records to (runs add to one file).
fn open_for_append(out: &Path) -> Result<BufWriter<std::fs::File>> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map(BufWriter::new)
        .with_context(|| format!("opening {}", out.display()))
}

/// Flushes a generation run's output and says what it wrote, or names the write that failed.
/// `from` says what the positions were made from ("40 games").
fn report_written<N: std::fmt::Display>(
    n: std::io::Result<N>,
    w: &mut impl Write,
    out: &Path,
    from: &str,
    start: Instant,
) -> Result<()> {
    let n = n
        .and_then(|n| w.flush().map(|()| n))
        .with_context(|| format!("writing {}", out.display()))?;
    println!(
        "{from}, {n} positions in {:.1} s -> {}",
        start.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Gen {
            out,
            games,
            first_game,
            seed,
            eval,
            weights,
            depth,
            solve_empties,
            min_random_plies,
            max_random_plies,
            random_percent,
            endgame_random_percent,
            probcut,
        } => {
            if min_random_plies > max_random_plies {
                bail!("--min-random-plies is above --max-random-plies");
            }
            let cfg = GenConfig {
                games,
                seed,
                first_game,
                random_plies: (min_random_plies, max_random_plies),
                random_percent,
                endgame_random_percent,
                depth,
                solve_empties,
                probcut,
            };
            let mut w = open_for_append(&out)?;
            let start = Instant::now();
            let mut next_report = 100;
            let report = |done: u32, recs: u64| {
                if done >= next_report || done == games {
                    next_report += 100;
                    eprintln!(
                        "{done} games, {recs} positions, {:.1} s",
                        start.elapsed().as_secs_f64()
                    );
                }
            };
            let n = match eval {
                EvalName::Textbook => data::generate(&cfg, Textbook::default(), &mut w, report),
                EvalName::Pattern => {
                    let p = load_pattern(weights.as_ref())?;
                    data::generate(&cfg, p, &mut w, report)
                }
            };
            report_written(n, &mut w, &out, &format!("{games} games"), start)?;
        }
        Command::Fit {
            data: files,
            out,
            valid_percent,
            iters,
            lambda,
            margin,
            bootstrap,
        } => {
            if !(0.0..=1.0).contains(&bootstrap) {
                bail!("--bootstrap {bootstrap}: a share from 0 to 1");
            }
            let mut records = Vec::new();
            for f in &files {
                let mut r =
                    data::read_records(f).with_context(|| format!("reading {}", f.display()))?;
                records.append(&mut r);
            }
            let cfg = fit::FitConfig {
                valid_percent,
                iters,
                lambda,
                margin,
                bootstrap,
            };
            let (pattern, summary) = fit::fit(&records, &cfg);
            print!("{summary}");
            std::fs::write(&out, pattern.to_bytes())
                .with_context(|| format!("writing {}", out.display()))?;
            println!("wrote {}", out.display());
        }
        Command::OthelloBook {
            out,
            positions,
            depth,
            batch,
            min_empties,
            threads,
            probcut,
        } => {
            let plan = book::Plan {
                positions,
                depth,
                batch: batch as usize,
                min_empties,
                threads: threads as usize,
                probcut,
            };
            book::build(&out, &plan)?;
        }
        Command::OthelloBookStats { book, openings } => {
            print!("{}", book::stats(&book, openings.as_deref())?);
        }
        Command::OthelloProbcut {
            samples,
            out,
            weights,
            plan,
        } => {
            let measured = match samples {
                Some(path) => {
                    let text = std::fs::read_to_string(&path)
                        .with_context(|| format!("reading {}", path.display()))?;
                    probcut::read_samples(&text)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
                }
                None => {
                    // Games never stop in a position of no empty square with a move to play:
                    // a range without any would be searched for forever.
                    if !(1 <= plan.min_empties
                        && plan.min_empties <= plan.max_empties
                        && plan.max_empties <= 60)
                    {
                        bail!(
                            "--min-empties {} --max-empties {}: a range within 1 to 60 is needed",
                            plan.min_empties,
                            plan.max_empties
                        );
                    }
                    if plan.depth < 2 {
                        bail!(
                            "--depth {}: at least 2 (a test needs a shallower depth)",
                            plan.depth
                        );
                    }
                    let pattern = load_pattern(weights.as_ref())?;
                    let start = Instant::now();
                    let s = probcut::measure(&pattern, &plan, |line| {
                        eprintln!("{line}, {:.1} s", start.elapsed().as_secs_f64());
                    });
                    if let Some(path) = &out {
                        std::fs::write(path, probcut::write_samples(&s))
                            .with_context(|| format!("writing {}", path.display()))?;
                    }
                    s
                }
            };
            print!("{}", probcut::fit(&measured).1);
        }
        Command::Speed {
            data: file,
            weights,
        } => {
            let records =
                data::read_records(&file).with_context(|| format!("reading {}", file.display()))?;
            let pattern = load_pattern(weights.as_ref())?;
            print!("{}", matches::speed(&records, &pattern));
            // What a process pays once to have the evaluator: reading, checking and folding.
            let bytes = match &weights {
                Some(p) => std::fs::read(p).with_context(|| format!("reading {}", p.display()))?,
                None => duel_othello::pattern::COMMITTED.to_vec(),
            };
            let mut times: Vec<f64> = (0..5)
                .map(|_| {
                    let t = Instant::now();
                    let p = Pattern::from_bytes(&bytes).map(|p| p.weights().len());
                    std::hint::black_box(p.ok());
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            println!(
                "load: {} bytes, {} weights, {:.1} ms (median of 5: parse, check, fold)",
                bytes.len(),
                pattern.weights().len(),
                times[2]
            );
        }
        Command::Match {
            depth,
            openings,
            plies,
            seed,
            weights,
        } => {
            let pattern = load_pattern(weights.as_ref())?;
            let result = matches::play_match(pattern, depth, openings, plies, seed, |line| {
                eprintln!("{line}")
            })?;
            print!("{result}");
            std::io::stdout().flush()?;
        }
        Command::ChessGen {
            eval,
            weights,
            run,
            net,
        } => {
            let net = net.as_deref().map(load_net).transpose()?;
            if weights.is_some() && matches!(eval, ChessEval::Pst) {
                bail!("--weights goes with --eval strong");
            }
            match (net, eval) {
                (Some(net), _) => self_play(duel_chess::Net::new(net), run)?,
                (None, ChessEval::Pst) => self_play::<Chess, _>(duel_chess::Pst, run)?,
                (None, ChessEval::Strong) => {
                    let weights = match &weights {
                        Some(p) => load_chess_weights(p)?,
                        None => duel_chess::strong::Weights::committed().clone(),
                    };
                    self_play(duel_chess::Strong::new(weights), run)?;
                }
            }
        }
        Command::ChessFit {
            texel,
            value_weight,
        } => {
            let init = match &texel.init {
                Some(p) => load_chess_weights(p)?,
                None => duel_chess::strong::Weights::hand(),
            };
            let what = "chess Strong weights: `name mg eg`, centipawns, features White minus Black";
            linear_fit::<Chess>(
                &texel,
                value_weight,
                &chess::to_pairs(&init),
                what,
                |w, h| Ok(chess::from_pairs(&w).to_text(h)),
            )?;
        }
        Command::XiangqiFit {
            texel,
            value_weight,
        } => {
            let init = match &texel.init {
                Some(p) => load_xiangqi_weights(Some(p))?,
                None => duel_xiangqi::strong::Weights::hand(),
            };
            let what = "xiangqi Strong weights: `name mg eg`, hundredths of a soldier, features \
                        Red minus Black";
            linear_fit::<Xiangqi>(&texel, value_weight, init.as_slice(), what, |w, h| {
                let w = duel_xiangqi::strong::Weights::from_pairs(w);
                Ok(w.context("the fit gave a pair per feature")?.to_text(h))
            })?;
        }
        Command::XiangqiGen { eval, weights, run } => match eval {
            XiangqiEval::Material if weights.is_some() => {
                bail!("--weights goes with --eval strong")
            }
            XiangqiEval::Material => self_play::<Xiangqi, _>(duel_xiangqi::Material, run)?,
            XiangqiEval::Strong => {
                let strong = duel_xiangqi::Strong::new(load_xiangqi_weights(weights.as_ref())?);
                self_play(strong, run)?;
            }
        },
        Command::XiangqiMatch { nodes, m } => {
            let (openings, seed, weights) = (m.openings, m.seed, m.weights);
            let w = load_xiangqi_weights(weights.as_ref())?;
            let strong = ("strong", duel_xiangqi::Strong::new(w));
            let material = ("material", duel_xiangqi::Material);
            print_match(nodes, openings, |log| {
                linear::play_match(strong, material, nodes, openings, seed, log)
            })?;
        }
        Command::GomokuGen {
            play,
            weights,
            games_like,
        } => {
            if play.nodes == 0 || games_like.random_percent >= 100 {
                bail!("--nodes must be at least 1 and --random-percent below 100");
            }
            let start = Instant::now();
            let eval = duel_gomoku::Patterns::new(load_gomoku_weights(weights.as_ref())?);
            let mut w = open_for_append(&play.out)?;
            let cfg = gomoku::GenConfig {
                games: play.games,
                nodes: play.nodes,
                seed: play.seed,
                like: games_like,
            };
            let n = gomoku::generate(eval, &cfg, &mut w, progress(start)).context("gomoku-gen")?;
            let from = format!("{} games", play.games);
            report_written(Ok(n), &mut w, &play.out, &from, start)?;
        }
        Command::GomokuFit { texel } => {
            let init = match &texel.init {
                Some(p) => load_gomoku_weights(Some(p))?,
                None => duel_gomoku::PatternWeights::hand(),
            };
            let start = Instant::now();
            let text = texel.check_and_read()?;
            let data = gomoku::Dataset::parse(&text).context("data")?;
            enough(data.len(), start)?;
            let cfg = gomoku::FitConfig {
                valid_percent: texel.valid_percent,
                adam: duel_train::texel::Adam {
                    epochs: texel.epochs,
                    learning_rate: texel.learning_rate,
                    lambda: texel.lambda,
                    log_every: 100,
                },
            };
            let r = gomoku::fit(&data, &init, &cfg, |line| eprintln!("{line}"));
            print!("{}", r.summary);
            let header = format!(
                "duel Gomoku Patterns weights: `name to_move waiting`, in eighths; see README.md.\n\
                 Written by duel-train gomoku-fit ({} positions, K = {:.4}).",
                data.len(),
                r.k
            );
            write_weights(&texel.out, &r.weights.to_text(&header), start)?;
        }
        Command::ChessLabel {
            data: files,
            out,
            variations,
            max_random_plies,
            nodes,
            every,
            seed,
            threads,
            net,
        } => {
            if nodes == 0 || threads == 0 || every == 0 || variations == 0 {
                bail!("--nodes, --threads, --every and --variations must be at least 1");
            }
            // The whole record is checked, as the trainer will read it, not the FEN alone.
            let roots = chess::records(&read_all(&files)?)
                .step_by(every)
                .map(|r| r.map(|r| r.pos))
                .collect::<Result<Vec<_>, _>>()
                .context("data")?;
            let net = net.as_deref().map(load_net).transpose()?;
            let mut w = open_for_append(&out)?;
            let start = Instant::now();
            let cfg = chess::LabelConfig {
                variations,
                max_random_plies,
                nodes,
                seed,
                threads,
            };
            let total = roots.len();
            let report = |done: usize, recs: u64| {
                if done.is_multiple_of(10_000) {
                    eprintln!(
                        "{done} of {total} inputs, {recs} positions, {:.1} s",
                        start.elapsed().as_secs_f64()
                    );
                }
            };
            let n = match net {
                None => chess::label(duel_chess::Strong::default(), &roots, &cfg, &mut w, report),
                Some(net) => chess::label(duel_chess::Net::new(net), &roots, &cfg, &mut w, report),
            };
            report_written(n, &mut w, &out, &format!("{total} inputs"), start)?;
        }
        Command::ChessNnue {
            data: files,
            out,
            valid_percent,
            epochs,
            batch,
            learning_rate,
            drop_at,
            drop,
            k,
            value_weight,
            threads,
            seed,
            residual,
            valid,
            buckets,
            king_buckets,
            init,
            mirror,
        } => {
            let positive = |x: f32| x.is_finite() && x > 0.0;
            if !(1..=duel_chess::nnue::MAX_BUCKETS).contains(&buckets) {
                bail!(
                    "--buckets {buckets}: 1 to {} are possible",
                    duel_chess::nnue::MAX_BUCKETS
                );
            }
            if !duel_chess::nnue::KING_BUCKETS.contains(&king_buckets) {
                bail!(
                    "--king-buckets {king_buckets}: {:?} are possible",
                    duel_chess::nnue::KING_BUCKETS
                );
            }
            if valid_percent >= 100
                || epochs == 0
                || batch == 0
                || threads == 0
                || !positive(learning_rate)
                || !positive(k)
                || !(0.0..=1.0).contains(&drop_at)
                || !(0.0..=1.0).contains(&drop)
                || !(0.0..=1.0).contains(&value_weight)
            {
                bail!(
                    "need --valid-percent below 100, --epochs, --batch and --threads at least 1, a \
                     positive --learning-rate and --k, and --drop-at, --drop and --value-weight \
                     from 0 to 1"
                );
            }
            let base = if residual {
                duel_chess::nnue::Base::Strong
            } else {
                duel_chess::nnue::Base::None
            };
            let init = match &init {
                None => None,
                Some(p) => {
                    let init = || format!("--init {}", p.display());
                    let net = duel_chess::nnue::Network::read(p).with_context(init)?;
                    let start = nnue::FloatNet::start_from(&net, buckets, king_buckets, base)
                        .with_context(init)?;
                    Some(start)
                }
            };
            let start = Instant::now();
            let text = read_all(&files)?;
            let data =
                nnue::NetData::parse(&text, k, value_weight, base, mirror).context("data")?;
            std::mem::drop(text);
            enough(data.len(), start)?;
            let cfg = nnue::NetConfig {
                epochs,
                batch,
                learning_rate,
                drop_at,
                drop,
                k,
                valid_percent,
                threads,
                seed,
                buckets,
                king_buckets,
                init,
            };
            let held_out = match &valid {
                None => None,
                Some(f) => {
                    let t = read_all(std::slice::from_ref(f))?;
                    let v = nnue::NetData::parse(&t, k, value_weight, base, false)
                        .with_context(|| f.display().to_string())?;
                    if v.is_empty() {
                        bail!("{}: no positions to validate on", f.display());
                    }
                    Some(v)
                }
            };
            let r = nnue::train(&data, held_out.as_ref(), &cfg, |line| {
                eprintln!("{line} ({:.0} s)", start.elapsed().as_secs_f64())
            });
            println!(
                "validation loss {:.6} at the start, {:.6} at the end",
                r.start_loss, r.end_loss
            );
            print!("{}", r.summary);
            std::fs::write(&out, r.net.to_bytes())
                .with_context(|| format!("writing {}", out.display()))?;
            println!(
                "wrote {} in {:.1} s",
                out.display(),
                start.elapsed().as_secs_f64()
            );
        }
        Command::ChessMatch { nodes, m } => {
            let (openings, seed, weights) = (m.openings, m.seed, m.weights);
            let w = match &weights {
                Some(p) => load_chess_weights(p)?,
                None => duel_chess::strong::Weights::committed().clone(),
            };
            let strong = ("strong", duel_chess::Strong::new(w));
            print_match(nodes, openings, |log| {
                linear::play_match(strong, ("pst", duel_chess::Pst), nodes, openings, seed, log)
            })?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("duel-train: {e:#}");
            ExitCode::FAILURE
        }
    }
}
