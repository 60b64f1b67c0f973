//! The turn of the calls whose handlers print to the process's stdout
//! (`println!`): while one runs, fd 1 and fd 2 point at its pipes, so such
//! calls take turns.
//!
//! A call stopped while its handler still runs (cancelled, timed out, cut
//! off by the shutdown: a synchronous handler cannot be made to return)
//! keeps its capture, so what it prints later still goes to its own pipes,
//! never into another call's result. It is *stuck*: while one is, the turn
//! is not waited for; a call that prints runs in a process of its own
//! instead (`isolate.rs`), where its output is its own. When the stuck
//! handler returns, its turn passes on as usual.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::{Mutex, Notify, OwnedMutexGuard};

/// The turn, and how many calls holding it were stopped but still run.
#[derive(Default)]
pub(crate) struct PrintTurn {
    lock: Arc<Mutex<()>>,
    stuck: AtomicUsize,
    /// Told when a call gets stuck.
    stuck_more: Notify,
}

/// What a call that prints gets instead of waiting.
pub(crate) enum Waited {
    /// The turn: fd 1 and fd 2 are the call's until it is dropped.
    Turn(Turn),
    /// A stopped call still holds the turn: run in a process of its own.
    Elsewhere,
}

impl PrintTurn {
    /// Whether a stopped call still holds the turn.
    pub(crate) fn stuck(&self) -> bool {
        self.stuck.load(Ordering::SeqCst) > 0
    }

    /// Waits for the turn, unless a call holding it is stuck (now, or
    /// while this waits).
    pub(crate) async fn wait(self: &Arc<Self>) -> Waited {
        let stuck_more = self.stuck_more.notified();
        tokio::pin!(stuck_more);
        stuck_more.as_mut().enable();
        if self.stuck() {
            return Waited::Elsewhere;
        }
        tokio::select! {
            guard = Arc::clone(&self.lock).lock_owned() => Waited::Turn(self.turn(guard)),
            () = stuck_more => Waited::Elsewhere,
        }
    }

    /// Waits for the turn, stuck calls or not (for a call that cannot run
    /// elsewhere).
    pub(crate) async fn wait_always(self: &Arc<Self>) -> Turn {
        let guard = Arc::clone(&self.lock).lock_owned().await;
        self.turn(guard)
    }

    /// The turn, if it is free and no call holding it is stuck.
    pub(crate) fn try_take(self: &Arc<Self>) -> Option<Turn> {
        if self.stuck() {
            return None;
        }
        let guard = Arc::clone(&self.lock).try_lock_owned().ok()?;
        Some(self.turn(guard))
    }

    fn turn(self: &Arc<Self>, guard: OwnedMutexGuard<()>) -> Turn {
        Turn {
            _guard: guard,
            state: Arc::new(TurnState {
                state: AtomicU8::new(RUNNING),
                turn: Arc::clone(self),
            }),
        }
    }
}

const RUNNING: u8 = 0;
const STUCK: u8 = 1;
const DONE: u8 = 2;

/// A call's hold on the turn, until its handler returns.
pub(crate) struct Turn {
    _guard: OwnedMutexGuard<()>,
    state: Arc<TurnState>,
}

impl Turn {
    /// What marks the call stuck when it is stopped.
    pub(crate) fn state(&self) -> Arc<TurnState> {
        Arc::clone(&self.state)
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if self.state.state.swap(DONE, Ordering::SeqCst) == STUCK {
            self.state.turn.stuck.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Whether a call holding the turn runs, is stuck, or is done.
pub(crate) struct TurnState {
    state: AtomicU8,
    turn: Arc<PrintTurn>,
}

impl TurnState {
    /// The call was stopped: if its handler still runs, it is stuck.
    pub(crate) fn stopped(&self) {
        let stuck = self
            .state
            .compare_exchange(RUNNING, STUCK, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok();
        if stuck {
            self.turn.stuck.fetch_add(1, Ordering::SeqCst);
            self.turn.stuck_more.notify_waiters();
            tracing::warn!(
                "a call that prints to stdout was stopped but its handler still runs: calls \
                 that print run in a process of their own until it returns"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PrintTurn, Waited};
    use std::sync::Arc;

    #[tokio::test]
    async fn a_stuck_call_sends_the_others_elsewhere_until_it_returns() {
        let turn = Arc::new(PrintTurn::default());
        let Waited::Turn(first) = turn.wait().await else {
            panic!("the turn is free");
        };
        assert!(turn.try_take().is_none(), "taken");
        // A call waiting for the turn when the first gets stuck.
        let waiting = tokio::spawn({
            let turn = Arc::clone(&turn);
            async move { matches!(turn.wait().await, Waited::Elsewhere) }
        });
        tokio::task::yield_now().await;
        first.state().stopped();
        assert!(waiting.await.unwrap(), "sent elsewhere");
        assert!(matches!(turn.wait().await, Waited::Elsewhere));
        assert!(turn.try_take().is_none());
        // Its handler returns: the turn is free again.
        drop(first);
        assert!(!turn.stuck());
        let second = turn.try_take().expect("free again");
        // A call stopped after its handler returned is not stuck.
        let state = second.state();
        drop(second);
        state.stopped();
        assert!(!turn.stuck());
    }
}
