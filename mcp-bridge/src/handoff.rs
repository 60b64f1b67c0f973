//! A value handed from one thread to another that waits for it, on std's
//! `Mutex` and `Condvar`.
//!
//! What std's channels would do here, but they compile three queues
//! (rendezvous, bounded, unbounded) for every value type sent: 20 KB of an
//! adopting CLI's binary per type, where this is a few hundred bytes.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The slot: `ended` once the value is given or its giver is gone.
struct Slot<T> {
    state: Mutex<(bool, Option<T>)>,
    ended: Condvar,
}

impl<T> Slot<T> {
    fn lock(&self) -> MutexGuard<'_, (bool, Option<T>)> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn end(&self, value: Option<T>) {
        let mut state = self.lock();
        *state = (true, value);
        drop(state);
        self.ended.notify_all();
    }
}

/// The side that gives the value (at most once). Dropped without giving
/// it, the taker stops waiting.
pub(crate) struct Giver<T>(Option<Arc<Slot<T>>>);

/// The side that waits for the value.
pub(crate) struct Taker<T>(Arc<Slot<T>>);

/// A giver and the taker it hands its value to.
pub(crate) fn handoff<T>() -> (Giver<T>, Taker<T>) {
    let slot = Arc::new(Slot {
        state: Mutex::new((false, None)),
        ended: Condvar::new(),
    });
    (Giver(Some(Arc::clone(&slot))), Taker(slot))
}

impl<T> Giver<T> {
    /// Hands `value` to the taker.
    pub(crate) fn give(mut self, value: T) {
        if let Some(slot) = self.0.take() {
            slot.end(Some(value));
        }
    }
}

impl<T> Drop for Giver<T> {
    fn drop(&mut self) {
        if let Some(slot) = self.0.take() {
            slot.end(None);
        }
    }
}

impl<T> std::fmt::Debug for Taker<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Taker")
    }
}

impl<T> Taker<T> {
    /// Waits for the value: `None` when the giver went without giving it.
    pub(crate) fn take(self) -> Option<T> {
        let slot = &self.0;
        let mut state = slot.lock();
        while !state.0 {
            state = slot
                .ended
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.1.take()
    }

    /// [`take`](Self::take) for at most `limit`: `None` when it passed
    /// first too.
    pub(crate) fn take_within(&self, limit: Duration) -> Option<T> {
        let deadline = Instant::now() + limit;
        let slot = &self.0;
        let mut state = slot.lock();
        while !state.0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            state = slot
                .ended
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        state.1.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_given_on_another_thread_is_taken() {
        let (giver, taker) = handoff();
        let thread = std::thread::spawn(move || giver.give(7));
        assert_eq!(taker.take(), Some(7));
        thread.join().unwrap();
    }

    #[test]
    fn a_giver_gone_without_giving_ends_the_wait() {
        let (giver, taker) = handoff::<u8>();
        std::thread::spawn(move || drop(giver)).join().unwrap();
        assert_eq!(taker.take(), None);
    }

    #[test]
    fn a_wait_with_a_limit_ends_at_the_limit_and_the_value_comes_later() {
        let (giver, taker) = handoff();
        let started = Instant::now();
        assert_eq!(taker.take_within(Duration::from_millis(30)), None);
        assert!(started.elapsed() >= Duration::from_millis(30));
        let thread = std::thread::spawn(move || giver.give("late"));
        assert_eq!(taker.take_within(Duration::from_secs(30)), Some("late"));
        thread.join().unwrap();
        // Taken once: the slot is empty after.
        assert_eq!(taker.take_within(Duration::ZERO), None);
    }
}
