//! Streamable HTTP: rmcp's server (sessions with their SSE streams, the
//! stateless mode, the `Host` and `Origin` checks, the body cap) mounted
//! at `/mcp` by axum, with what a server others can reach needs besides:
//! bearer-token auth (a static token, or OAuth: `oauth/`), a cap on
//! sessions, one log line per request, and an end that lets running calls
//! finish.

#[cfg(feature = "oauth")]
pub(crate) mod oauth;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use subtle::ConstantTimeEq;
use tokio_util::sync::CancellationToken;

use crate::serve::protocol::BridgeServer;
use crate::serve::transport;

/// The path the MCP endpoint is served at.
pub(crate) const ENDPOINT: &str = "/mcp";

/// How an HTTP server is set up (`mcp serve --http`).
#[derive(Debug, Clone)]
pub(crate) struct HttpOptions {
    /// Where to listen (loopback unless asked otherwise).
    pub(crate) addr: SocketAddr,
    /// Every POST on its own, no session (what scales behind a load
    /// balancer).
    pub(crate) stateless: bool,
    /// The bearer token every request must carry, when set.
    pub(crate) token: Option<String>,
    /// Listening beyond loopback without a token was asked for.
    pub(crate) allow_unauthenticated: bool,
    /// `Host` values accepted besides the loopback names and the bound
    /// address.
    pub(crate) allowed_hosts: Vec<String>,
    /// Browser origins accepted besides loopback pages.
    pub(crate) allowed_origins: Vec<String>,
    /// Sessions open at once, at most (stateful mode).
    pub(crate) max_sessions: usize,
    /// The largest request body, in bytes (`413` beyond).
    pub(crate) max_body_bytes: usize,
    /// A session unused this long is closed.
    pub(crate) session_idle: Duration,
    /// OAuth: tokens of an authorization server (`--oauth-issuer`).
    #[cfg(feature = "oauth")]
    pub(crate) oauth: Option<oauth::OAuthOptions>,
}

impl HttpOptions {
    /// Loopback, port `port`, sessions, no token, the default caps.
    pub(crate) fn loopback(port: u16) -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            stateless: false,
            token: None,
            allow_unauthenticated: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            max_sessions: 256,
            max_body_bytes: 4 * 1024 * 1024,
            session_idle: Duration::from_secs(300),
            #[cfg(feature = "oauth")]
            oauth: None,
        }
    }

    /// Whether requests are authenticated here (a token, or OAuth).
    fn authenticates(&self) -> bool {
        #[cfg(feature = "oauth")]
        if self.oauth.is_some() {
            return true;
        }
        self.token.is_some()
    }

    /// Refuses what would expose the CLI's commands to anyone who can
    /// reach the address.
    pub(crate) fn check(&self) -> Result<(), String> {
        #[cfg(feature = "oauth")]
        if self.oauth.is_some() && self.token.is_some() {
            return Err(
                "a static token (--token-env, --token-file) and OAuth (--oauth-issuer) \
                 exclude each other: give one"
                    .to_owned(),
            );
        }
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            if oauth.resource.is_none() && !self.addr.ip().is_loopback() {
                return Err(format!(
                    "--oauth-resource is needed when listening on {}: the tokens' audience is \
                     this server's URL as clients reach it, which the address does not tell",
                    self.addr
                ));
            }
        }
        if !self.addr.ip().is_loopback() && !self.authenticates() && !self.allow_unauthenticated {
            return Err(format!(
                "refusing to listen on {} without authentication: anyone who can reach it could run \
                 this CLI's commands; give a token (--token-env VAR or --token-file FILE) or an \
                 OAuth issuer (--oauth-issuer URL), or pass --allow-unauthenticated if something in front of the server authenticates",
                self.addr
            ));
        }
        if matches!(&self.token, Some(token) if token.trim().is_empty()) {
            return Err("the bearer token is empty".to_owned());
        }
        Ok(())
    }

    /// The `Host` values rmcp accepts: loopback names, the bound address,
    /// and those given.
    fn hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        if !self.addr.ip().is_unspecified() {
            hosts.push(self.addr.ip().to_string());
        }
        hosts.extend(self.allowed_hosts.iter().cloned());
        hosts
    }

    /// The browser origins rmcp accepts: pages served from loopback, and
    /// those given; a request without `Origin` (not a browser) passes.
    fn origins(&self) -> Vec<String> {
        let mut origins: Vec<String> = ["http", "https"]
            .into_iter()
            .flat_map(|scheme| {
                ["localhost", "127.0.0.1", "[::1]"]
                    .into_iter()
                    .map(move |host| format!("{scheme}://{host}:*"))
            })
            .collect();
        origins.extend(self.allowed_origins.iter().cloned());
        origins
    }
}

/// What the middleware needs.
struct Gate {
    token: Option<String>,
    sessions: Option<Arc<LocalSessionManager>>,
    max_sessions: usize,
    #[cfg(feature = "oauth")]
    oauth: Option<Arc<oauth::ResourceServer>>,
}

/// The router serving `server` at [`ENDPOINT`]; `stop` ends every session
/// and stream.
pub(crate) fn router(
    server: BridgeServer,
    options: &HttpOptions,
    stop: CancellationToken,
    #[cfg(feature = "oauth")] oauth: Option<Arc<oauth::ResourceServer>>,
) -> axum::Router {
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(options.hosts())
        .with_allowed_origins(options.origins())
        .enforce_origin_validation()
        .with_max_request_body_bytes(options.max_body_bytes)
        .with_legacy_session_mode(!options.stateless)
        .with_json_response(options.stateless)
        .with_cancellation_token(stop);
    let mut manager = LocalSessionManager::default();
    let mut session_config = SessionConfig::default();
    session_config.keep_alive = Some(options.session_idle);
    manager.session_config = session_config;
    let manager = Arc::new(manager);
    let service = StreamableHttpService::new(
        move || Ok(server.for_new_session()),
        Arc::clone(&manager),
        config,
    );
    let gate = Arc::new(Gate {
        token: options.token.clone(),
        sessions: (!options.stateless).then_some(manager),
        max_sessions: options.max_sessions,
        #[cfg(feature = "oauth")]
        oauth: oauth.clone(),
    });
    let router = axum::Router::new()
        .route_service(ENDPOINT, service)
        .layer(middleware::from_fn_with_state(
            Arc::new(Framing {
                max_body: options.max_body_bytes,
                in_flight: std::sync::Mutex::default(),
            }),
            answer_unreadable,
        ))
        .layer(middleware::from_fn_with_state(gate, guard));
    #[cfg(feature = "oauth")]
    if let Some(oauth) = oauth {
        // Public, outside the guard: what a client reads to get a token.
        let document = oauth.metadata().to_string();
        let mut public = axum::Router::new();
        for path in oauth.metadata_paths() {
            let document = document.clone();
            public = public.route(
                &path,
                axum::routing::get(move || async move {
                    (
                        [
                            (header::CONTENT_TYPE, "application/json"),
                            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
                        ],
                        document,
                    )
                }),
            );
        }
        return router.merge(public);
    }
    router
}

/// What the framing middleware keeps: the body cap, and the requests of
/// each session still waiting for their answer.
struct Framing {
    max_body: usize,
    in_flight: std::sync::Mutex<std::collections::HashSet<(String, rmcp::model::RequestId)>>,
}

/// Forgets a request once its response body is done (or dropped).
struct Answered {
    framing: Arc<Framing>,
    key: (String, rmcp::model::RequestId),
}

impl Drop for Answered {
    fn drop(&mut self) {
        if let Ok(mut in_flight) = self.framing.in_flight.lock() {
            in_flight.remove(&self.key);
        }
    }
}

/// A POSTed JSON body that is not one readable JSON-RPC message gets a
/// `400` whose body is the JSON-RPC error stdio would answer with (`-32700`
/// or `-32600`, with the request id whenever it can be read) — where rmcp
/// answers `415 Unsupported Media Type` in plain text. A body over the cap
/// gets `413`, as rmcp would answer it. A request whose id is already in
/// flight in its session gets a `400` refusal of its own (rmcp would route
/// both answers by that id, and one would never arrive), as over stdio.
async fn answer_unreadable(
    State(framing): State<Arc<Framing>>,
    request: Request,
    next: Next,
) -> Response {
    let max_body = framing.max_body;
    // The media type as rmcp reads it: before any parameter, in any case.
    let is_json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"));
    if request.method() != Method::POST || !is_json {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, max_body).await {
        Ok(bytes) => bytes,
        Err(error) => {
            let too_large = std::error::Error::source(&error)
                .is_some_and(|source| source.is::<http_body_util::LengthLimitError>());
            return if too_large {
                (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("request body larger than {max_body} bytes\n"),
                )
                    .into_response()
            } else {
                (
                    StatusCode::BAD_REQUEST,
                    format!("cannot read the request body: {error}\n"),
                )
                    .into_response()
            };
        }
    };
    let reply = match transport::decode_line(&bytes) {
        transport::Decoded::Message(message) => {
            let session = parts
                .headers
                .get("mcp-session-id")
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned);
            #[cfg(feature = "oauth")]
            if let Some(refusal) = refused_call(&parts, &message) {
                return refusal;
            }
            let answered = match (*message, session) {
                (rmcp::model::JsonRpcMessage::Request(request), Some(session)) => {
                    let key = (session, request.id.clone());
                    let fresh = framing
                        .in_flight
                        .lock()
                        .is_ok_and(|mut in_flight| in_flight.insert(key.clone()));
                    if !fresh {
                        return json_reply(
                            StatusCode::BAD_REQUEST,
                            &transport::duplicate_id(&request.id),
                        );
                    }
                    Some(Answered {
                        framing: Arc::clone(&framing),
                        key,
                    })
                }
                _ => None,
            };
            let response = next
                .run(Request::from_parts(parts, axum::body::Body::from(bytes)))
                .await;
            return match answered {
                Some(answered) => {
                    use http_body_util::BodyExt;
                    // The id is free again once the response is done.
                    response.map(|body| {
                        axum::body::Body::new(body.map_frame(move |frame| {
                            let _ = &answered;
                            frame
                        }))
                    })
                }
                None => response,
            };
        }
        transport::Decoded::Reply(reply) => reply,
        transport::Decoded::Skip if bytes.iter().all(u8::is_ascii_whitespace) => {
            transport::error_response(None, -32700, "Parse error: the request body is empty")
        }
        transport::Decoded::Skip => transport::error_response(
            None,
            -32600,
            "Invalid Request: a notification that cannot be read",
        ),
    };
    json_reply(StatusCode::BAD_REQUEST, &reply)
}

/// The `403` of a `tools/call` whose token lacks the tool's scope.
#[cfg(feature = "oauth")]
fn refused_call(
    parts: &axum::http::request::Parts,
    message: &rmcp::service::RxJsonRpcMessage<rmcp::RoleServer>,
) -> Option<Response> {
    let grant = parts.extensions.get::<oauth::Grant>()?;
    let rmcp::model::JsonRpcMessage::Request(request) = message else {
        return None;
    };
    let rmcp::model::ClientRequest::CallToolRequest(call) = &request.request else {
        return None;
    };
    grant.refuse_call(&call.params.name)
}

fn json_reply(status: StatusCode, reply: &serde_json::Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        transport::reply_bytes(reply),
    )
        .into_response()
}

/// Authentication, the session cap, and one log line per request.
async fn guard(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    // A POST without a session id opens a session (stateful mode).
    let opens_session =
        request.method() == Method::POST && !request.headers().contains_key("mcp-session-id");
    #[cfg(feature = "oauth")]
    let mut request = request;
    #[cfg(feature = "oauth")]
    let grant = match &gate.oauth {
        Some(oauth) => {
            let session = request
                .headers()
                .get("mcp-session-id")
                .and_then(|value| value.to_str().ok());
            match oauth.admit(given.as_deref(), session).await {
                Ok(grant) => {
                    request.extensions_mut().insert(grant.clone());
                    let access = crate::serve::protocol::access::Access::new(grant.clone());
                    request.extensions_mut().insert(access);
                    Some(grant)
                }
                Err(refusal) => return logged(&method, &path, started, unread(refusal)),
            }
        }
        None => None,
    };
    let response = match refuse(&gate, given.as_deref(), opens_session).await {
        Some(refusal) => unread(refusal),
        None => next.run(request).await,
    };
    #[cfg(feature = "oauth")]
    if let (Some(oauth), Some(grant), Some(sessions), true) =
        (&gate.oauth, &grant, &gate.sessions, opens_session)
    {
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
        {
            let open = sessions.sessions.read().await;
            oauth.opened(session, grant, |known| {
                open.keys().any(|id| id.as_ref() == known)
            });
        }
    }
    logged(&method, &path, started, response)
}

/// A refusal sent before the request's body was read: the connection is
/// closed after it (hyper cannot reuse a connection whose request body is
/// left unread), and `Connection: close` says so, so that a client does
/// not send its next request on it and lose it.
fn unread(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The request's log line.
fn logged(method: &Method, path: &str, started: Instant, response: Response) -> Response {
    tracing::debug!(
        %method,
        path,
        status = response.status().as_u16(),
        elapsed_ms = started.elapsed().as_secs_f64() * 1000.0,
        "http request"
    );
    response
}

/// Why a request is not served (given its `Authorization` header, and
/// whether it opens a session), as the response to send.
async fn refuse(gate: &Gate, authorization: Option<&str>, opens_session: bool) -> Option<Response> {
    if let Some(token) = &gate.token {
        let given = authorization.and_then(|value| {
            let (scheme, given) = value.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then_some(given)
        });
        let valid = given.is_some_and(|given| bool::from(given.as_bytes().ct_eq(token.as_bytes())));
        if !valid {
            let challenge = match given {
                Some(_) => r#"Bearer realm="mcp", error="invalid_token""#,
                None => r#"Bearer realm="mcp""#,
            };
            let mut response = (
                StatusCode::UNAUTHORIZED,
                "a valid bearer token is required (Authorization: Bearer ...)\n",
            )
                .into_response();
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static(challenge),
            );
            return Some(response);
        }
    }
    if let (true, Some(sessions)) = (opens_session, &gate.sessions) {
        let open = sessions.sessions.read().await.len();
        if open >= gate.max_sessions {
            tracing::warn!(open, "session refused: too many sessions open");
            let mut response = (
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "too many sessions open ({open}); end one (DELETE with its Mcp-Session-Id) or retry later\n"
                ),
            )
                .into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            return Some(response);
        }
    }
    None
}

/// Serves until `shutdown` resolves: then new calls are refused, running
/// ones get `grace` to finish, and every session ends. Returns whether
/// calls were cut off.
pub(crate) async fn serve(
    server: BridgeServer,
    options: HttpOptions,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = &'static str> + Send,
    grace: Duration,
) -> std::io::Result<bool> {
    // A handler reading stdin reads nothing, as over stdio, instead of
    // waiting on the operator's terminal.
    #[cfg(unix)]
    transport::null_stdin()?;
    let server = match options.stateless {
        true => server.without_list_changed(),
        false => server,
    };
    let stop = CancellationToken::new();
    #[cfg(feature = "oauth")]
    let oauth = match &options.oauth {
        Some(oauth) => {
            let endpoint = endpoint_url(listener.local_addr()?);
            let oauth = oauth.clone();
            let started = crate::spawn::spawn_blocking(move || {
                oauth::ResourceServer::start(&oauth, &endpoint)
            })
            .await
            .map_err(std::io::Error::other)?
            .map_err(std::io::Error::other)?;
            tracing::info!(
                issuer = oauth_issuer(&options),
                metadata = ?started.metadata_paths(),
                "OAuth: tokens of the issuer are checked"
            );
            Some(Arc::new(started))
        }
        None => None,
    };
    let app = router(
        server.clone(),
        &options,
        stop.clone(),
        #[cfg(feature = "oauth")]
        oauth,
    );
    let serving = axum::serve(listener, app).with_graceful_shutdown({
        let stop = stop.clone();
        async move { stop.cancelled().await }
    });
    let serving = crate::spawn::spawn(async move { serving.await });
    let signal = shutdown.await;
    tracing::info!(signal, "asked to stop: finishing the running calls");
    server.drain();
    let finished = server.finish_calls(grace).await;
    // Let the last answers reach their streams, then end the sessions.
    tokio::time::sleep(Duration::from_millis(50)).await;
    stop.cancel();
    match tokio::time::timeout(Duration::from_secs(5), serving).await {
        Ok(Ok(served)) => served?,
        Ok(Err(join)) => return Err(std::io::Error::other(join)),
        Err(_) => tracing::warn!("connections still open after the sessions ended; leaving"),
    }
    Ok(!finished)
}

#[cfg(feature = "oauth")]
fn oauth_issuer(options: &HttpOptions) -> &str {
    options
        .oauth
        .as_ref()
        .map_or("", |oauth| oauth.issuer.as_str())
}

/// The URL clients use for a server listening on `addr`.
pub(crate) fn endpoint_url(addr: SocketAddr) -> String {
    format!("http://{addr}{ENDPOINT}")
}
