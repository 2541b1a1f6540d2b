//! Time under load, as a test binary of its own: it makes the machine busy on purpose, and
//! test binaries run one after another, so no other test's timing shares the load.
//!
//! A second of sudden death (`winc 0`) on a machine made busy by twice as many spinning
//! threads as it has cores: every move answers within half of what is left on the clock (the
//! time manager's hard stop; at this clock about a tenth), and twelve moves in a row leave
//! time on it. The engine is not alone and not fast here, so the bounds are generous; what
//! fails them is a search that reads the clock too seldom or a budget that ignores it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[test]
fn a_short_clock_under_load_keeps_time() {
    let stop = Arc::new(AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let spinners: Vec<_> = (0..2 * cores)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_duel"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("duel runs");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut send = |line: &str| writeln!(input, "{line}").unwrap();
    let mut until = |word: &str| loop {
        let line = output.next().expect("duel answers").unwrap();
        if line.starts_with(word) {
            break line;
        }
    };
    send("uci");
    until("uciok");
    let mut moves: Vec<String> = Vec::new();
    let mut clock_ms: i64 = 1000;
    let mut spent = Vec::new();
    for _ in 0..12 {
        send(&format!("position startpos moves {}", moves.join(" ")));
        send("isready");
        until("readyok");
        let start = Instant::now();
        send(&format!(
            "go wtime {clock_ms} btime {clock_ms} winc 0 binc 0"
        ));
        let best = until("bestmove");
        let took = start.elapsed().as_millis() as i64;
        assert!(
            took < clock_ms / 2,
            "{took} ms with {clock_ms} ms left (moves so far took {spent:?})"
        );
        clock_ms -= took;
        spent.push(took);
        let mv = best.split_whitespace().nth(1).expect("a move").to_string();
        assert_ne!(mv, "(none)", "{best}");
        moves.push(mv);
    }
    stop.store(true, Ordering::Relaxed);
    for t in spinners {
        t.join().unwrap();
    }
    send("quit");
    assert!(child.wait().unwrap().success());
    assert!(clock_ms > 0, "the flag fell: {spent:?}");
}
