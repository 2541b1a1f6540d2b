//! The loop's work on the worker thread: `go` (its limits, its clock and the moves it
//! searches), `go perft` and `bench`, each with the [`Control`] the loop and the worker share,
//! and `ponderhit`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use duel_core::Side;
use duel_engine::timeman::{budget, Budget, Clock, Trend};
use duel_engine::{EngineError, Limits, Score, SearchReport, Session};
use duel_protocol::uci::{shift_ranks, Bound};

use super::{rank_offset, say, Dialect, Go, Info, Loop, Reply, Said, Score as UciScore};
use crate::io::{send, Out};

/// The score as UCI writes it: centipawns, or mate in moves (negative when mated).
fn uci_score(v: Score) -> UciScore {
    match v.plies_to_end() {
        Some(p) if v.is_win() => UciScore::Mate((p + 1) / 2),
        Some(p) => UciScore::Mate(-(p / 2)),
        None => UciScore::Cp(v.0),
    }
}

/// The `info` lines of one iteration: one per principal variation.
fn info_lines(r: &SearchReport) -> Vec<Info> {
    let single = [(r.value, r.pv.clone())];
    let lines = if r.lines.is_empty() {
        &single[..]
    } else {
        &r.lines[..]
    };
    let time = r.time.as_millis() as u64;
    lines
        .iter()
        .enumerate()
        .map(|(i, (value, pv))| Info {
            depth: Some(r.depth),
            seldepth: Some(r.stats.seldepth.max(r.depth)),
            multipv: Some(i as u32 + 1),
            score: Some(uci_score(*value)),
            bound: None,
            nodes: Some(r.stats.nodes),
            nps: Some(r.nps()),
            hashfull: Some(r.hashfull),
            time: Some(time),
            currmove: None,
            currmovenumber: None,
            pv: pv.clone(),
        })
        .collect()
}

/// What the loop and the worker thread of one `go` share.
pub(super) struct Control {
    /// The session's stop flag.
    stop: Arc<AtomicBool>,
    /// Set by `stop` and `quit` (and by the limits after `ponderhit`): unlike the session's flag,
    /// which each search clears when it starts, it stays set, so the worker's wait for it cannot
    /// miss it.
    stopped: AtomicBool,
    /// Pondering, until `ponderhit`.
    pondering: AtomicBool,
    /// `go infinite`: the `bestmove` waits for `stop` even when the search ends by itself.
    infinite: bool,
    /// When `go` arrived: the clock's reference, for the limits and for `ponderhit`.
    start: Instant,
    /// The time budget, when a clock was sent.
    budget: Option<Budget>,
    /// `go mate N`: stop once a mate in N moves or fewer is proven.
    mate: Option<u32>,
    /// Number of this search, so that a timer left from a finished search stops nothing.
    id: u64,
    /// Set just before the `bestmove` goes out (or a perft or bench ends): the worker has
    /// nothing left to do but hand the session back.
    answered: AtomicBool,
    /// The search has a limit of its own (depth, nodes, time or clock): at the end of the input
    /// it is let finish, where one without any is stopped, having no other end.
    pub(super) bounded: bool,
    /// The last iteration's best move and value, and how many iterations the move has
    /// stayed the best: what the soft limit is scaled by ([`duel_engine::timeman::soft_scale`]).
    trend: Mutex<Trend>,
}

impl Control {
    /// The control of a job that is no search: no clock, no pondering, nothing to wait for.
    fn job(stop: Arc<AtomicBool>, id: u64) -> Self {
        Control {
            stop,
            stopped: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            infinite: false,
            start: Instant::now(),
            budget: None,
            mate: None,
            id,
            answered: AtomicBool::new(false),
            bounded: true,
            trend: Mutex::new(Trend::default()),
        }
    }

    pub(super) fn halt(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the worker has answered: it has nothing left to do but hand the session back.
    pub(super) fn answered(&self) -> bool {
        self.answered.load(Ordering::Acquire)
    }

    /// Whether only `stop` (or `ponderhit`) can end the search.
    pub(super) fn endless(&self) -> bool {
        self.infinite || self.pondering.load(Ordering::Relaxed)
    }

    /// The soft limit scaled by the trend so far ([`Trend::soft_limit`]).
    fn soft_limit(&self, b: &Budget) -> Duration {
        let t = self.trend.lock().unwrap_or_else(|e| e.into_inner());
        t.soft_limit(b)
    }

    /// After each iteration: stop when the soft limit has passed or the mate asked for is found.
    fn after_iteration(&self, r: &SearchReport) {
        let pondering = self.pondering.load(Ordering::Relaxed);
        if let Some(b) = self.budget {
            self.trend
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .observe(&r.best, r.value);
            if !pondering && self.start.elapsed() >= self.soft_limit(&b) {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        if let (Some(n), UciScore::Mate(m)) = (self.mate, uci_score(r.value)) {
            if m > 0 && m as u32 <= n && !self.infinite && !pondering {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether UCI forbids answering yet: infinite mode before `stop`, pondering before
    /// `ponderhit` or `stop`.
    fn must_wait(&self) -> bool {
        self.endless() && !self.stopped.load(Ordering::Relaxed)
    }
}

/// Work under way on the worker thread.
pub(super) struct Running {
    pub(super) handle: JoinHandle<Box<dyn Session>>,
    pub(super) control: Arc<Control>,
    /// What it is, for the refusals: a search, a perft count or the bench.
    pub(super) what: &'static str,
}

/// Sends a job's answer, marked answered first: a GUI that reads the last line and sends its
/// next command must find the session free to take back, as after a `bestmove`.
fn answer(c: &Control, out: &Out, lines: &[String]) {
    c.answered.store(true, Ordering::Release);
    for line in lines {
        send(out, line);
    }
}

/// A search's limits, its clock's budget and the moves it searches, as `go` gives them.
struct Plan {
    limits: Limits,
    budget: Option<Budget>,
    among: Vec<String>,
}

impl Loop {
    /// [`Loop::session`], taken out for a worker.
    fn take_session(&mut self, command: &str) -> Option<Box<dyn Session>> {
        self.session(command)?;
        self.session.take()
    }

    /// Starts `job` on the worker thread with the session, under `control`.
    fn spawn(
        &mut self,
        session: Box<dyn Session>,
        control: Arc<Control>,
        what: &'static str,
        job: impl FnOnce(&mut Box<dyn Session>, &Control, &Out) + Send + 'static,
    ) {
        let c = Arc::clone(&control);
        let out = Arc::clone(&self.out);
        let mut session = session;
        let handle = std::thread::spawn(move || {
            job(&mut session, &c, &out);
            session
        });
        self.running = Some(Running {
            handle,
            control,
            what,
        });
    }

    pub(super) fn ponderhit(&mut self) {
        let Some(r) = &self.running else { return };
        let c = Arc::clone(&r.control);
        if !c.pondering.swap(false, Ordering::Relaxed) {
            return;
        }
        let Some(b) = c.budget else { return };
        // The time since `go` counts: past the (scaled) soft limit already, move now.
        let elapsed = c.start.elapsed();
        if elapsed >= c.soft_limit(&b) {
            c.halt();
            return;
        }
        let searches = Arc::clone(&self.searches);
        std::thread::spawn(move || {
            std::thread::sleep(b.hard.saturating_sub(elapsed));
            if searches.load(Ordering::Relaxed) == c.id {
                c.halt();
            }
        });
    }

    pub(super) fn bench(&mut self, args: &str) {
        if !args.is_empty() {
            self.error(format!(
                "bench takes no arguments ('{args}' ignored): it searches fixed positions to a fixed depth"
            ));
        }
        let Some(session) = self.take_session("bench") else {
            return;
        };
        let id = self.searches.fetch_add(1, Ordering::Relaxed) + 1;
        let control = Arc::new(Control::job(session.stop_flag(), id));
        self.spawn(session, control, "the bench", |s, c, out| {
            let r = s.bench();
            let mut lines: Vec<String> = r
                .entries
                .iter()
                .map(|e| {
                    format!(
                        "{} nodes {} time {} ms: {}",
                        e.report.best.as_deref().unwrap_or("-"),
                        e.report.stats.nodes,
                        e.report.time.as_millis(),
                        e.position
                    )
                })
                .collect();
            if r.stopped {
                lines.push(
                    Reply::InfoString(format!(
                        "bench stopped after {} position(s): no signature",
                        r.entries.len()
                    ))
                    .to_string(),
                );
            } else {
                lines.push(format!("Total time (ms) : {}", r.time().as_millis()));
                lines.push(format!("Nodes searched  : {}", r.nodes()));
                lines.push(format!("Nodes/second    : {}", r.nps()));
            }
            answer(c, out, &lines);
        });
    }

    fn perft(&mut self, depth: u32) {
        let Some(session) = self.take_session("go perft") else {
            return;
        };
        let id = self.searches.fetch_add(1, Ordering::Relaxed) + 1;
        let control = Arc::new(Control::job(session.stop_flag(), id));
        self.spawn(session, control, "a perft count", move |s, c, out| {
            // A flag left set by an earlier `stop` would end this count at once; a `stop` for
            // this one keeps being set until the worker ends (`finish`), so none is lost.
            c.stop.store(false, Ordering::Relaxed);
            let lines = match s.perft_divide(depth, &c.stop) {
                Some(divide) => {
                    let total: u64 = if depth == 0 {
                        1
                    } else {
                        divide.iter().map(|(_, n)| n).sum()
                    };
                    let mut lines: Vec<String> =
                        divide.iter().map(|(mv, n)| format!("{mv}: {n}")).collect();
                    lines.push(format!("\nNodes searched: {total}"));
                    lines
                }
                None => {
                    vec![Reply::InfoString(format!("perft {depth} stopped: no count")).to_string()]
                }
            };
            answer(c, out, &lines);
        });
    }

    pub(super) fn go(&mut self, go: Go) {
        let mut go = self.in_milliseconds(go);
        // A `position` sent during the last search is applied now, and may be refused.
        self.reclaim();
        if self.running.is_none() {
            if let Some(why) = &self.refused {
                self.error(format!(
                    "go: no position to search (the last was refused: {why})"
                ));
                if go.perft.is_none() {
                    self.say(Said::NoPosition);
                }
                return;
            }
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        if !self.banned.is_empty() {
            match self.unbanned() {
                Some(moves) => go.searchmoves = moves,
                None => return,
            }
        }
        let Some(session) = self.take_session("go") else {
            return;
        };
        let plan = self.plan(&go, session.as_ref());
        let id = self.searches.fetch_add(1, Ordering::Relaxed) + 1;
        let bounded = plan.limits != Limits::default() || plan.budget.is_some();
        let control = Arc::new(Control {
            stop: session.stop_flag(),
            stopped: AtomicBool::new(false),
            pondering: AtomicBool::new(go.ponder),
            infinite: go.infinite,
            start: Instant::now(),
            budget: plan.budget,
            mate: go.mate,
            id,
            answered: AtomicBool::new(false),
            bounded: bounded && !go.infinite,
            trend: Mutex::new(Trend::default()),
        });
        let dialect = self.dialect;
        let offset = rank_offset(self.dialect, session.as_ref());
        self.spawn(session, control, "a search", move |session, c, out| {
            search(session.as_mut(), c, out, dialect, offset, &plan);
        });
    }

    /// `go` with its times in milliseconds, from the unit the dialect set.
    fn in_milliseconds(&self, go: Go) -> Go {
        let ms = self.time_unit.as_millis().min(i64::MAX as u128) as i64;
        let scale = |t: Option<i64>| t.map(|t| t.saturating_mul(ms));
        Go {
            wtime: scale(go.wtime),
            btime: scale(go.btime),
            winc: scale(go.winc),
            binc: scale(go.binc),
            movetime: scale(go.movetime),
            ..go
        }
    }

    /// The moves a search may play when some are banned: the legal moves but those. Banned
    /// moves the position does not have are named and forgotten here (a ban sent while a
    /// search ran could not be checked against the position it was for). None when `go` is
    /// answered at once: the session is busy, or every move is banned.
    fn unbanned(&mut self) -> Option<Vec<String>> {
        self.session("go")?;
        let session = self.session.as_ref()?;
        let legal = session.legal_moves();
        let mut banned = Vec::new();
        let mut dropped = Vec::new();
        for m in &self.banned {
            match session.parse_search_move(m) {
                Ok(mv) => banned.push(mv),
                Err(e) => dropped.push((m.clone(), e)),
            }
        }
        let allowed: Vec<String> = legal.into_iter().filter(|m| !banned.contains(m)).collect();
        self.banned.retain(|m| !dropped.iter().any(|(d, _)| d == m));
        for (m, e) in dropped {
            self.error(format!("banmoves: '{m}' dropped ({e})"));
        }
        if allowed.is_empty() {
            self.error("every legal move is banned (banmoves): no move to give");
            self.say(Reply::BestMove {
                mv: None,
                ponder: None,
            });
            return None;
        }
        Some(allowed)
    }

    /// The search `go` asks for in the session's position: its limits, the clock's budget
    /// and the moves searched, with what is odd in it said.
    fn plan(&self, go: &Go, session: &dyn Session) -> Plan {
        let mut limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            time: None,
        };
        // A limit of nothing still owes the GUI a move, and a move is worth a search.
        if go.depth == Some(0) || go.nodes == Some(0) {
            let what = if go.depth == Some(0) {
                "depth"
            } else {
                "nodes"
            };
            self.say(Reply::InfoString(format!(
                "{what} 0 searches nothing: searching to depth 1"
            )));
            limits.depth = Some(1);
            limits.nodes = None;
        }
        // A move the position does not have is named and dropped, as Stockfish drops it; with
        // none left, every move is searched rather than none.
        let offset = rank_offset(self.dialect, session);
        let mut among = Vec::new();
        for m in &go.searchmoves {
            match session.parse_search_move(&shift_ranks(m, -offset)) {
                Ok(mv) => among.push(mv),
                Err(e) => self.error(format!("searchmoves: '{m}' dropped ({e})")),
            }
        }
        if among.is_empty() && !go.searchmoves.is_empty() {
            self.error("searchmoves: no legal move left; searching every move");
        }
        if let Some(t) = go.movetime {
            let t = Duration::from_millis(t.max(0) as u64);
            limits.time = Some(
                t.saturating_sub(self.overhead)
                    .max(Duration::from_millis(1)),
            );
        }
        let mut budget = None;
        if !go.infinite && limits.time.is_none() {
            budget = self.budget(go, session);
            if let (Some(b), false) = (budget, go.ponder) {
                limits.time = Some(b.hard);
            }
        }
        Plan {
            limits,
            budget,
            among,
        }
    }

    /// The time for a move on the clock `go` gives, if it gives one.
    fn budget(&self, go: &Go, session: &dyn Session) -> Option<Budget> {
        let first = session.side_to_move() == Side::First;
        // The other side's clock alone: this side's time is taken as spent, as Stockfish
        // takes it (a move at once), and said, rather than a search without end.
        let (left, inc) = go.clock(first).or_else(|| {
            go.clock(!first).map(|_| {
                let (has, lacks) = if first {
                    ("btime", "wtime")
                } else {
                    ("wtime", "btime")
                };
                self.error(format!(
                    "'go' gives {has} but not {lacks}, the side to move's clock: \
                     moving as with no time left"
                ));
                (0, 0)
            })
        })?;
        let clock = Clock {
            left: Duration::from_millis(left.max(0) as u64),
            increment: Duration::from_millis(inc.max(0) as u64),
            moves_to_go: go.movestogo.filter(|&n| n > 0),
        };
        let mut b = budget(&clock, self.overhead);
        // A forced move needs no thought: one iteration, for a move to ponder on.
        if session.legal_moves().len() == 1 {
            b.soft = Duration::ZERO;
        }
        self.debug(format!(
            "time: soft {} ms, hard {} ms",
            b.soft.as_millis(),
            b.hard.as_millis()
        ));
        Some(b)
    }
}

/// The worker's search: the `info` lines of each iteration, then the `bestmove` once UCI
/// allows it (after `stop` in infinite mode or while pondering).
fn search(
    session: &mut dyn Session,
    c: &Control,
    out: &Out,
    dialect: &Dialect,
    offset: i32,
    plan: &Plan,
) {
    let shifted =
        |line: &[String]| -> Vec<String> { line.iter().map(|m| shift_ranks(m, offset)).collect() };
    // The first line of the last `info` said: the move played must head one, as Stockfish's
    // does, so a GUI shows the line of the move it gets.
    let mut said: Vec<String> = Vec::new();
    let result = session.search_among(&plan.limits, &plan.among, &mut |r| {
        for (i, mut info) in info_lines(r).into_iter().enumerate() {
            info.pv = shifted(&info.pv);
            if i == 0 {
                said.clone_from(&info.pv);
            }
            say(out, dialect, Reply::Info(info));
        }
        c.after_iteration(r);
    });
    let (mv, ponder) = match result {
        Ok(r) => {
            let pv = shifted(&r.pv);
            // (A search stopped before its first iteration ended has no line to show.)
            if r.depth > 0 && pv != said {
                if let Some(mut info) = info_lines(&r).into_iter().next() {
                    info.pv = pv;
                    info.bound = r.partial.then_some(Bound::Lower);
                    say(out, dialect, Reply::Info(info));
                }
            }
            (
                r.best.as_deref().map(|m| shift_ranks(m, offset)),
                r.pv.get(1).map(|m| shift_ranks(m, offset)),
            )
        }
        Err(EngineError::GameOver(o)) => {
            let score = match o {
                duel_core::Outcome::Draw => UciScore::Cp(0),
                _ => UciScore::Mate(0),
            };
            let info = Info {
                depth: Some(0),
                score: Some(score),
                ..Info::default()
            };
            say(out, dialect, Reply::Info(info));
            (None, None)
        }
        Err(e) => {
            say(
                out,
                dialect,
                Reply::InfoString(format!("error: go refused ({e})")),
            );
            (None, None)
        }
    };
    while c.must_wait() {
        std::thread::sleep(Duration::from_millis(1));
    }
    c.answered.store(true, Ordering::Release);
    say(out, dialect, Reply::BestMove { mv, ponder });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_uci_units() {
        assert_eq!(uci_score(Score(37)), UciScore::Cp(37));
        assert_eq!(uci_score(Score::win_in(1)), UciScore::Mate(1));
        assert_eq!(uci_score(Score::win_in(3)), UciScore::Mate(2));
        assert_eq!(uci_score(Score::loss_in(2)), UciScore::Mate(-1));
        assert_eq!(uci_score(Score::loss_in(0)), UciScore::Mate(0));
    }
}
