//! What a call prints, kept within a limit: [`Bounded`] buffers, and the
//! capture of the process's stdout and stderr (fd 1 and fd 2) for handlers
//! that print with `println!` ([`StdCapture`], Unix).
//!
//! The protocol never goes through fd 1 (the transport keeps a private
//! handle), so pointing fd 1 and fd 2 at pipes during a call touches only
//! what the handler, its dependencies and its child processes print.

use std::collections::VecDeque;
use std::io::Write;

/// A writer that keeps the first three quarters and the last quarter of
/// `limit` bytes and counts what it drops in between, so memory stays
/// bounded however much a command prints.
#[derive(Debug)]
pub(crate) struct Bounded {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    head_limit: usize,
    tail_limit: usize,
    cut_bytes: u64,
    cut_lines: u64,
}

impl Bounded {
    /// A buffer keeping at most `limit` bytes.
    pub(crate) fn new(limit: usize) -> Self {
        let head_limit = limit - limit / 4;
        Self {
            head: Vec::new(),
            tail: VecDeque::new(),
            head_limit,
            tail_limit: limit - head_limit,
            cut_bytes: 0,
            cut_lines: 0,
        }
    }

    fn cut(&mut self, bytes: impl ExactSizeIterator<Item = u8>) {
        self.cut_bytes += bytes.len() as u64;
        self.cut_lines += bytes.filter(|b| *b == b'\n').count() as u64;
    }

    /// What was written, with a marker where bytes were cut saying how
    /// many.
    pub(crate) fn into_text(self) -> String {
        let mut bytes = self.head;
        if self.cut_bytes > 0 {
            let limit = self.head_limit + self.tail_limit;
            let marker = format!(
                "\n[... {} bytes ({} lines) cut here: the output is longer than this \
                 server's limit of {limit} bytes per stream; run the command with narrower \
                 arguments (a filter, fewer items) to see the rest ...]\n",
                self.cut_bytes, self.cut_lines
            );
            bytes.extend_from_slice(marker.as_bytes());
        }
        bytes.extend(self.tail);
        match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        }
    }
}

impl Write for Bounded {
    fn write(&mut self, mut data: &[u8]) -> std::io::Result<usize> {
        let written = data.len();
        let room = self.head_limit - self.head.len();
        let to_head = room.min(data.len());
        self.head.extend_from_slice(&data[..to_head]);
        data = &data[to_head..];
        if data.is_empty() {
            return Ok(written);
        }
        if data.len() >= self.tail_limit {
            // Everything in the tail, and the start of `data`, is cut.
            let tail = std::mem::take(&mut self.tail);
            self.cut(tail.into_iter());
            let (cut, kept) = data.split_at(data.len() - self.tail_limit);
            self.cut(cut.iter().copied());
            self.tail.extend(kept);
        } else {
            self.tail.extend(data);
            let excess = self.tail.len().saturating_sub(self.tail_limit);
            if excess > 0 {
                let cut: Vec<u8> = self.tail.drain(..excess).collect();
                self.cut(cut.into_iter());
            }
        }
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(unix)]
pub(crate) use unix::{Capturing, StdCapture};

#[cfg(unix)]
mod unix {
    use std::io::{Read, Write};
    use std::os::fd::{AsFd, OwnedFd};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::Bounded;
    use crate::handoff::{handoff, Giver, Taker};

    /// How long a finished call waits for the last bytes its child
    /// processes wrote (one that keeps the pipe open is left behind).
    const LINGER: Duration = Duration::from_millis(100);

    /// The process's stderr as it was when serving started: where fd 1 and
    /// fd 2 point between calls, and where the server logs.
    #[derive(Debug)]
    pub(crate) struct StdCapture {
        log: OwnedFd,
    }

    impl StdCapture {
        /// Saves the current stderr.
        pub(crate) fn new() -> std::io::Result<Self> {
            Ok(Self {
                log: std::io::stderr().as_fd().try_clone_to_owned()?,
            })
        }

        /// A handle on the saved stderr, for the server's log.
        pub(crate) fn log_file(&self) -> std::io::Result<std::fs::File> {
            Ok(std::fs::File::from(self.log.try_clone()?))
        }

        /// Points fd 1 and fd 2 at fresh pipes, read into buffers of
        /// `limit` bytes each, until [`Capturing::finish`].
        pub(crate) fn start(self: &Arc<Self>, limit: usize) -> std::io::Result<Capturing> {
            let _ = std::io::stdout().flush();
            let (out_reader, out_writer) = std::io::pipe()?;
            let (err_reader, err_writer) = std::io::pipe()?;
            let (out_done, out_drained) = handoff();
            let (err_done, err_drained) = handoff();
            let out = drain(out_reader, limit, out_done)?;
            let err = drain(err_reader, limit, err_done)?;
            rustix::stdio::dup2_stdout(&out_writer)?;
            rustix::stdio::dup2_stderr(&err_writer)?;
            // fd 1 and fd 2 now hold the only write ends (and the child
            // processes that inherit them).
            drop((out_writer, err_writer));
            Ok(Capturing {
                owner: Arc::clone(self),
                out,
                err,
                drained: [out_drained, err_drained],
                restored: false,
            })
        }

        fn restore(&self) {
            let _ = std::io::stdout().flush();
            let _ = rustix::stdio::dup2_stdout(&self.log);
            let _ = rustix::stdio::dup2_stderr(&self.log);
        }
    }

    /// A capture in progress.
    #[derive(Debug)]
    pub(crate) struct Capturing {
        owner: Arc<StdCapture>,
        out: Arc<Mutex<Bounded>>,
        err: Arc<Mutex<Bounded>>,
        /// Each pipe read to its end.
        drained: [Taker<()>; 2],
        restored: bool,
    }

    impl Capturing {
        /// Points fd 1 and fd 2 back, reads what is left in the pipes and
        /// returns stdout and stderr.
        pub(crate) fn finish(mut self, limit: usize) -> (String, String) {
            self.owner.restore();
            self.restored = true;
            let deadline = Instant::now() + LINGER;
            for drained in &self.drained {
                let left = deadline.saturating_duration_since(Instant::now());
                if drained.take_within(left).is_none() {
                    tracing::debug!("a child process still holds the call's output open");
                    break;
                }
            }
            let take = |buffer: &Mutex<Bounded>| match buffer.lock() {
                Ok(mut buffer) => std::mem::replace(&mut *buffer, Bounded::new(limit)).into_text(),
                Err(_) => String::new(),
            };
            (take(&self.out), take(&self.err))
        }
    }

    impl Drop for Capturing {
        fn drop(&mut self) {
            if !self.restored {
                self.owner.restore();
            }
        }
    }

    /// Reads `reader` into a buffer until every write end is closed.
    fn drain(
        mut reader: std::io::PipeReader,
        limit: usize,
        done: Giver<()>,
    ) -> std::io::Result<Arc<Mutex<Bounded>>> {
        let buffer = Arc::new(Mutex::new(Bounded::new(limit)));
        let filled = Arc::clone(&buffer);
        std::thread::Builder::new()
            .name("mcp-bridge-capture".into())
            .spawn(move || {
                let mut chunk = vec![0u8; 16 * 1024];
                loop {
                    match reader.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => {
                            if let Ok(mut buffer) = filled.lock() {
                                let _ = buffer.write_all(&chunk[..n]);
                            }
                        }
                        Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
                done.give(());
            })?;
        Ok(buffer)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::Bounded;

    #[test]
    fn short_output_is_kept_whole() {
        let mut buffer = Bounded::new(100);
        buffer.write_all(b"one\ntwo\n").unwrap();
        assert_eq!(buffer.into_text(), "one\ntwo\n");
    }

    #[test]
    fn long_output_keeps_its_start_and_end_and_says_what_was_cut() {
        let mut buffer = Bounded::new(40);
        for i in 0..1000 {
            writeln!(buffer, "line {i:04}").unwrap();
        }
        let text = buffer.into_text();
        assert!(
            text.starts_with("line 0000\nline 0001\nline 0002\n"),
            "{text}"
        );
        assert!(text.ends_with("line 0999\n"), "{text}");
        // 10 bytes per line: 10,000 written, 40 kept.
        assert!(
            text.contains("[... 9960 bytes (996 lines) cut here"),
            "{text}"
        );
    }

    #[test]
    fn one_huge_write_is_cut_the_same_way() {
        let mut buffer = Bounded::new(16);
        buffer.write_all(&[b'x'; 1_000_000]).unwrap();
        buffer.write_all(b"end\n").unwrap();
        let text = buffer.into_text();
        let start = format!("{}\n[... 999988 bytes (0 lines) cut here", "x".repeat(12));
        assert!(text.starts_with(&start), "{text}");
        assert!(text.ends_with("]\nend\n"), "{text}");
    }
}
