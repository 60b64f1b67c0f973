//! The scale-out recipe of `docs/deploy.md`, on loopback: two stateless
//! replicas of `taskctl mcp serve --http --stateless` behind nginx (an
//! existing load balancer, round robin), and 1,000 concurrent `tools/call`
//! requests through it: every one answered, with its own id and the right
//! result, and both replicas used.
//!
//! nginx comes from the machine (`.ci/run` installs Debian's package when
//! it is missing). Without it the test is skipped locally, but fails under
//! CI.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::http::{request, spawn_counting};
use serde_json::{json, Value};

const CALLS: usize = 1000;

fn nginx() -> Option<PathBuf> {
    let found = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]
        .into_iter()
        .map(PathBuf::from)
        .find(|path| path.exists());
    match found {
        Some(path) => Some(path),
        None if std::env::var_os("CI").is_some() => {
            panic!("nginx is not installed; .ci/run installs it")
        }
        None => {
            eprintln!("skipped: nginx is not installed");
            None
        }
    }
}

/// A free loopback port (bound, read, released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// nginx, stopped when dropped: SIGTERM to the master, which stops its
/// workers (a SIGKILL would leave them running).
struct Nginx(std::process::Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        if let Some(pid) = rustix::process::Pid::from_raw(self.0.id() as i32) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        }
        let _ = self.0.wait();
    }
}

/// nginx in the foreground, its files under `dir`, balancing `upstreams`
/// on `port`.
fn start_nginx(nginx: &Path, dir: &Path, port: u16, upstreams: &[String]) -> Nginx {
    let servers: String = upstreams
        .iter()
        .map(|authority| format!("        server {authority};\n"))
        .collect();
    let conf = format!(
        "worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream mcp {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        location /mcp {{
            proxy_pass http://mcp;
            proxy_http_version 1.1;
            proxy_set_header Host localhost;
            proxy_buffering off;
            proxy_read_timeout 60s;
        }}
    }}
}}
",
        dir = dir.display()
    );
    let conf_path = dir.join("nginx.conf");
    std::fs::write(&conf_path, conf).unwrap();
    Nginx(
        std::process::Command::new(nginx)
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(&conf_path)
            .args(["-g", "daemon off;"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("start nginx"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_calls_through_nginx_to_two_stateless_replicas() {
    let Some(nginx) = nginx() else { return };
    common::taskctl();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.json");
    std::fs::write(&db, r#"{"next_id": 1, "tasks": []}"#).unwrap();

    let mut replicas = Vec::new();
    let mut upstreams = Vec::new();
    let mut served = Vec::new();
    for _ in 0..2 {
        let mut cmd = tokio::process::Command::new(common::taskctl());
        cmd.args(["mcp", "serve", "--http", "127.0.0.1:0", "--stateless"])
            .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=debug");
        let (child, url, requests) = spawn_counting(cmd, "http request").await;
        served.push(requests);
        let authority = url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_owned();
        upstreams.push(authority);
        replicas.push(child);
    }
    let port = free_port();
    let balancer = start_nginx(&nginx, dir.path(), port, &upstreams);
    let url = format!("http://127.0.0.1:{port}/mcp");
    // nginx is up when it answers.
    let mut up = false;
    for _ in 0..100 {
        if request("GET", &url, &[], b"").await.is_ok() {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        up,
        "nginx did not start: {:?}",
        std::fs::read_to_string(dir.path().join("error.log"))
    );

    let mut calls = tokio::task::JoinSet::new();
    for id in 0..CALLS {
        let url = url.clone();
        let db = db.clone();
        calls.spawn(async move {
            let body = json!({
                "jsonrpc": "2.0",
                "id": id,
                "method": "tools/call",
                "params": {"name": "taskctl_stats", "arguments": {"db": db}},
            })
            .to_string();
            let reply = request(
                "POST",
                &url,
                &[
                    ("Accept", "application/json, text/event-stream"),
                    ("Content-Type", "application/json"),
                    ("MCP-Protocol-Version", "2025-06-18"),
                ],
                body.as_bytes(),
            )
            .await;
            (id, reply)
        });
    }
    let mut answered = 0;
    let mut failures = Vec::new();
    while let Some(joined) = calls.join_next().await {
        let (id, reply) = joined.unwrap();
        let outcome = reply.map_err(|e| e.to_string()).and_then(|reply| {
            let message: Value = serde_json::from_str(reply.body.trim())
                .map_err(|e| format!("status {}: {e}: {:?}", reply.status, reply.body))?;
            if message["id"] != id {
                return Err(format!("answer for id {} instead of {id}", message["id"]));
            }
            let text = message["result"]["content"][0]["text"].as_str();
            let printed = text.and_then(|text| serde_json::from_str::<Value>(text).ok());
            match printed {
                Some(printed) if printed == json!({"todo": 0, "doing": 0, "done": 0}) => Ok(()),
                _ => Err(format!("unexpected answer: {message}")),
            }
        });
        match outcome {
            Ok(()) => answered += 1,
            Err(error) => failures.push(format!("call {id}: {error}")),
        }
    }
    drop(balancer);
    assert!(
        failures.is_empty(),
        "{} of {CALLS} calls lost or wrong, e.g. {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    assert_eq!(answered, CALLS);
    // nginx spread the calls over both replicas (round robin: about half
    // each), and reported no upstream error.
    let count = || -> Vec<usize> {
        served
            .iter()
            .map(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            .collect()
    };
    // Each replica logs a request after answering it: give the last lines
    // a moment to arrive.
    for _ in 0..50 {
        if count().iter().sum::<usize>() >= CALLS {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let counts = count();
    eprintln!("requests per replica: {counts:?}");
    assert!(
        counts.iter().all(|&n| n >= CALLS / 4) && counts.iter().sum::<usize>() >= CALLS,
        "requests per replica: {counts:?}"
    );
    let errors = std::fs::read_to_string(dir.path().join("error.log")).unwrap_or_default();
    assert!(!errors.contains("upstream"), "{errors}");
    drop(replicas);
}
