//! What the protocol loops share: a line reader on its own thread, so that a command such as
//! `stop` or `ping` is read while a search runs, and one output that every thread writes whole
//! lines to, flushed at once (a GUI waits on each line).

use std::fmt::Display;
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

/// The output, shared by the loop and its search thread.
pub(crate) type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Wraps a writer as the shared output.
pub(crate) fn output(w: impl Write + Send + 'static) -> Out {
    Arc::new(Mutex::new(Box::new(w)))
}

/// Writes one line and flushes it.
pub(crate) fn send(out: &Out, line: impl Display) {
    // A closed output (the GUI went away) is not the engine's failure; the read side ends too.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Reads `input` line by line on a thread of its own; the channel closes at the end of input.
pub(crate) fn lines(input: impl Read + Send + 'static) -> Receiver<String> {
    lines_split_by(input, |reader, bytes| reader.read_until(b'\n', bytes))
}

/// The input as the reader thread reads it.
pub(crate) type Input = BufReader<Box<dyn Read + Send>>;

/// [`lines`], with the protocol's own way of finding a line's end (Gomocup's managers may end
/// lines with CR alone).
pub(crate) fn lines_split_by(
    input: impl Read + Send + 'static,
    read: fn(&mut Input, &mut Vec<u8>) -> std::io::Result<usize>,
) -> Receiver<String> {
    let (tx, rx) = mpsc::channel::<String>();
    let input: Box<dyn Read + Send> = Box::new(input);
    std::thread::spawn(move || {
        let mut reader = BufReader::new(input);
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            // Bytes, not `lines()`: one line of invalid UTF-8 must not end the session. It is
            // decoded with replacement characters and refused like any malformed line.
            match read(&mut reader, &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&bytes)
                        .trim_end_matches(['\n', '\r'])
                        .to_string();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}
