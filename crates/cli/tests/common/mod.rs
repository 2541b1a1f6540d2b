//! What the command-line test files share.

use std::process::Command;

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
