//! The input's loan: while the thread that leads the input (reads it) runs
//! a call it read, the input is lent to a thread standing by, which is
//! woken if something comes meanwhile and then takes the input over.
//!
//! The leader takes the input back before it writes its call's answer
//! ([`Loan::return_early`]), not after: a client that sends its next
//! request as soon as it reads the answer would otherwise find the input
//! still lent, wake the thread standing by and hand the lead to it, a
//! wake-up and a change of thread on every call made back to back.

use std::os::fd::RawFd;
use std::sync::Mutex;
use std::thread::ThreadId;

/// The token the input is watched under by the thread standing by.
const INPUT: mio::Token = mio::Token(0);

/// Who holds the input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holder {
    /// Its leader, reading it (or about to).
    Leader,
    /// Lent by the leader, this thread, while it runs a call.
    Lent(ThreadId),
    /// Given back by the leader, this thread, before its call ended.
    Back(ThreadId),
}

/// The input's loan, shared by its reader and the writer of the answers.
pub(crate) struct Loan {
    holder: Mutex<Holder>,
    fd: RawFd,
    /// Where the thread standing by watches the input.
    registry: mio::Registry,
}

impl Loan {
    pub(super) fn new(fd: RawFd, registry: mio::Registry) -> Self {
        Self {
            holder: Mutex::new(Holder::Leader),
            fd,
            registry,
        }
    }

    fn holder(&self) -> std::sync::MutexGuard<'_, Holder> {
        self.holder.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lends the input, from its leader (this thread), which runs a call:
    /// the thread standing by wakes when the input has something to read
    /// (edge triggered: what is there already wakes it at once).
    pub(super) fn lend(&self) -> std::io::Result<()> {
        // Set before the input is watched: the thread standing by takes it.
        *self.holder() = Holder::Lent(std::thread::current().id());
        self.registry.register(
            &mut mio::unix::SourceFd(&self.fd),
            INPUT,
            mio::Interest::READABLE,
        )
    }

    fn unwatch(&self) {
        let _ = self.registry.deregister(&mut mio::unix::SourceFd(&self.fd));
    }

    /// From the thread standing by, woken: whether it takes the input over
    /// (it is still lent) and leads now.
    pub(super) fn take_over(&self) -> bool {
        let mut holder = self.holder();
        if !matches!(*holder, Holder::Lent(_)) {
            return false;
        }
        *holder = Holder::Leader;
        drop(holder);
        self.unwatch();
        true
    }

    /// From a call's thread, about to write its answer: when it leads the
    /// input and lent it, it takes it back now.
    pub(crate) fn return_early(&self) {
        let me = std::thread::current().id();
        let mut holder = self.holder();
        if *holder == Holder::Lent(me) {
            *holder = Holder::Back(me);
            drop(holder);
            self.unwatch();
        }
    }

    /// From the leader, after its call: whether it still leads (`false`:
    /// the thread standing by took the input over).
    pub(super) fn reclaim(&self) -> bool {
        let me = std::thread::current().id();
        let mut holder = self.holder();
        match *holder {
            Holder::Back(by) if by == me => {
                *holder = Holder::Leader;
                true
            }
            Holder::Lent(by) if by == me => {
                *holder = Holder::Leader;
                drop(holder);
                self.unwatch();
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::fd::AsRawFd;

    use super::Loan;

    /// A loan over the read end of a fresh pipe, and the pipe's write end.
    fn loan() -> (Loan, std::io::PipeWriter, std::io::PipeReader, mio::Poll) {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        let poll = mio::Poll::new().expect("a poll");
        let registry = poll.registry().try_clone().expect("its registry");
        (
            Loan::new(reader.as_raw_fd(), registry),
            writer,
            reader,
            poll,
        )
    }

    /// Whether the thread standing by would wake: the input is watched
    /// and has something to read.
    fn wakes(poll: &mut mio::Poll) -> bool {
        let mut events = mio::Events::with_capacity(2);
        poll.poll(&mut events, Some(std::time::Duration::ZERO))
            .expect("poll");
        !events.is_empty()
    }

    #[test]
    fn a_request_that_comes_after_the_answer_is_read_by_the_leader() {
        use std::io::Write;
        let (loan, mut writer, _reader, mut poll) = loan();
        loan.lend().expect("lent");
        // The call's thread takes the input back, then writes its answer;
        // the client's next request wakes nobody.
        loan.return_early();
        writer.write_all(b"{}\n").expect("write");
        assert!(!wakes(&mut poll));
        assert!(!loan.take_over(), "the input is back with its leader");
        assert!(loan.reclaim(), "the leader leads on");
        // And lends it again for its next call.
        loan.lend().expect("lent again");
        assert!(
            wakes(&mut poll),
            "what waits unread wakes the thread standing by"
        );
        assert!(loan.take_over());
        assert!(!loan.reclaim(), "taken over: the leader no longer leads");
    }

    #[test]
    fn only_the_leader_takes_the_input_back() {
        let (loan, _writer, _reader, _poll) = loan();
        loan.lend().expect("lent");
        std::thread::scope(|scope| {
            scope.spawn(|| {
                // Another thread answering a call (an async handler's, on
                // the runtime) leaves the loan as it is.
                loan.return_early();
                assert!(!loan.reclaim());
            });
        });
        assert!(loan.take_over(), "still lent");
    }
}
