//! OAuth 2.1 on HTTP, as the MCP authorization spec asks of a server: a
//! resource server. Its metadata (RFC 9728) names the authorization server
//! and the scopes, at `/.well-known/oauth-protected-resource` and below it
//! the endpoint's path; every request carries a bearer token the issuer
//! signed for this resource ([`verify`]); one without a valid token gets
//! `401` with `WWW-Authenticate: Bearer resource_metadata=...`, one whose
//! token lacks a scope `403` with `error="insufficient_scope"` and the
//! scope named (so a client asks for it: step-up). Scopes are server-wide
//! (`--oauth-scope`) or per tool (`--oauth-tool-scope PATTERN=SCOPE`);
//! `tools/list` shows a token only the tools it may call. A session
//! belongs to the holder that opened it.

pub(crate) mod verify;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use crate::serve::protocol::access::Admission;
use verify::{Client, Holder, Refusal, Verifier};

/// How the resource server is set up (`mcp serve --http --oauth-*`).
#[derive(Debug, Clone, Default)]
pub(crate) struct OAuthOptions {
    /// The authorization server's issuer identifier.
    pub(crate) issuer: String,
    /// This server's resource URI (the tokens' audience); the endpoint's
    /// URL when not given.
    pub(crate) resource: Option<String>,
    /// Scopes every request needs.
    pub(crate) scopes: Vec<String>,
    /// (tool-name pattern, scope): a call of a matching tool needs the scope.
    pub(crate) tool_scopes: Vec<(String, String)>,
    /// This server's client id and secret at the issuer, to introspect
    /// opaque tokens.
    pub(crate) introspection: Option<(String, String)>,
}

impl OAuthOptions {
    /// Reads `PATTERN=SCOPE`.
    pub(crate) fn tool_scope(given: &str) -> Result<(String, String), String> {
        match given.split_once('=') {
            Some((pattern, scope))
                if !pattern.trim().is_empty() && is_scope_token(scope.trim()) =>
            {
                Ok((pattern.trim().to_owned(), scope.trim().to_owned()))
            }
            _ => Err(format!(
                "--oauth-tool-scope {given:?}: expected TOOL=SCOPE, e.g. 'app_task_*=tasks:write'"
            )),
        }
    }
}

/// A scope as RFC 6749 spells one: printable ASCII, no space, `"` or `\`.
pub(crate) fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| b == b'!' || (b'#'..=b'[').contains(&b) || (b']'..=b'~').contains(&b))
}

/// The resource server: the verifier, the scopes, and who opened which
/// session.
pub(crate) struct ResourceServer {
    verifier: Verifier,
    issuer: String,
    resource: String,
    metadata_url: String,
    scopes: Vec<String>,
    tool_scopes: Vec<(wildmatch::WildMatch, String)>,
    owners: Mutex<HashMap<String, String>>,
}

/// What a request's valid token grants, put in its extensions (for the
/// `403` of a call whose scope it lacks), and beside it as the
/// [`Access`](crate::serve::protocol::access::Access) rmcp hands the server with the request (`tools/list` shows only what
/// it may call).
#[derive(Debug, Clone)]
pub(crate) struct Grant {
    holder: Holder,
    server: Arc<ResourceServer>,
}

impl std::fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceServer")
            .field("issuer", &self.issuer)
            .field("resource", &self.resource)
            .finish_non_exhaustive()
    }
}

impl Grant {
    /// The `403` for a call of `tool` the token lacks the scope of.
    pub(crate) fn refuse_call(&self, tool: &str) -> Option<Response> {
        self.server.refuse_call(self, tool)
    }
}

impl Admission for Grant {
    /// The token's holder: its issuer and subject, `"iss sub"`.
    fn holder(&self) -> &str {
        &self.holder.subject
    }

    /// The scope a call of `tool` needs that the token lacks.
    fn missing_scope(&self, tool: &str) -> Option<&str> {
        self.server.missing_scope(&self.holder, tool)
    }
}

impl ResourceServer {
    /// Reads the issuer's metadata and keys (blocking), for the endpoint
    /// at `endpoint` (its URL as clients reach it on this machine).
    pub(crate) fn start(options: &OAuthOptions, endpoint: &str) -> Result<Self, String> {
        let resource = options
            .resource
            .clone()
            .unwrap_or_else(|| endpoint.to_owned())
            .trim_end_matches('/')
            .to_owned();
        let metadata_url = metadata_url(&resource)
            .ok_or_else(|| format!("--oauth-resource {resource:?}: expected an http(s) URL"))?;
        let client = options
            .introspection
            .clone()
            .map(|(id, secret)| Client { id, secret });
        let verifier = Verifier::start(&options.issuer, &resource, client)?;
        Ok(Self {
            issuer: verifier.issuer().to_owned(),
            verifier,
            resource,
            metadata_url,
            scopes: options.scopes.clone(),
            tool_scopes: options
                .tool_scopes
                .iter()
                .map(|(pattern, scope)| (wildmatch::WildMatch::new(pattern), scope.clone()))
                .collect(),
            owners: Mutex::default(),
        })
    }

    /// The paths its metadata is served at: under the endpoint's path
    /// (RFC 9728 section 3.1), and at the root, where clients look too.
    pub(crate) fn metadata_paths(&self) -> Vec<String> {
        let path = self
            .metadata_url
            .split_once("/.well-known/")
            .map_or("", |(_, rest)| &rest["oauth-protected-resource".len()..]);
        let mut paths = vec![format!("/.well-known/oauth-protected-resource{path}")];
        if !path.is_empty() {
            paths.push("/.well-known/oauth-protected-resource".to_owned());
        }
        paths
    }

    /// The metadata document (RFC 9728).
    pub(crate) fn metadata(&self) -> Value {
        let mut scopes: Vec<&str> = self.scopes.iter().map(String::as_str).collect();
        for (_, scope) in &self.tool_scopes {
            if !scopes.contains(&scope.as_str()) {
                scopes.push(scope);
            }
        }
        json!({
            "resource": self.resource,
            "authorization_servers": [self.issuer],
            "scopes_supported": scopes,
            "bearer_methods_supported": ["header"],
        })
    }

    /// The request's token checked: what it grants, or the `401`/`403`.
    pub(crate) async fn admit(
        self: &Arc<Self>,
        authorization: Option<&str>,
        session: Option<&str>,
    ) -> Result<Grant, Response> {
        let token = authorization.and_then(|value| {
            let (scheme, token) = value.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        });
        let Some(token) = token.filter(|token| !token.is_empty()) else {
            return Err(self.challenge(StatusCode::UNAUTHORIZED, None, &self.scopes.join(" ")));
        };
        let holder = match self.verifier.verify(token).await {
            Ok(holder) => holder,
            Err(Refusal::Invalid(why)) => {
                tracing::info!(why, "a request's token is refused");
                let error = Some(("invalid_token", why.as_str()));
                return Err(self.challenge(
                    StatusCode::UNAUTHORIZED,
                    error,
                    &self.scopes.join(" "),
                ));
            }
            Err(Refusal::Unavailable(why)) => {
                // Not the token's fault: the client should not re-authorize.
                tracing::warn!(why, "a request's token cannot be checked");
                let text = format!("{why}; retry later\n");
                let mut response = (StatusCode::SERVICE_UNAVAILABLE, text).into_response();
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
                return Err(response);
            }
        };
        let missing: Vec<&str> = self
            .scopes
            .iter()
            .filter(|scope| !holder.scopes.contains(scope))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            let why = format!("this server needs the scope {}", missing.join(" "));
            return Err(self.insufficient(&holder, &missing, &why));
        }
        if let Some(session) = session {
            let owner = self
                .owners
                .lock()
                .ok()
                .and_then(|owners| owners.get(session).cloned());
            if owner.is_some_and(|owner| owner != holder.subject) {
                tracing::warn!("a session used with another holder's token is refused");
                return Err((StatusCode::NOT_FOUND, "no such session\n").into_response());
            }
        }
        Ok(Grant {
            holder,
            server: Arc::clone(self),
        })
    }

    /// The session a response opened now belongs to the grant's holder;
    /// the sessions that ended are forgotten.
    pub(crate) fn opened(&self, session: &str, grant: &Grant, open: impl Fn(&str) -> bool) {
        if let Ok(mut owners) = self.owners.lock() {
            owners.retain(|known, _| open(known));
            owners.insert(session.to_owned(), grant.holder.subject.clone());
        }
    }

    /// The `403` for a call of `tool` whose token lacks the tool's scope.
    pub(crate) fn refuse_call(&self, grant: &Grant, tool: &str) -> Option<Response> {
        let scope = self.missing_scope(&grant.holder, tool)?;
        let why = format!("the tool `{tool}` needs the scope {scope}");
        Some(self.insufficient(&grant.holder, &[scope], &why))
    }

    /// The first scope `tool` needs that `holder` lacks.
    fn missing_scope<'a>(&'a self, holder: &Holder, tool: &str) -> Option<&'a str> {
        self.tool_scopes
            .iter()
            .filter(|(pattern, _)| pattern.matches(tool))
            .map(|(_, scope)| scope.as_str())
            .find(|scope| !holder.scopes.iter().any(|granted| granted == scope))
    }

    /// `403 insufficient_scope`, naming the scopes to ask for: those held
    /// and those missing (a client asks for them all at once).
    fn insufficient(&self, holder: &Holder, missing: &[&str], why: &str) -> Response {
        let mut scopes: Vec<&str> = holder.scopes.iter().map(String::as_str).collect();
        scopes.extend(
            missing
                .iter()
                .filter(|scope| !holder.scopes.iter().any(|s| s == *scope)),
        );
        tracing::info!(why, "a request's token lacks a scope");
        self.challenge(
            StatusCode::FORBIDDEN,
            Some(("insufficient_scope", why)),
            &scopes.join(" "),
        )
    }

    /// A response with a `WWW-Authenticate: Bearer` challenge.
    fn challenge(&self, status: StatusCode, error: Option<(&str, &str)>, scope: &str) -> Response {
        let mut parts = vec![format!("resource_metadata=\"{}\"", self.metadata_url)];
        if !scope.is_empty() {
            parts.push(format!("scope=\"{}\"", quoted(scope)));
        }
        if let Some((error, description)) = error {
            parts.push(format!("error=\"{error}\""));
            parts.push(format!("error_description=\"{}\"", quoted(description)));
        }
        let challenge = format!("Bearer {}", parts.join(", "));
        let text = match error {
            Some((_, description)) => format!("{description}\n"),
            None => "a bearer token is required (Authorization: Bearer ...)\n".to_owned(),
        };
        let mut response = (status, text).into_response();
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// A text fit for a quoted-string of a header: printable ASCII, no `"`
/// or `\`.
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            c if c == ' ' || c.is_ascii_graphic() => c,
            _ => '?',
        })
        .collect()
}

/// The URL of the metadata of the resource `resource` (RFC 9728 section
/// 3.1: the well-known part inserted between the host and the path).
fn metadata_url(resource: &str) -> Option<String> {
    let (scheme, rest) = resource.split_once("://")?;
    if !matches!(scheme, "http" | "https") || rest.is_empty() {
        return None;
    }
    let (host, path) = match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    Some(format!(
        "{scheme}://{host}/.well-known/oauth-protected-resource{}",
        path.trim_end_matches('/')
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_url_puts_the_well_known_part_before_the_path() {
        assert_eq!(
            metadata_url("http://127.0.0.1:8080/mcp").as_deref(),
            Some("http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(
            metadata_url("https://tools.example").as_deref(),
            Some("https://tools.example/.well-known/oauth-protected-resource")
        );
        assert_eq!(metadata_url("tools.example/mcp"), None);
    }

    #[test]
    fn tool_scopes_and_scope_tokens_are_read_strictly() {
        assert_eq!(
            OAuthOptions::tool_scope("app_task_*=tasks:write"),
            Ok(("app_task_*".to_owned(), "tasks:write".to_owned()))
        );
        for bad in ["app_task_*", "=x", "a=", "a=two words", "a=quo\"te"] {
            assert!(OAuthOptions::tool_scope(bad).is_err(), "{bad}");
        }
        assert_eq!(quoted("say \"no\"\n"), "say 'no'?");
    }
}
