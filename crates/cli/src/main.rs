//! `duel`: play, analyse, solve and study two-player board games from the terminal.
//!
//! Every subcommand takes the game by name and the same flags for every game; the engine facade
//! (`duel-engine`) does the work and this binary only reads flags and writes text.

mod args;
mod commands;
mod matches;
mod play;
mod serve;
mod show;
mod suite;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use args::{EngineArgs, LimitArgs, PositionArgs};

/// A game-tree search engine for two-player board games.
#[derive(Debug, Parser)]
#[command(name = "duel", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Play in the terminal: you against the engine, two people, or the engine against itself.
    Play(play::PlayArgs),
    /// Search a position and print one line per completed depth.
    Analyze {
        #[arg(help = crate::args::game_help())]
        game: String,
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// The exact value of a position and of each move, each move solved in turn with its
    /// progress shown.
    #[command(after_help = "\
A long solve prints a line at each step (each null-window probe or window of each move) and \
every two seconds or so, with its nodes, time and speed. Without --time or --nodes, positions \
too far from the end to finish in minutes are refused at once (Othello: more than 30 empty \
squares; Connect Four: the empty board); with a limit, any position is tried. \
Tic-tac-toe is solved at once, whatever the limits.

Exit status: 0 when solved; 3 when --time or --nodes stopped the solve first (the moves \
solved and the bounds proven are printed); 2 for a usage error; 1 for any other error, \
a position refused as too far from the end among them.")]
    Solve {
        #[arg(help = crate::args::game_help())]
        game: String,
        #[command(flatten)]
        position: PositionArgs,
        /// Stop after about this much time (500ms, 2s, 1.5s, 1m), printing what is known.
        #[arg(long, short = 't', value_name = "TIME", value_parser = args::parse_duration)]
        time: Option<std::time::Duration>,
        /// Stop after about this many nodes, printing what is known.
        #[arg(long, short = 'n', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Threads for the solver (Othello's shares the principal variation's moves; the
        /// other games' solvers use one). A node limit keeps a solve on one thread.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
    /// Count the positions exactly DEPTH plies ahead (move generation check).
    Perft {
        #[arg(help = crate::args::game_help())]
        game: String,
        /// Plies to look ahead.
        depth: u32,
        /// Also print the count below each move.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Search fixed positions to a fixed depth (one thread, default options): nodes, time,
    /// nodes/s and the node-count signature.
    Bench {
        /// One game only (default: every game).
        game: Option<String>,
    },
    /// The games duel plays: each with its names, notation, evaluators and protocols.
    Games,
    /// Run several algorithms on the same position and depth, side by side.
    Compare(commands::CompareArgs),
    /// Draw the tree an algorithm explores, with its backed-up values and cut-offs.
    Tree(commands::TreeArgs),
    /// Speak the NBoard protocol (Othello) on standard input and output, for the NBoard GUI.
    Nboard {
        /// Threads for the midgame search (Lazy SMP) and the endgame solver.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Midgame search depth until the GUI sets one with `set depth`.
        #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Solve positions with at most this many empty squares exactly.
        #[arg(long, value_name = "N", default_value_t = duel_stdio::nboard::SOLVE_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=24))]
        solve_empties: u32,
        /// Transposition table size in MiB.
        #[arg(long, value_name = "MB", default_value_t = 16, value_parser = args::hash_mb)]
        hash: usize,
        /// Think this long on every move (500ms, 2s) instead of searching to a depth; `set
        /// depth` then sets the depth of hints and analysis only.
        #[arg(long, short = 't', value_name = "TIME", value_parser = args::parse_duration, conflicts_with = "tc")]
        time: Option<std::time::Duration>,
        /// Play on a game clock, seconds plus increment (`60+1`, `2+0.02`; `1/move` is --time
        /// 1s) instead of a depth; the clock of the game NBoard sends, when it has one, replaces it.
        #[arg(long, value_name = "TC", value_parser = duel_arena::TimeControl::parse)]
        tc: Option<duel_arena::TimeControl>,
        /// Milliseconds kept back from the clock on every move for the pipes and the GUI (more
        /// when the game's move times show more).
        #[arg(long, value_name = "MS", default_value_t = duel_stdio::nboard::OVERHEAD.as_millis() as u64, value_parser = clap::value_parser!(u64).range(0..=10_000))]
        move_overhead: u64,
        /// Selectivity of the midgame search, Multi-ProbCut's confidence in percent as Edax
        /// names its levels: 73, 87, 95, 98, 99, or 100 to search without it.
        #[arg(long, value_name = "PCT", default_value_t = duel_stdio::nboard::SELECTIVITY, value_parser = args::selectivity)]
        selectivity: u32,
        /// Play from an opening book and show its moves in hints: alone, the one built into
        /// duel; with a FILE, that book (new if the file does not exist), which NBoard's
        /// `learn` adds the game to. Off by default, as matches from XOT starts want.
        #[arg(long, value_name = "FILE", num_args = 0..=1)]
        book: Option<Option<std::path::PathBuf>>,
    },
    /// Speak the Gomocup (Piskvork) protocol (Gomoku) on standard input and output, for
    /// Piskvork, the Gomocup manager and other gomoku GUIs. A copy or link of duel named
    /// `pbrain-duel` does this without arguments, as the managers run their brains.
    Gomocup {
        /// Transposition table size in MiB (at most half of `INFO max_memory`).
        #[arg(long, value_name = "MB", default_value_t = 64, value_parser = args::hash_mb)]
        hash: usize,
        /// The evaluator (`duel games` lists Gomoku's).
        #[arg(long, value_name = "NAME")]
        eval: Option<String>,
    },
    /// Play a match of any game between duel (in process, or any engine) and another player
    /// (duel in process, or a UCI, xboard, UCCI, NBoard or Gomocup engine): balanced openings, colours
    /// alternated, clocks kept, games saved, Elo with its 95% interval; shards with --shard.
    Match(Box<matches::MatchArgs>),
    /// Merge the result files of a match's shards (`duel match --shard K/N --results FILE`)
    /// into the report of the whole match.
    MatchMerge {
        /// The shards' result files, one per shard.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
    },
    /// Run a chess test suite (EPD with bm/am, e.g. data/chess/wac.epd) under one limit per
    /// position and count the positions solved.
    Suite(suite::SuiteArgs),
    /// Serve the browser front end and its JSON API (docs/API.md): every game to play,
    /// analyse and learn from, on http://127.0.0.1:8080/ unless told otherwise.
    Serve(serve::ServeArgs),
    /// Speak the UCCI protocol (xiangqi) on standard input and output, for xiangqi GUIs and
    /// the managers that run UCCI engines such as ElephantEye.
    Ucci {
        /// The game: xiangqi is what UCCI GUIs expect; any game works for scripted use.
        #[arg(long, default_value = "xiangqi")]
        game: String,
    },
    /// Speak the UCI protocol on standard input and output, for chess GUIs and tournament
    /// managers (Cute Chess, Arena, Banksia, python-chess, ...), and for xiangqi GUIs in
    /// Fairy-Stockfish's or Pikafish's dialect.
    Uci {
        /// The game [default: the dialect's: chess, or xiangqi for pikafish]; any game works
        /// for scripted use.
        #[arg(long)]
        game: Option<String>,
        /// Whose UCI to speak: fairy (Stockfish's, and Fairy-Stockfish's for the other games:
        /// UCI_Variant, xiangqi ranks counted from 1) or pikafish (xiangqi as Pikafish speaks
        /// it: ICCS moves, ranks from 0, no UCI_Variant).
        #[arg(long, value_name = "DIALECT", default_value = "fairy", value_parser = uci_dialect)]
        dialect: duel_stdio::uci::UciDialect,
    },
}

fn run(cli: Cli, out: &mut dyn Write) -> anyhow::Result<()> {
    match cli.command {
        Command::Play(a) => play::play(&a, out),
        Command::Analyze {
            game,
            position,
            limits,
            engine,
        } => commands::analyze(&game, &position, &limits, &engine, out),
        Command::Solve {
            game,
            position,
            time,
            nodes,
            threads,
        } => commands::solve(&game, &position, time, nodes, args::threads(threads), out),
        Command::Perft {
            game,
            depth,
            divide,
            position,
        } => commands::perft(&game, &position, depth, divide, out),
        Command::Bench { game } => commands::bench(game.as_deref(), out),
        Command::Games => commands::games(out),
        Command::Compare(a) => commands::compare(&a, out),
        Command::Tree(a) => commands::tree(&a, out),
        Command::Match(a) => matches::play_match(&a, out),
        Command::MatchMerge { files } => matches::merge(&files, out),
        Command::Suite(a) => suite::suite(&a, out),
        Command::Serve(a) => serve::serve(&a, out),
        Command::Nboard { .. }
        | Command::Uci { .. }
        | Command::Ucci { .. }
        | Command::Gomocup { .. } => {
            unreachable!("main runs the protocol loops itself")
        }
    }
}

/// `--dialect`'s value, for clap.
fn uci_dialect(text: &str) -> Result<duel_stdio::uci::UciDialect, String> {
    text.parse()
        .map_err(|e: duel_stdio::uci::UnknownDialect| e.to_string())
}

/// Whether the program was started as a Gomocup brain: managers run `pbrain-NAME` with no
/// arguments.
fn started_as_brain() -> bool {
    let arg0 = std::env::args_os().next().unwrap_or_default();
    std::path::Path::new(&arg0).file_stem().is_some_and(|s| {
        s.to_string_lossy()
            .to_ascii_lowercase()
            .starts_with("pbrain-")
    }) && std::env::args_os().len() == 1
}

fn main() -> ExitCode {
    let cli = if started_as_brain() {
        Cli::parse_from(["duel", "gomocup"])
    } else {
        Cli::parse()
    };
    if let Command::Gomocup { hash, eval } = cli.command {
        let opts = duel_stdio::gomocup::GomocupOptions {
            tt_mb: hash,
            eval,
            ..Default::default()
        };
        if let Err(e) = duel_stdio::gomocup::run(std::io::stdin(), std::io::stdout(), opts) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    // The protocol loop owns standard input and output for the whole session (a reader thread
    // and a search thread write to them), so it starts before anything locks them.
    if let Command::Nboard {
        depth,
        solve_empties,
        hash,
        time,
        tc,
        move_overhead,
        selectivity,
        threads,
        book,
    } = cli.command
    {
        use duel_stdio::nboard::{BookChoice, Pace, RecordClock};
        let pace = match (time, tc) {
            (Some(t), _) => Pace::MoveTime(t),
            (None, Some(tc)) => match tc.movetime {
                Some(t) => Pace::MoveTime(t),
                None => Pace::Clock(RecordClock {
                    base: tc.base,
                    increment: tc.increment,
                }),
            },
            (None, None) => Pace::Depth,
        };
        let opts = duel_stdio::nboard::NboardOptions {
            default_depth: depth,
            solve_empties,
            tt_mb: hash,
            pace,
            overhead: std::time::Duration::from_millis(move_overhead),
            selectivity,
            threads: args::threads(threads),
            book: match book {
                None => BookChoice::None,
                Some(None) => BookChoice::Committed,
                Some(Some(path)) => BookChoice::File(path),
            },
            ..Default::default()
        };
        if let Err(e) = duel_stdio::nboard::run(std::io::stdin(), std::io::stdout(), opts) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    if let Command::Ucci { game } = &cli.command {
        let result = duel_engine::game_name(game).and_then(|game| {
            let opts = duel_stdio::ucci::UcciOptions {
                game,
                ..Default::default()
            };
            duel_stdio::ucci::run(std::io::stdin(), std::io::stdout(), opts)
        });
        if let Err(e) = result {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    if let Command::Uci { game, dialect } = &cli.command {
        let game = game.as_deref().unwrap_or(dialect.default_game());
        let result = duel_engine::game_name(game).and_then(|game| {
            let opts = duel_stdio::uci::UciOptions {
                game,
                ..Default::default()
            };
            duel_stdio::uci::run(std::io::stdin(), std::io::stdout(), opts, *dialect)
        });
        if let Err(e) = result {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = run(cli, &mut out).and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A reader that went away (`duel perft ... | head`) is not an error of ours.
            let broken_pipe = e
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe);
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            let _ = out.flush();
            eprintln!("error: {e:#}");
            if e.downcast_ref::<commands::Unfinished>().is_some() {
                return ExitCode::from(commands::Unfinished::EXIT_CODE);
            }
            ExitCode::FAILURE
        }
    }
}
