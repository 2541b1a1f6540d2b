//! The examples of README.md and docs/USAGE.md, run against the real binary so that they stay
//! true. Every fenced block marked `console` is a transcript:
//!
//! - `$ duel ARGS` runs `duel` (the binary under test; also first on the PATH it sees, so an
//!   engine command such as `--second "duel uci"` finds it). Words split at spaces; double or
//!   single quotes keep spaces in one word.
//! - `> TEXT` is a line sent to the command's standard input, once every output line shown
//!   before it has been read (a GUI waits for the answer before it sends more).
//! - `...` stands for any number of output lines.
//! - `? failed` says the command must exit with a failure, `? N` with status N (else it must
//!   succeed).
//! - Any other line is an output line, standard output and error together; `[..]` in it
//!   stands for any text (times, speeds: whatever a run changes). Node counts under a depth
//!   or node limit are the same on every run and are written out.
//!
//! Commands run in a fresh folder where `data` leads to the repository's, so files they write
//! (`--record`, `--pgn`) land there.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The longest a single expected line may take: the slowest example (a short match) takes a
/// few seconds here.
const LINE_PATIENCE: Duration = Duration::from_secs(120);

/// One line of a transcript.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Input(String),
    Output(String),
    Skip,
    /// The exit status expected: None for any failure.
    Exit(Option<i32>),
}

/// A command and what follows it, with where it is for the failure messages.
#[derive(Debug)]
struct Case {
    place: String,
    args: Vec<String>,
    steps: Vec<Step>,
}

/// Splits a command line into words: spaces separate, quotes group.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, ' ') => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (_, c) => {
                word.push(c);
                any = true;
            }
        }
    }
    assert!(quote.is_none(), "unclosed quote in '{line}'");
    if any {
        out.push(word);
    }
    out
}

/// The transcripts of a Markdown file.
fn cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut cases: Vec<Case> = Vec::new();
    let mut in_console = false;
    for (i, line) in text.lines().enumerate() {
        let place = format!("{name}:{}", i + 1);
        if let Some(fence) = line.strip_prefix("```") {
            in_console = !in_console && fence.trim() == "console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            let mut args = words(cmd);
            assert_eq!(args.remove(0), "duel", "{place}: only duel runs here");
            cases.push(Case {
                place,
                args,
                steps: Vec::new(),
            });
            continue;
        }
        let case = cases
            .last_mut()
            .unwrap_or_else(|| panic!("{place}: a console block starts with a command"));
        let step = match line {
            "..." => Step::Skip,
            "? failed" => Step::Exit(None),
            l if l.starts_with("? ") => Step::Exit(Some(
                l[2..]
                    .parse()
                    .unwrap_or_else(|_| panic!("{place}: '? failed' or '? N'")),
            )),
            l => match l.strip_prefix("> ") {
                Some(input) => Step::Input(input.to_string()),
                None => Step::Output(l.trim_end().to_string()),
            },
        };
        case.steps.push(step);
    }
    cases
}

/// Whether `line` fits `pattern`, where `[..]` stands for any text.
fn fits(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    if !line.ends_with(last) {
        return false;
    }
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs one transcript; a mismatch panics with what was expected and what came.
fn run(case: &Case, folder: &Path) {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_duel"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = Command::new(&bin)
        .args(&case.args)
        .current_dir(folder)
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take();
    let mut seen: Vec<String> = Vec::new();
    let mut skipping = false;
    let mut exit = Some(0);
    let fail = |seen: &[String], what: String| -> ! {
        panic!(
            "{} (duel {}): {what}\noutput so far:\n{}",
            case.place,
            case.args.join(" "),
            seen.join("\n")
        )
    };
    for step in &case.steps {
        match step {
            Step::Skip => skipping = true,
            Step::Exit(code) => exit = *code,
            Step::Input(line) => {
                let w = stdin.as_mut().expect("standard input open");
                writeln!(w, "{line}").unwrap();
                w.flush().unwrap();
            }
            Step::Output(pattern) => loop {
                let line = match rx.recv_timeout(LINE_PATIENCE) {
                    Ok(line) => line,
                    Err(_) => fail(&seen, format!("expected '{pattern}', got no more output")),
                };
                seen.push(line.clone());
                if fits(pattern, line.trim_end()) {
                    skipping = false;
                    break;
                }
                if !skipping {
                    fail(&seen, format!("expected '{pattern}', got '{line}'"));
                }
            },
        }
    }
    drop(stdin.take());
    let deadline = Instant::now() + LINE_PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            fail(&seen, "did not exit".into());
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let rest: Vec<String> = rx.iter().collect();
    if !skipping && !rest.is_empty() {
        seen.extend(rest.iter().cloned());
        fail(&seen, format!("more output than shown: {rest:?}"));
    }
    let as_expected = match exit {
        Some(code) => status.code() == Some(code),
        None => !status.success(),
    };
    if !as_expected {
        fail(
            &seen,
            format!("exit status {status}, expected {exit:?} (None: any failure)"),
        );
    }
}

fn check(file: &str) {
    let cases = cases(&repository().join(file));
    assert!(!cases.is_empty(), "{file} has no console examples");
    let folder = std::env::temp_dir().join(format!(
        "duel-examples-{}-{}",
        std::process::id(),
        file.replace('/', "-")
    ));
    std::fs::create_dir_all(&folder).unwrap();
    let link = folder.join("data");
    if !link.exists() {
        #[cfg(unix)]
        std::os::unix::fs::symlink(repository().join("data"), &link).unwrap();
    }
    for case in &cases {
        run(case, &folder);
    }
    std::fs::remove_dir_all(&folder).ok();
}

#[test]
fn readme_examples_hold() {
    check("README.md");
}

#[test]
fn usage_examples_hold() {
    check("docs/USAGE.md");
}

#[test]
fn the_transcript_rules() {
    assert_eq!(
        words(r#"play chess -p "6k1/8 w" --x 'a b'"#),
        ["play", "chess", "-p", "6k1/8 w", "--x", "a b"]
    );
    assert!(fits("nodes [..] in [..] ms", "nodes 12 in 3.5 ms"));
    assert!(fits("[..]", ""));
    assert!(!fits("nodes [..] ms", "nodes 12 s"));
    assert!(!fits("best 4", "best 44"));
    assert!(fits("a[..]b[..]c", "a-b-b-c"));
    assert!(!fits("ab[..]ba", "aba"));
}
