//! What the command-line test files share.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `duel` with `args`: (stdout, stderr, success).
pub fn duel(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_duel"))
        .args(args)
        .output()
        .expect("duel runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

/// Runs `duel` with `args`, `input` on its standard input, and waits for it to end.
pub fn duel_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_duel"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("duel runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The first of `paths` where the other engine `name` is installed. Absent: None, with a
/// message, or a failure when `DUEL_ENGINE_TESTS=require` (as `.ci/run` sets after
/// installing them), so that CI never passes a test it skipped.
pub fn other_engine(name: &str, paths: &[&'static str]) -> Option<&'static str> {
    let found = paths
        .iter()
        .copied()
        .find(|p| std::path::Path::new(p).exists());
    if found.is_none() {
        let why = format!("{name} is not installed (scripts/install-engines.sh installs it)");
        assert!(
            std::env::var("DUEL_ENGINE_TESTS").as_deref() != Ok("require"),
            "DUEL_ENGINE_TESTS=require: {why}"
        );
        eprintln!("skipped: {why}");
    }
    found
}
