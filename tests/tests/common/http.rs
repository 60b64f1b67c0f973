//! A server under test over Streamable HTTP: started on a free loopback
//! port, its URL read from the line it logs, and plain HTTP requests for
//! the checks in front of MCP (status codes, headers).

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

/// How long a server may take to say where it listens.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Spawns `cmd` (an `mcp serve --http 127.0.0.1:0 ...` command) and waits
/// for the URL it serves at; its stderr is drained from then on, into the
/// test's output.
pub async fn spawn(cmd: tokio::process::Command) -> (tokio::process::Child, String) {
    let (child, url, _) = spawn_counting(cmd, "\u{0}").await;
    (child, url)
}

/// [`spawn`], counting the log lines that contain `marker` (with
/// `MCP_BRIDGE_LOG` at debug, `"http request"` counts the requests).
pub async fn spawn_counting(
    mut cmd: tokio::process::Command,
    marker: &'static str,
) -> (
    tokio::process::Child,
    String,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    let counted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn the HTTP server");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr piped")).lines();
    let url = tokio::time::timeout(START_TIMEOUT, async {
        while let Some(line) = lines.next_line().await.expect("read the server's log") {
            eprintln!("server: {line}");
            if let Some(url) = url_in(&line) {
                return url;
            }
        }
        panic!("the server ended without saying where it listens");
    })
    .await
    .expect("the server says where it listens in time");
    let counter = std::sync::Arc::clone(&counted);
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains(marker) {
                counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            } else {
                eprintln!("server: {line}");
            }
        }
    });
    (child, url, counted)
}

/// The `url=` of the "serving over Streamable HTTP" log line.
pub fn url_in(line: &str) -> Option<String> {
    if !line.contains("serving over Streamable HTTP") {
        return None;
    }
    let start = line.find("url=")? + "url=".len();
    let url = line[start..].split_whitespace().next()?;
    Some(url.trim_matches('"').to_owned())
}

/// A response as the tests look at it.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one HTTP/1.1 request to `url` (`Connection: close`) and reads
/// the whole response: the checks in front of MCP, byte for byte, with no
/// client library deciding anything.
pub async fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Reply> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = tokio::net::TcpStream::connect(authority).await?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {authority}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).await?;
    // A server may refuse before reading the whole body (413).
    let _ = stream.write_all(body).await;
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut raw))
        .await
        .map_err(|_| std::io::Error::other("no complete response in time"))??;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("not an HTTP response: {text:?}")))?;
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Ok(Reply {
        status,
        headers,
        body: body.to_owned(),
    })
}

/// An `initialize` request of protocol 2025-06-18.
pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"http-test","version":"0"}}}"#;

pub const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");
pub const JSON: (&str, &str) = ("Content-Type", "application/json");

/// POSTs `body` with the usual MCP headers and `extra` ones.
pub async fn post(url: &str, extra: &[(&str, &str)], body: impl AsRef<[u8]>) -> Reply {
    let mut headers = vec![ACCEPT, JSON];
    headers.extend_from_slice(extra);
    request("POST", url, &headers, body.as_ref())
        .await
        .expect("the server answers")
}

/// The JSON-RPC messages of a response body, SSE or plain JSON.
pub fn messages(reply: &Reply) -> Vec<serde_json::Value> {
    let body = reply.body.trim();
    if body.starts_with('{') {
        return vec![serde_json::from_str(body).expect("a JSON body")];
    }
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .filter(|data| data.starts_with('{'))
        .map(|data| serde_json::from_str(data).expect("JSON in an SSE event"))
        .collect()
}

/// Opens a session: the `Mcp-Session-Id`, after `initialize` and
/// `notifications/initialized`.
pub async fn open_session(url: &str, extra: &[(&str, &str)]) -> String {
    let reply = post(url, extra, INITIALIZE).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let session = reply
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let mut headers = extra.to_vec();
    headers.push(("Mcp-Session-Id", &session));
    let initialized = post(
        url,
        &headers,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert_eq!(initialized.status, 202, "{initialized:?}");
    session
}
