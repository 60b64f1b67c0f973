//! Who a task or a round belongs to: with OAuth, the token holder (`iss`
//! and `sub`) whose request made it. A later request that reaches it by
//! its id (`tasks/get`, `tasks/update`, `tasks/cancel`, a round's
//! `requestState`) from another holder gets what an unknown id gets, so
//! that not even its existence shows. With a static token or none (stdio,
//! loopback), nothing is bound: there is one holder.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::locks::lock;

/// The holder of the token the request came with (`"iss sub"`); `None`
/// without OAuth.
pub(super) fn holder_of(context: &RequestContext<RoleServer>) -> Option<String> {
    #[cfg(feature = "oauth")]
    {
        super::access::Access::of(context).map(|access| access.holder().to_owned())
    }
    #[cfg(not(feature = "oauth"))]
    {
        let _ = context;
        None
    }
}

/// Whether a thing made by `owner` may be reached by `caller`: always
/// when it was made without OAuth.
pub(super) fn may_reach(owner: Option<&str>, caller: Option<&str>) -> bool {
    owner.is_none_or(|owner| caller == Some(owner))
}

/// The tasks made by a token holder, by task id, each kept as long as
/// the task can be asked about (its time to live, twice over: rmcp keeps
/// a finished task's result for its time to live after it ends).
#[derive(Default)]
pub(super) struct TaskOwners {
    owners: Mutex<HashMap<String, (String, Instant)>>,
}

impl TaskOwners {
    /// Records that `holder` made the task `id`, and forgets the tasks
    /// past `keep`.
    pub(super) fn made(&self, id: &str, holder: String, keep: Duration) {
        let now = Instant::now();
        let mut owners = lock(&self.owners);
        owners.retain(|_, (_, until)| *until > now);
        owners.insert(id.to_owned(), (holder, now + keep.saturating_mul(2)));
    }

    /// Whether `caller` may reach the task `id` (any task not made under
    /// OAuth).
    pub(super) fn may_reach(&self, id: &str, caller: Option<&str>) -> bool {
        let owners = lock(&self.owners);
        may_reach(owners.get(id).map(|(owner, _)| owner.as_str()), caller)
    }

    /// How many are kept (for the tests of their bound).
    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.owners).len()
    }
}

/// The answer to a task id that is unknown, or another holder's: the
/// same words for both.
pub(super) fn no_such_task(id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown task: {id}"), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_holder_reaches_what_it_made_and_nothing_unbound_is_held_back() {
        assert!(may_reach(None, None));
        assert!(may_reach(None, Some("iss alice")));
        assert!(may_reach(Some("iss alice"), Some("iss alice")));
        assert!(!may_reach(Some("iss alice"), Some("iss bob")));
        assert!(!may_reach(Some("iss alice"), None));
        let owners = TaskOwners::default();
        owners.made("t1", "iss alice".into(), Duration::from_secs(60));
        assert!(owners.may_reach("t1", Some("iss alice")));
        assert!(!owners.may_reach("t1", Some("iss bob")));
        assert!(owners.may_reach("t2", Some("iss bob")));
    }

    #[test]
    fn tasks_past_their_time_are_forgotten() {
        let owners = TaskOwners::default();
        owners.made("old", "iss alice".into(), Duration::ZERO);
        std::thread::sleep(Duration::from_millis(2));
        owners.made("new", "iss alice".into(), Duration::from_secs(60));
        assert_eq!(owners.len(), 1);
    }
}
