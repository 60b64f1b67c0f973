//! Spawning a task on tokio's runtime as a boxed future (or closure).
//!
//! tokio compiles its task machinery (polling, completion, shutdown,
//! the join handle) once per future type and scheduler: every
//! `tokio::spawn` of an `async` block of its own is about 2 KB more of
//! every adopting CLI's binary, twice (the multi-thread and the
//! current-thread scheduler), and more work for its build. Spawned
//! through here, the server's tasks share one copy per output type. What
//! it costs, one allocation per task spawned, is small beside the task's
//! own.

use std::future::Future;
use std::pin::Pin;

use tokio::runtime::Handle;
use tokio::task::JoinHandle;

/// A future as the server's tasks are spawned: boxed, its type erased.
type Boxed<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// `tokio::spawn(future)`, on the current runtime.
pub(crate) fn spawn<T: Send + 'static>(
    future: impl Future<Output = T> + Send + 'static,
) -> JoinHandle<T> {
    tokio::spawn(boxed(future))
}

/// `runtime.spawn(future)`.
pub(crate) fn spawn_on<T: Send + 'static>(
    runtime: &Handle,
    future: impl Future<Output = T> + Send + 'static,
) -> JoinHandle<T> {
    runtime.spawn(boxed(future))
}

/// `tokio::task::spawn_blocking(work)`: the same for blocking work.
pub(crate) fn spawn_blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> JoinHandle<T> {
    let work: Box<dyn FnOnce() -> T + Send + 'static> = Box::new(work);
    tokio::task::spawn_blocking(work)
}

/// `future` as the server's tasks are spawned (for `JoinSet::spawn`).
pub(crate) fn boxed<T>(future: impl Future<Output = T> + Send + 'static) -> Boxed<T> {
    Box::pin(future)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn spawned_tasks_run_and_report_their_panics() {
        assert_eq!(spawn(async { 6 * 7 }).await.unwrap(), 42);
        let handle = Handle::current();
        assert_eq!(spawn_on(&handle, async { "on" }).await.unwrap(), "on");
        assert_eq!(spawn_blocking(|| 7).await.unwrap(), 7);
        let failed = spawn(async { panic!("boom") }).await.unwrap_err();
        assert!(failed.is_panic());
    }
}
