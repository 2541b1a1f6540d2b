//! `play`: a game in the terminal. Moves are read from stdin one per line, so a game can be
//! piped in; end of input ends the game cleanly.

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::{Args, ValueEnum};
use duel_arena::TimeControl;
use duel_engine::timeman::{budget, Budget, Clock, Trend};
use duel_engine::{EngineError, Limits, RecordInfo, Session, Side};

use crate::args::{EngineArgs, LimitArgs, PositionArgs};
use crate::show::{describe, result, score};

/// Who the human plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Human {
    /// The human moves first; the engine replies.
    First,
    /// The engine moves first.
    Second,
    /// Two humans at one keyboard.
    Both,
    /// The engine plays itself.
    None,
}

/// Arguments of `play`.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    #[arg(help = crate::args::game_help())]
    pub game: String,
    /// Which side you play.
    #[arg(long = "as", value_enum, default_value_t = Human::First)]
    pub human: Human,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Write the game record here when the game ends or stops (chess: PGN; Othello: GGF).
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// A game clock for duel, seconds plus increment (`60+1`; `2/move` is --time 2s): each
    /// move within the time manager's limits, the clock shown after it. Yours is not kept.
    #[arg(long, value_name = "TC", value_parser = TimeControl::parse, conflicts_with_all = ["depth", "nodes", "time", "level"])]
    pub tc: Option<TimeControl>,
    /// How hard duel plays, 1 to 10, when no --depth, --nodes, --time or --tc is given: 1 to 4
    /// look that many plies ahead (a beginner can win), 5 to 10 think 0.1, 0.3, 1, 3, 10 and
    /// 30 s a move. Default 7: a second a move.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64), conflicts_with_all = ["depth", "nodes", "time"])]
    pub level: Option<u8>,
}

/// The number of levels, and the one `play` takes when given no strength at all.
const LEVELS: u8 = 10;
const DEFAULT_LEVEL: u8 = 7;

/// A search's limits as the first screen says them: "thinks 1 s a move", "searches to depth 3
/// a move".
fn per_move(l: &Limits) -> String {
    match l {
        Limits {
            depth: None,
            nodes: None,
            time: Some(t),
        } => format!("thinks {} s a move", t.as_secs_f64()),
        _ => format!("searches to {} a move", crate::commands::describe_limits(l)),
    }
}

/// What a level searches to: a depth at the bottom, where a fixed horizon is what makes duel
/// beatable, and above that a time, which plays as well as the machine allows.
fn level_limits(level: u8) -> Limits {
    const TIMES_MS: [u64; 6] = [100, 300, 1_000, 3_000, 10_000, 30_000];
    match level {
        1..=4 => Limits::depth(u32::from(level)),
        _ => {
            let i = usize::from(level.clamp(5, LEVELS) - 5);
            Limits::time(Duration::from_millis(TIMES_MS[i]))
        }
    }
}

/// Kept back on each of duel's moves under `--tc`, for the terminal and the scheduler.
const OVERHEAD: Duration = Duration::from_millis(10);

/// Duel's clocks under `--tc`: time left per side, and the control.
struct Clocks {
    left: [Duration; 2],
    increment: Duration,
}

impl Clocks {
    /// The clock's budget for `side`'s move.
    fn budget(&self, side: Side) -> Budget {
        let clock = Clock {
            left: self.left[side as usize],
            increment: self.increment,
            moves_to_go: None,
        };
        budget(&clock, OVERHEAD)
    }

    /// Charges `used` to `side` and adds the increment.
    fn charge(&mut self, side: Side, used: Duration) {
        let left = &mut self.left[side as usize];
        *left = left.saturating_sub(used) + self.increment;
    }
}

impl Human {
    fn plays(self, side: Side) -> bool {
        match self {
            Human::First => side == Side::First,
            Human::Second => side == Side::Second,
            Human::Both => true,
            Human::None => false,
        }
    }
}

const HELP: &str = "commands: a move, `undo` (take back your last move and the reply), `hint`, \
                    `moves` (list the legal moves), `help`, `quit`";

/// Plays a game on stdin/stdout, then writes its record if asked.
pub fn play(a: &PlayArgs, out: &mut dyn Write) -> Result<()> {
    let mut s = a.engine.open(&a.game)?;
    a.position.apply(s.as_mut())?;
    if let Some(path) = &a.record {
        // Refuse before the game rather than lose it after.
        if s.record(&RecordInfo::default()).is_none() {
            anyhow::bail!("{} has no game record format", s.game());
        }
        if path.is_dir() {
            anyhow::bail!("--record {}: is a directory", path.display());
        }
    }
    let result = game_loop(a, s.as_mut(), out);
    if let Some(path) = &a.record {
        let names = player_names(a.human);
        let date = duel_arena::pgn_date(time::OffsetDateTime::now_utc().date());
        // The players under the game's own names for the sides (xiangqi's Red, Connect Four's
        // X), as its record's roster has them.
        let tags = [
            ("Event", "duel play"),
            ("Site", "?"),
            ("Date", date.as_str()),
            ("Round", "-"),
            (s.side_name(Side::First), names[0]),
            (s.side_name(Side::Second), names[1]),
        ];
        let info = RecordInfo {
            names,
            tags: &tags,
            ..RecordInfo::default()
        };
        let text = s.record(&info).unwrap_or_default();
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("--record {}: {e}", path.display()))?;
        writeln!(out, "record written to {}", path.display())?;
    }
    result
}

/// The names a record gives the first and second player.
fn player_names(human: Human) -> [&'static str; 2] {
    match human {
        Human::First => ["you", "duel"],
        Human::Second => ["duel", "you"],
        Human::Both => ["player 1", "player 2"],
        Human::None => ["duel", "duel"],
    }
}

fn game_loop(a: &PlayArgs, s: &mut dyn Session, out: &mut dyn Write) -> Result<()> {
    let given = a.limits.depth.is_some() || a.limits.nodes.is_some() || a.limits.time.is_some();
    // A level when no other strength is given: `play` is for people, and a fixed default
    // depth would answer at once in one game and take long in another.
    let level = (!given && a.tc.is_none()).then(|| a.level.unwrap_or(DEFAULT_LEVEL));
    let mut limits = match level {
        Some(l) => level_limits(l),
        None => a.limits.limits(&*s),
    };
    let mut clocks = None;
    match a.tc {
        Some(TimeControl {
            movetime: Some(t), ..
        }) => limits = Limits::time(t),
        Some(tc) => {
            clocks = Some(Clocks {
                left: [tc.base; 2],
                increment: tc.increment,
            })
        }
        None => {}
    }
    let name = |s: &dyn Session, side: Side| s.side_name(side);
    let who = match a.human {
        Human::First | Human::Second => {
            let me = if a.human == Human::First {
                Side::First
            } else {
                Side::Second
            };
            format!(
                "you play {}, duel plays {}",
                name(&*s, me),
                name(&*s, me.other())
            )
        }
        Human::Both => "two players".to_string(),
        Human::None => "duel plays both sides".to_string(),
    };
    writeln!(out, "{}: {who}; {}", s.game(), describe(&*s))?;
    if a.human != Human::Both {
        // What a newcomer cannot otherwise tell: how hard duel thinks, and what its scores count.
        let strength = match (&clocks, a.tc) {
            (Some(_), Some(tc)) => format!(
                "plays on a clock of {} s + {} s a move",
                tc.base.as_secs_f64(),
                tc.increment.as_secs_f64()
            ),
            _ => per_move(&limits),
        };
        let level = match level {
            Some(l) => format!("level {l} of {LEVELS}; "),
            None => String::new(),
        };
        writeln!(
            out,
            "duel {strength} ({level}--level 1-{LEVELS}, --depth, --nodes, --time or --tc \
             change it); scores are in {}, from the side to move",
            s.score_unit()
        )?;
    }
    if a.human != Human::None {
        writeln!(out, "{HELP}")?;
    }
    writeln!(out)?;
    write!(out, "{}", s.diagram())?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while s.outcome().is_none() {
        let side = s.side_to_move();
        if !a.human.plays(side) {
            let start = Instant::now();
            let r = match &clocks {
                None => s.search(&limits, &mut |_| {})?,
                Some(c) => {
                    // The clock: no iteration after the soft limit, a stop at the hard one.
                    let b = c.budget(side);
                    let (stop, mut trend) = (s.stop_flag(), Trend::default());
                    s.search(&Limits::time(b.hard), &mut |it| {
                        if trend.past_soft(&it.best, it.value, &b, start.elapsed()) {
                            stop.store(true, Ordering::Relaxed);
                        }
                    })?
                }
            };
            let Some(best) = r.best.clone() else {
                anyhow::bail!("the engine found no move in {}", describe(&*s));
            };
            let clock = match &mut clocks {
                Some(c) => {
                    c.charge(side, start.elapsed());
                    format!(", clock {:.2} s", c.left[side as usize].as_secs_f64())
                }
                None => String::new(),
            };
            let pv = s.display_line(&r.pv);
            s.play(&best)?;
            writeln!(
                out,
                "\nduel ({}) plays {}  (score {}, depth {}, pv {}, {} nodes, {} ms{clock})",
                name(&*s, side),
                pv.first().map_or(best.as_str(), String::as_str),
                score(&r),
                r.depth,
                pv.join(" "),
                r.stats.nodes,
                r.time.as_millis()
            )?;
            write!(out, "{}", s.diagram())?;
            continue;
        }
        write!(out, "{} to move: ", name(&*s, side))?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out, "\nend of input: the game stops unfinished")?;
            return Ok(());
        };
        let line = line?;
        let cmd = line.trim();
        match cmd.to_ascii_lowercase().as_str() {
            "" => writeln!(out, "type a move ({}) or `help`", s.legal_moves().join(" "))?,
            "quit" | "exit" | "q" => {
                writeln!(out, "game abandoned")?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{HELP}\nlegal moves: {}", s.legal_moves().join(" "))?,
            "moves" => writeln!(out, "legal moves: {}", s.legal_moves().join(" "))?,
            "hint" => {
                let r = s.search(&limits, &mut |_| {})?;
                let pv = s.display_line(&r.pv);
                writeln!(
                    out,
                    "hint: {} (score {}, pv {})",
                    pv.first().map_or("-", String::as_str),
                    score(&r),
                    pv.join(" ")
                )?;
            }
            "undo" => {
                let taken = undo(&mut *s, a.human);
                if taken.is_empty() {
                    writeln!(out, "nothing to undo")?;
                } else {
                    writeln!(out, "took back {}", taken.join(" and "))?;
                    write!(out, "{}", s.diagram())?;
                }
            }
            _ => match (s.display_line(&[cmd.to_string()]), s.play(cmd)) {
                (shown, Ok(mv)) => {
                    let mv = shown.first().cloned().unwrap_or(mv);
                    writeln!(out, "{} plays {mv}", name(&*s, side))?;
                    write!(out, "{}", s.diagram())?;
                }
                (_, Err(e)) => {
                    let what = match e {
                        EngineError::Move(duel_core::MoveError::Syntax { .. }) => "not a move",
                        _ => "illegal move",
                    };
                    writeln!(
                        out,
                        "{what}: {e}\nlegal moves: {} (or `help`)",
                        s.legal_moves().join(" ")
                    )?;
                }
            },
        }
    }
    writeln!(out, "\nresult: {}", result(&*s))?;
    Ok(())
}

/// Takes back moves until one of the human's has gone (with the engine's replies after it);
/// never past the position the game started from. Returns the moves taken back as
/// "side move", in the order they were played.
fn undo(s: &mut dyn Session, human: Human) -> Vec<String> {
    let mut taken: Vec<(Side, String)> = Vec::new();
    while let Some(mv) = s.undo() {
        // The side to move now is the one that played the move taken back.
        let side = s.side_to_move();
        taken.push((side, mv));
        if human.plays(side) {
            return taken
                .iter()
                .rev()
                .map(|(side, mv)| format!("{} {mv}", s.side_name(*side)))
                .collect();
        }
    }
    // Only engine moves since the start: put them back.
    for (_, mv) in taken.iter().rev() {
        let _ = s.play(mv);
    }
    Vec::new()
}
