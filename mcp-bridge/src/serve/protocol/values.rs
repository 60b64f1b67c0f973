//! Values fetched at run time (`#[mcp(values = path::to_fn)]`): each
//! function is called off the event loop when its values are due (at the
//! first `initialize` or `tools/list`, then every TTL), and what it gives
//! becomes the property's `enum` in `tools/list` and what a call's value is
//! checked against. A change sends `notifications/tools/list_changed` to
//! every client (`fetching.rs`). A function that fails, panics or hangs
//! leaves the values as they were (the static schema, before any fetch
//! succeeded), and the log says why.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::locks::lock;
use crate::error::{ArgError, Problem};
use crate::spec::{ToolSpec, ValueType, ValuesSource};

/// How long fetched values hold when the argument gives no `values_ttl`.
pub(crate) const DEFAULT_TTL: Duration = Duration::from_secs(60);
/// The longest a values function may take before its fetch is given up.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// A call giving a value not among the current ones fetches them again
/// first, unless they are younger than this.
const MIN_REFETCH: Duration = Duration::from_secs(1);

/// The values functions of a CLI, their current values, and which tool
/// properties use them.
pub(crate) struct Values {
    functions: Vec<Function>,
    /// Per tool (table order): its properties with fetched values, as
    /// (property name, item delimiter, function index).
    uses: Vec<Vec<Use>>,
    /// Set when the first round of fetches is done (or given up).
    ready: tokio::sync::watch::Sender<bool>,
    /// Set when a `tools/list` was answered before the first round was
    /// done: its client must be told when the values come.
    listed_early: std::sync::atomic::AtomicBool,
}

struct Use {
    property: String,
    delimiter: Option<char>,
    function: usize,
}

struct Function {
    source: ValuesSource,
    state: Mutex<State>,
    /// Held while a fetch is waited for: one at a time, and a call that
    /// waited behind one uses its values.
    turn: tokio::sync::Mutex<()>,
    /// Set while the function runs (a hung one past its timeout too): no
    /// second thread is started for it meanwhile.
    running: Arc<std::sync::atomic::AtomicBool>,
}

#[derive(Default)]
struct State {
    /// The last values fetched; `None` before any fetch succeeded.
    values: Option<Arc<Vec<String>>>,
    /// When the last fetch ended (succeeded or not).
    fetched: Option<Instant>,
}

impl Values {
    /// The values functions of `specs` (one per function, however many
    /// properties use it); `None` when no argument has one.
    pub(crate) fn new<'a>(specs: impl Iterator<Item = &'a ToolSpec>) -> Option<Self> {
        let mut functions: Vec<Function> = Vec::new();
        let mut uses = Vec::new();
        for spec in specs {
            let mut tool_uses = Vec::new();
            for param in &spec.params {
                let Some(source) = param.values else { continue };
                // One function per `fetch` pointer: a global argument's
                // copies share it.
                let function = match functions
                    .iter()
                    .position(|f| f.source.fetch as usize == source.fetch as usize)
                {
                    Some(at) => at,
                    None => {
                        functions.push(Function {
                            source,
                            state: Mutex::default(),
                            turn: tokio::sync::Mutex::new(()),
                            running: Arc::default(),
                        });
                        functions.len() - 1
                    }
                };
                tool_uses.push(Use {
                    property: param.name.clone(),
                    delimiter: param.delimiter,
                    function,
                });
            }
            uses.push(tool_uses);
        }
        if functions.is_empty() {
            return None;
        }
        Some(Self {
            functions,
            uses,
            ready: tokio::sync::watch::Sender::new(false),
            listed_early: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The functions whose values are due at `now`.
    pub(crate) fn due(&self, now: Instant) -> Vec<usize> {
        (0..self.functions.len())
            .filter(|&at| self.next_fetch(at).is_none_or(|next| next <= now))
            .collect()
    }

    /// How long until the next function is due (at least a second).
    pub(crate) fn until_due(&self, now: Instant) -> Duration {
        (0..self.functions.len())
            .filter_map(|at| self.next_fetch(at))
            .map(|next| next.saturating_duration_since(now))
            .min()
            .unwrap_or(DEFAULT_TTL)
            .max(MIN_REFETCH)
    }

    fn next_fetch(&self, at: usize) -> Option<Instant> {
        let function = &self.functions[at];
        let fetched = lock(&function.state).fetched?;
        Some(fetched + function.source.ttl.unwrap_or(DEFAULT_TTL))
    }

    /// Fetches function `at`'s values off the event loop; `true` when they
    /// changed.
    pub(crate) async fn fetch(&self, at: usize) -> bool {
        let function = &self.functions[at];
        let _turn = function.turn.lock().await;
        if !self.may_refetch(at) {
            // Fetched while this call waited for its turn.
            return false;
        }
        let Some(started) = self.start(at) else {
            return self.settle(at, Err(still_running()));
        };
        let fetched =
            tokio::time::timeout(FETCH_TIMEOUT, crate::spawn::spawn_blocking(started)).await;
        let fetched = match fetched {
            Ok(Ok(fetched)) => fetched,
            Ok(Err(error)) => Err(format!("it did not finish: {error}")),
            Err(_) => Err(format!("it took longer than {}s", FETCH_TIMEOUT.as_secs())),
        };
        self.settle(at, fetched)
    }

    /// The function `at` to run once, clearing its running mark when it
    /// returns; `None` while an earlier run has not returned.
    fn start(
        &self,
        at: usize,
    ) -> Option<impl FnOnce() -> Result<Vec<String>, String> + Send + 'static> {
        let function = &self.functions[at];
        if function
            .running
            .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            return None;
        }
        let (source, running) = (function.source, Arc::clone(&function.running));
        Some(move || {
            let fetched = source.call();
            running.store(false, std::sync::atomic::Ordering::SeqCst);
            fetched
        })
    }

    /// Fetches, on this thread, the due values of the functions `tool`
    /// uses (every function for `None`): for a call or a listing outside a
    /// server's runtime. The functions whose values changed.
    pub(crate) fn fetch_due_here(&self, tool: Option<usize>) -> Vec<usize> {
        let mut changed = Vec::new();
        for at in self.due(Instant::now()) {
            let used = tool.is_none_or(|tool| {
                self.uses
                    .get(tool)
                    .is_some_and(|uses| uses.iter().any(|u| u.function == at))
            });
            // Another fetch of it under way: its values come from that one.
            let turn = self.functions[at].turn.try_lock();
            if used && turn.is_ok() {
                let fetched = match self.start(at) {
                    None => Err(still_running()),
                    Some(started) => {
                        let (giver, fetched) = crate::handoff::handoff();
                        std::thread::spawn(move || giver.give(started()));
                        fetched.take_within(FETCH_TIMEOUT).unwrap_or_else(|| {
                            Err(format!("it took longer than {}s", FETCH_TIMEOUT.as_secs()))
                        })
                    }
                };
                if self.settle(at, fetched) {
                    changed.push(at);
                }
            }
        }
        changed
    }

    /// Keeps what a fetch gave; `true` when the values changed.
    fn settle(&self, at: usize, fetched: Result<Vec<String>, String>) -> bool {
        let function = &self.functions[at];
        let mut state = lock(&function.state);
        state.fetched = Some(Instant::now());
        match fetched {
            Ok(mut values) => {
                let mut seen = std::collections::HashSet::new();
                values.retain(|value| seen.insert(value.clone()));
                if state.values.as_deref() == Some(&values) {
                    return false;
                }
                tracing::info!(
                    function = function.source.name,
                    count = values.len(),
                    "argument values fetched"
                );
                state.values = Some(Arc::new(values));
                true
            }
            Err(why) => {
                let kept = match state.values {
                    Some(_) => "the values fetched before are kept",
                    None => "the schema stays as the CLI declares it",
                };
                tracing::warn!(
                    function = function.source.name,
                    "cannot fetch argument values: {why}; {kept}"
                );
                false
            }
        }
    }

    /// Marks the first round of fetches done; whether a client must be
    /// told the values changed the tools: always after the first round,
    /// and after it only when a list went out without them.
    pub(crate) fn set_ready(&self, changed: bool) -> bool {
        let first = !self.ready.send_replace(true);
        changed && (!first || self.listed_early.load(std::sync::atomic::Ordering::SeqCst))
    }

    /// Whether the first round of fetches is done.
    pub(crate) fn ready(&self) -> bool {
        *self.ready.borrow()
    }

    /// Waits (at most `limit`) for the first round of fetches, so the first
    /// `tools/list` has the values; a list answered without them is noted.
    pub(crate) async fn first_round(&self, limit: Duration) {
        let mut ready = self.ready.subscribe();
        if tokio::time::timeout(limit, ready.wait_for(|ready| *ready))
            .await
            .is_err()
        {
            self.listed_early
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// The tools (table order) with a property using one of `functions`.
    pub(crate) fn tools_using(&self, functions: &[usize]) -> Vec<usize> {
        (0..self.uses.len())
            .filter(|&tool| {
                self.uses[tool]
                    .iter()
                    .any(|u| functions.contains(&u.function))
            })
            .collect()
    }

    /// `spec` with the current values as the `enum` of its properties
    /// that fetch them (as declared where none were fetched yet).
    pub(crate) fn patched(&self, tool: usize, spec: &ToolSpec) -> ToolSpec {
        let mut spec = spec.clone();
        for using in self.uses.get(tool).into_iter().flatten() {
            // None yet, or none at all: an empty `enum` no value could
            // meet would make the tool unusable; calls are refused anyway.
            let Some(values) = self.current(using.function).filter(|v| !v.is_empty()) else {
                continue;
            };
            if let Some(param) = spec.params.iter_mut().find(|p| p.name == using.property) {
                param.value_type = ValueType::Enum {
                    values: values.to_vec(),
                    help: Vec::new(),
                };
            }
        }
        spec
    }

    fn current(&self, at: usize) -> Option<Arc<Vec<String>>> {
        lock(&self.functions[at].state).values.clone()
    }

    /// The first value of `arguments` not among its property's current
    /// values: (function index, the refusal).
    pub(crate) fn refusal(
        &self,
        tool: usize,
        name: &str,
        arguments: &Map<String, Value>,
    ) -> Option<(usize, ArgError)> {
        for using in self.uses.get(tool).into_iter().flatten() {
            let Some(given) = arguments.get(&using.property) else {
                continue;
            };
            let Some(values) = self.current(using.function) else {
                continue;
            };
            let mut texts = Vec::new();
            match given {
                Value::String(text) => texts.push(text.as_str()),
                Value::Array(items) => texts.extend(items.iter().filter_map(Value::as_str)),
                _ => {}
            }
            let pieces = texts.into_iter().flat_map(|text| match using.delimiter {
                Some(delimiter) => text.split(delimiter).collect::<Vec<_>>(),
                None => vec![text],
            });
            for piece in pieces {
                if !values.iter().any(|value| value == piece) {
                    let shown: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
                    let expected = match shown.is_empty() {
                        true => "no value: the list of values is empty for now".to_owned(),
                        false => format!("one of {}", shown.join(", ")),
                    };
                    let error = ArgError::new(
                        name,
                        Some(&using.property),
                        Problem::Invalid {
                            given: Value::String(piece.to_owned()).to_string(),
                            expected,
                            reason: Some(format!(
                                "the values are fetched at run time by `{}`",
                                self.functions[using.function].source.name
                            )),
                        },
                    );
                    return Some((using.function, error));
                }
            }
        }
        None
    }

    /// Whether function `at`'s values may be fetched again for a call that
    /// gave a value not among them.
    pub(crate) fn may_refetch(&self, at: usize) -> bool {
        lock(&self.functions[at].state)
            .fetched
            .is_none_or(|fetched| fetched.elapsed() >= MIN_REFETCH)
    }
}

/// Why a function is not run again.
fn still_running() -> String {
    format!(
        "its previous run has not returned (after more than {}s)",
        FETCH_TIMEOUT.as_secs()
    )
}
