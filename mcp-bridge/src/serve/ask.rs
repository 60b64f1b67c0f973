//! Questions a handler asks its user ([`Io::confirm`](crate::Io::confirm),
//! [`confirm`](crate::confirm)...) sent to the client as MCP elicitation
//! requests: a form with one property (`confirm`, a boolean, or `answer`,
//! a string). The handler's call thread waits for the answer; the call's
//! cancellation or timeout ends the wait. A client that did not declare
//! elicitation support, or a protocol version without server requests,
//! gets no request: the question fails with the reason, and the handler
//! decides (see `Unanswered::instead`).

use std::sync::Arc;

use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::io::{Answer, AskFn, Question, Unanswered, UnansweredReason};

/// What asks the user of one call's client.
#[derive(Clone)]
pub(crate) struct Asker {
    peer: Peer<RoleServer>,
    /// Why the client cannot be asked, when it cannot.
    cannot: Option<String>,
}

impl Asker {
    /// The asker of the client that sent a request.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Self {
        let declared = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.elicitation.is_some());
        Self {
            peer: context.peer.clone(),
            cannot: (!declared).then(|| {
                "the MCP client did not declare that it can ask its user (elicitation)".to_owned()
            }),
        }
    }

    /// The asker as a blocking function for a call thread; `stop` ends a
    /// wait for an answer (the call was cancelled or timed out).
    pub(crate) fn blocking(self, stop: CancellationToken) -> AskFn {
        let runtime = tokio::runtime::Handle::current();
        Arc::new(move |question: &Question| {
            if let Some(why) = &self.cannot {
                return Err(Unanswered::new(
                    question,
                    UnansweredReason::CannotAsk(why.clone()),
                ));
            }
            let params = form(question);
            let peer = self.peer.clone();
            let asked = runtime.block_on(async {
                tokio::select! {
                    result = peer.create_elicitation(params) => Some(result),
                    () = stop.cancelled() => None,
                }
            });
            let result = match asked {
                None => return Err(Unanswered::new(question, UnansweredReason::Cancelled)),
                Some(Err(error)) => {
                    return Err(Unanswered::new(
                        question,
                        UnansweredReason::CannotAsk(format!(
                            "the client could not be asked: {error}"
                        )),
                    ))
                }
                Some(Ok(result)) => result,
            };
            match result.action {
                ElicitationAction::Accept => answer(question, result.content.as_ref()),
                ElicitationAction::Decline => {
                    Err(Unanswered::new(question, UnansweredReason::Declined))
                }
                // `Cancel`, and whatever later versions add.
                _ => Err(Unanswered::new(question, UnansweredReason::Cancelled)),
            }
        })
    }
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

/// The answer in an accepted form's content.
fn answer(question: &Question, content: Option<&Value>) -> Result<Answer, Unanswered> {
    let given = content.and_then(|content| content.get(property(question)));
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
