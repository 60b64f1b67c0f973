//! Questions a handler asks its user ([`Io::confirm`](crate::Io::confirm),
//! [`confirm`](crate::confirm)...) sent to the client as MCP elicitation
//! requests: a form with one property (`confirm`, a boolean, or `answer`,
//! a string), one request of a call open at a time. The handler's call
//! thread waits for the answer; the call's cancellation or timeout ends
//! the wait. A client that did not declare elicitation support gets no
//! request: the question fails with the reason, and the handler decides
//! (see `Unanswered::instead`). A yes comes only as the form's `confirm`;
//! a text may come as the answer's one property under another name.
//!
//! Protocol 2026-07-28 has no server requests: there the question is the
//! call's answer, an `input_required` result whose `requestState` names
//! the call, which keeps waiting; the client asks its user and calls
//! again with the answer (`inputResponses`) and that state, and the call
//! goes on (`protocol/rounds.rs`: `BridgeServer::follow`, `resume`). A
//! call nobody comes back to is dropped after [`ROUND_EXPIRY`], its
//! question unanswered.
//!
//! A call that runs as a task of the MCP Tasks extension puts each
//! question in the task (rmcp's `TaskContext::request_input`, under a key
//! of its own, so several can wait at once), where the client finds it
//! with `tasks/get` and answers it with `tasks/update`; it waits no longer
//! than the task lives (`run_as_task` stops the call then). The same
//! channel carries a handler's [`Io::start_task`](crate::Io::start_task):
//! the call it follows becomes a task from there.

use std::sync::Arc;

use rmcp::model::{
    ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationSchema, InputRequest, ServerRequest,
};
use rmcp::service::{RequestContext, ServiceError};
use rmcp::{Peer, RoleServer};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::io::{Answer, AskFn, Question, StartTaskFn, Unanswered, UnansweredReason};

/// How long a call waits for a 2026-07-28 client to come back with the
/// answer to its question.
pub(crate) const ROUND_EXPIRY: std::time::Duration = std::time::Duration::from_secs(600);

/// The key of the one question in an `input_required` result.
pub(crate) const QUESTION_KEY: &str = "question";

/// A question put to a 2026-07-28 client or a task's: the call's thread
/// waits for `answer`.
pub(crate) struct Asked {
    pub(crate) question: Question,
    pub(crate) answer: tokio::sync::oneshot::Sender<Result<Answer, Unanswered>>,
}

/// What a followed call asks of the server that follows it, in the order
/// its handler asked.
pub(crate) enum FromCall {
    /// A question.
    Asked(Asked),
    /// [`Io::start_task`](crate::Io::start_task): whether the call is a
    /// task from now on goes back (once it is one).
    StartTask(tokio::sync::oneshot::Sender<bool>),
}

/// What asks the user of one call's client.
#[derive(Clone)]
pub(crate) struct Asker {
    way: Way,
    /// Why the client cannot be asked, when it cannot.
    cannot: Option<String>,
}

#[derive(Clone)]
enum Way {
    /// An `elicitation/create` request in the session, one at a time per
    /// call (`turn`): many clients show one form at a time, and some
    /// cannot handle a second request while a first is open.
    Request {
        peer: Peer<RoleServer>,
        turn: Arc<tokio::sync::Mutex<()>>,
    },
    /// Whoever follows the call: an `input_required` result answered by
    /// the next call, or an input request of its task.
    Round(tokio::sync::mpsc::UnboundedSender<FromCall>),
}

/// Whether the client of a request can ask its user.
pub(crate) fn can_ask(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.elicitation.is_some())
}

/// Why the client of a request cannot be asked, when it cannot.
fn cannot_ask(context: &RequestContext<RoleServer>) -> Option<String> {
    (!can_ask(context))
        .then(|| "the MCP client did not declare that it can ask its user (elicitation)".to_owned())
}

/// Whether the client of a request supports the MCP Tasks extension.
pub(crate) fn supports_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks())
}

impl Asker {
    /// The asker of the client that sent a request, by elicitation
    /// requests in its session.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Self {
        Self {
            way: Way::Request {
                peer: context.peer.clone(),
                turn: Arc::default(),
            },
            cannot: cannot_ask(context),
        }
    }

    /// An asker whose questions go to `asks`, each to become an
    /// `input_required` result or an input request of the call's task,
    /// when the client that sent `context` can ask its user.
    pub(crate) fn in_rounds(
        asks: tokio::sync::mpsc::UnboundedSender<FromCall>,
        context: &RequestContext<RoleServer>,
    ) -> Self {
        Self {
            way: Way::Round(asks),
            cannot: cannot_ask(context),
        }
    }

    /// What makes the call a task ([`Io::start_task`](crate::Io::start_task)):
    /// for a followed call only, blocking until whoever follows it says
    /// whether it is one now (a round waiting for an answer says so when
    /// it is answered, or expires), or until `stop` (the call was
    /// cancelled or timed out: it is no task).
    pub(crate) fn task_starter(&self, stop: CancellationToken) -> Option<StartTaskFn> {
        let Way::Round(asks) = &self.way else {
            return None;
        };
        let asks = asks.clone();
        let runtime = tokio::runtime::Handle::current();
        Some(Arc::new(move || {
            let (started, answer) = tokio::sync::oneshot::channel();
            if asks.send(FromCall::StartTask(started)).is_err() {
                return false;
            }
            let started = async move { answer.await.unwrap_or(false) };
            wait_on(&runtime, &stop, None, started).unwrap_or(false)
        }))
    }

    /// The asker as a blocking function for a call thread; `stop` ends a
    /// wait for an answer (the call was cancelled or timed out), and so
    /// does [`ROUND_EXPIRY`] for an elicitation request. A followed call's
    /// question waits as long as whoever follows it keeps it: a round
    /// until [`ROUND_EXPIRY`], a task until its time to live.
    pub(crate) fn blocking(self, stop: CancellationToken) -> AskFn {
        let runtime = tokio::runtime::Handle::current();
        Arc::new(move |question: &Question| {
            if let Some(why) = &self.cannot {
                return Err(Unanswered::new(
                    question,
                    UnansweredReason::CannotAsk(why.clone()),
                ));
            }
            let (way, asked) = (self.way.clone(), question.clone());
            let limit = match way {
                Way::Request { .. } => Some(ROUND_EXPIRY),
                Way::Round(_) => None,
            };
            let answered = async move { way.ask(&asked).await };
            wait_on(&runtime, &stop, limit, answered)
                .unwrap_or_else(|| Err(Unanswered::new(question, UnansweredReason::Cancelled)))
        })
    }
}

/// Waits on a call thread for `wanted`, run on the server's `runtime`
/// (the thread waits on a plain channel, so a handler may wait from
/// inside a runtime of its own): `None` when `stop` or `limit` comes
/// first.
fn wait_on<T: Send + 'static>(
    runtime: &tokio::runtime::Handle,
    stop: &CancellationToken,
    limit: Option<std::time::Duration>,
    wanted: impl std::future::Future<Output = T> + Send + 'static,
) -> Option<T> {
    let (giver, got) = crate::handoff::handoff();
    let stop = stop.clone();
    crate::spawn::spawn_on(runtime, async move {
        let limit = async {
            match limit {
                Some(limit) => tokio::time::sleep(limit).await,
                None => std::future::pending().await,
            }
        };
        let got = tokio::select! {
            got = wanted => Some(got),
            () = stop.cancelled() => None,
            () = limit => None,
        };
        giver.give(got);
    });
    got.take().flatten()
}

impl Way {
    /// Asks `question` and waits for the answer.
    async fn ask(self, question: &Question) -> Result<Answer, Unanswered> {
        match self {
            Way::Round(asks) => {
                let (answer, answered) = tokio::sync::oneshot::channel();
                let asked = Asked {
                    question: question.clone(),
                    answer,
                };
                if asks.send(FromCall::Asked(asked)).is_err() {
                    return Err(Unanswered::new(question, UnansweredReason::Cancelled));
                }
                answered
                    .await
                    .unwrap_or_else(|_| Err(Unanswered::new(question, UnansweredReason::Cancelled)))
            }
            Way::Request { peer, turn } => {
                // The call's questions take turns: one open at a time.
                let _turn = turn.lock().await;
                match elicit(&peer, form(question)).await {
                    Ok(result) => answered(question, &result),
                    Err(error) => Err(Unanswered::new(
                        question,
                        UnansweredReason::CannotAsk(format!(
                            "the client could not be asked: {error}"
                        )),
                    )),
                }
            }
        }
    }
}

/// `elicitation/create`, sent as the peer sends any request: rmcp's own
/// `create_elicitation` is behind its `elicitation` feature, which brings
/// a URL parser and its Unicode tables (about twenty crates of every
/// adopter's build) for what this server never reads.
async fn elicit(
    peer: &Peer<RoleServer>,
    params: ElicitRequestParams,
) -> Result<ElicitResult, ServiceError> {
    let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
    match peer.send_request(request).await? {
        ClientResult::ElicitResult(result) => Ok(result),
        _ => Err(ServiceError::UnexpectedResponse),
    }
}

/// An asker that refuses every question, saying `why`: a call no client
/// can be asked for (a direct call).
pub(crate) fn refusing(why: &'static str) -> AskFn {
    Arc::new(move |question: &Question| {
        Err(Unanswered::new(
            question,
            UnansweredReason::CannotAsk(why.to_owned()),
        ))
    })
}

/// The answer an elicitation result gives to `question`.
pub(crate) fn answered(question: &Question, result: &ElicitResult) -> Result<Answer, Unanswered> {
    match result.action {
        ElicitationAction::Accept => answer(question, result.content.as_ref()),
        ElicitationAction::Decline => Err(Unanswered::new(question, UnansweredReason::Declined)),
        // `Cancel`, and whatever later versions add.
        _ => Err(Unanswered::new(question, UnansweredReason::Cancelled)),
    }
}

/// The answer a 2026-07-28 client sent back for `question`
/// (`inputResponses`), as JSON.
pub(crate) fn answered_in_round(
    question: &Question,
    response: Option<&Value>,
) -> Result<Answer, Unanswered> {
    let Some(response) = response else {
        return Err(Unanswered::new(
            question,
            UnansweredReason::CannotAsk(format!(
                "the client's call carried no answer under `{QUESTION_KEY}` in inputResponses"
            )),
        ));
    };
    answered_as_json(question, response)
}

/// The answer a client sent as JSON (an elicitation result) for
/// `question`: in `inputResponses`, or through `tasks/update`.
pub(crate) fn answered_as_json(
    question: &Question,
    response: &Value,
) -> Result<Answer, Unanswered> {
    match serde_json::from_value::<ElicitResult>(response.clone()) {
        Ok(result) => answered(question, &result),
        Err(error) => Err(Unanswered::new(
            question,
            UnansweredReason::CannotAsk(format!("the client's answer does not read: {error}")),
        )),
    }
}

/// Puts `asked` in the call's task under `key` and sends back the answer
/// the client gives with `tasks/update` (none when the task is
/// cancelled).
pub(crate) async fn ask_in_task(task: rmcp::task_manager::TaskContext, key: String, asked: Asked) {
    let answer = match task
        .request_input(key, input_request(&asked.question))
        .await
    {
        Ok(response) => answered_as_json(&asked.question, &response),
        Err(_) => Err(Unanswered::new(
            &asked.question,
            UnansweredReason::Cancelled,
        )),
    };
    let _ = asked.answer.send(answer);
}

/// `question` as the request of an `input_required` result.
pub(crate) fn input_request(question: &Question) -> InputRequest {
    InputRequest::Elicitation(ElicitRequest::new(form(question)))
}

/// The property a question's form has.
fn property(question: &Question) -> &'static str {
    match question {
        Question::Confirm(_) => "confirm",
        Question::Text(_) => "answer",
    }
}

fn form(question: &Question) -> ElicitRequestParams {
    let schema = match question {
        Question::Confirm(_) => ElicitationSchema::builder().required_bool(property(question)),
        Question::Text(_) => ElicitationSchema::builder().required_string(property(question)),
    };
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: question.text().to_owned(),
        requested_schema: schema.build_unchecked(),
    }
}

/// The answer in an accepted form's content: its property of the form's
/// name. A line of text may also come as the content's one property,
/// whatever its name (a client that answers with a form of its own,
/// `{"name": "Ann"}`); a yes never does: a form's other boolean
/// (`{"rememberChoice": true}`) is no consent to the question.
fn answer(question: &Question, content: Option<&Value>) -> Result<Answer, Unanswered> {
    let given = content.and_then(Value::as_object).and_then(|fields| {
        fields.get(property(question)).or_else(|| match question {
            Question::Confirm(_) => None,
            Question::Text(_) if fields.len() == 1 => fields.values().next(),
            Question::Text(_) => None,
        })
    });
    match (question, given) {
        (Question::Confirm(_), Some(Value::Bool(yes))) => Ok(Answer::Yes(*yes)),
        (Question::Text(_), Some(Value::String(text))) => Ok(Answer::Text(text.clone())),
        _ => Err(Unanswered::new(
            question,
            UnansweredReason::CannotAsk(format!(
                "the client's answer has no `{}` of the kind asked: {}",
                property(question),
                content.map_or_else(|| "nothing".to_owned(), Value::to_string)
            )),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::answer;
    use crate::io::{Answer, Question};
    use serde_json::json;

    #[test]
    fn an_answer_is_the_forms_property_or_a_texts_one_property() {
        let text = Question::Text("Your name?".to_owned());
        let yes = Question::Confirm("Sure?".to_owned());
        let given = |question: &Question, content| answer(question, Some(&content)).ok();
        let ann = Some(Answer::Text("Ann".to_owned()));
        assert_eq!(given(&text, json!({"answer": "Ann"})), ann);
        assert_eq!(given(&text, json!({"answer": "Ann", "confirm": true})), ann);
        // A client's own form: its one property, whatever its name.
        assert_eq!(given(&text, json!({"name": "Ann"})), ann);
        // With more than one, which is meant is unknown.
        assert_eq!(given(&text, json!({"name": "Ann", "confirm": true})), None);
        assert_eq!(given(&text, json!({"first": "Ann", "last": "Lee"})), None);
        // A yes comes as `confirm` only: another boolean is no consent.
        assert_eq!(
            given(&yes, json!({"confirm": true})),
            Some(Answer::Yes(true))
        );
        assert_eq!(given(&yes, json!({"rememberChoice": true})), None);
        assert_eq!(given(&yes, json!({"name": "Ann", "ok": true})), None);
        // The form's property of another kind is no answer.
        assert_eq!(given(&yes, json!({"confirm": "sure", "ok": true})), None);
        assert_eq!(given(&text, json!({"answer": 3})), None);
        assert_eq!(answer(&text, None).ok(), None);
    }
}
