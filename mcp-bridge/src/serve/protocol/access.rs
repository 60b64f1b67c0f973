//! What a request was admitted to do, as the handlers read it: with OAuth,
//! the token holder the request came from and the tools its scopes reach.
//! Whoever admitted the request (over HTTP, the resource server of
//! `http/oauth/`) puts an [`Access`] in its extensions; rmcp hands them to
//! the server with the request, so the handlers ask it without knowing
//! OAuth (`tools/list` shows what it may call, `tools/call` refuses a tool
//! whose scope it lacks, `owners.rs` binds tasks and rounds to its holder).

use std::sync::Arc;

use rmcp::service::RequestContext;
use rmcp::RoleServer;

/// What admitted a request answers of it.
pub(crate) trait Admission {
    /// Who the request came from (with OAuth, the token's issuer and
    /// subject, `"iss sub"`).
    fn holder(&self) -> &str;
    /// The scope a call of `tool` needs that the request was not granted.
    fn missing_scope(&self, tool: &str) -> Option<&str>;
}

/// What a request was admitted to do, put in its extensions by whoever
/// admitted it.
#[derive(Clone)]
pub(crate) struct Access(Arc<dyn Admission + Send + Sync>);

impl Access {
    /// The access `admission` gives.
    pub(crate) fn new(admission: impl Admission + Send + Sync + 'static) -> Self {
        Self(Arc::new(admission))
    }

    /// The access of the request `context` answers, when it came over HTTP
    /// and was admitted (with an OAuth token).
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Option<&Self> {
        context
            .extensions
            .get::<axum::http::request::Parts>()?
            .extensions
            .get::<Self>()
    }

    /// Who the request came from: `"iss sub"`.
    pub(crate) fn holder(&self) -> &str {
        self.0.holder()
    }

    /// Whether the request may call `tool`.
    pub(crate) fn may_call(&self, tool: &str) -> bool {
        self.0.missing_scope(tool).is_none()
    }

    /// The scope a call of `tool` needs that the request was not granted.
    pub(crate) fn missing_scope(&self, tool: &str) -> Option<&str> {
        self.0.missing_scope(tool)
    }
}
