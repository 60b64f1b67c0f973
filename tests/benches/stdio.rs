//! The stdio benchmark: mcp-bridge against a hand-written rmcp server, with
//! 1 and with 300 tools. Method and results: docs/benchmarks.md.
//!
//! ```text
//! cargo bench -p tests --bench stdio                       # full run
//! STDIO_BENCH_QUICK=1 cargo bench -p tests --bench stdio   # smoke test
//! ```
//!
//! It builds the example servers in release mode, then, for each server:
//!
//! - **cold start**: spawn → `initialize` answered → `tools/list`
//!   answered, in fresh processes, several times;
//! - **round trip**: in one long-lived process, after a warm-up, one
//!   trivial `tools/call` at a time (the next is written only once the
//!   previous answer is read), timed from writing the request line to
//!   reading the response line;
//! - **memory**: that process's resident memory, idle after `tools/list`
//!   and after the calls.
//!
//! The client writes raw JSON-RPC lines and reads on the measuring thread
//! (no extra thread hop on the timed path); a watchdog per server kills it
//! if it stops answering, so every wait is bounded. Servers are measured in
//! interleaved blocks so slow drifts of the machine hit all of them alike.
//!
//! Tunables (environment): `STDIO_BENCH_QUICK=1`, `STDIO_BENCH_CALLS`
//! (timed calls per server), `STDIO_BENCH_COLD_RUNS` (cold starts per
//! server), `STDIO_BENCH_BIN_DIR` (take the four servers from this
//! directory instead of building them, e.g. to measure an experimental
//! build of the library), `STDIO_BENCH_GAP_US` (a pause before each timed
//! call, untimed: a client that calls now and then, when nothing on the
//! server side is still awake from the call before).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long one block of calls, one cold start or one shutdown may take
/// before the server is killed and the benchmark fails.
const BLOCK_LIMIT: Duration = Duration::from_secs(60);
const START_LIMIT: Duration = Duration::from_secs(20);
const EXIT_LIMIT: Duration = Duration::from_secs(5);

/// How many of each measurement a run takes.
struct Plan {
    cold_runs: usize,
    warmup_calls: usize,
    rounds: usize,
    calls_per_block: usize,
    /// The pause before each timed call.
    gap: Duration,
}

impl Plan {
    fn from_env() -> Self {
        let quick = std::env::var_os("STDIO_BENCH_QUICK").is_some_and(|v| v != "0");
        let number = |name: &str| -> Option<usize> {
            let value = std::env::var(name).ok()?;
            Some(
                value
                    .parse()
                    .unwrap_or_else(|_| panic!("{name} must be a number, got {value:?}")),
            )
        };
        let mut plan = if quick {
            Plan {
                cold_runs: 3,
                warmup_calls: 200,
                rounds: 2,
                calls_per_block: 250,
                gap: Duration::ZERO,
            }
        } else {
            Plan {
                cold_runs: 40,
                warmup_calls: 2_000,
                rounds: 20,
                calls_per_block: 2_500,
                gap: Duration::ZERO,
            }
        };
        if let Some(calls) = number("STDIO_BENCH_CALLS") {
            plan.calls_per_block = calls.div_ceil(plan.rounds).max(1);
        }
        if let Some(runs) = number("STDIO_BENCH_COLD_RUNS") {
            plan.cold_runs = runs.max(1);
        }
        if let Some(gap) = number("STDIO_BENCH_GAP_US") {
            plan.gap = Duration::from_micros(gap as u64);
        }
        plan
    }

    /// A process start per call is slow: the isolated server gets a
    /// twentieth of the calls.
    fn calls_for(&self, target: &Target, calls: usize) -> usize {
        match target.server {
            Server::BridgeIsolated | Server::BridgeDropIn => (calls / 20).max(5),
            _ => calls,
        }
    }

    fn timed_calls(&self) -> usize {
        self.rounds * self.calls_per_block
    }
}

/// Which implementation serves the tools.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Server {
    /// mcp-bridge: `<bin> mcp serve`.
    Bridge,
    /// mcp-bridge with every call in a child process
    /// (`Bridge::isolate_calls`), 1 tool only: a process start per call.
    BridgeIsolated,
    /// mcp-bridge through `mcp_bridge::parse::<Cli>()`, the drop-in for
    /// `Cli::parse()`, 1 tool only: each call runs the CLI's `main` in a
    /// child process.
    BridgeDropIn,
    /// Hand-written rmcp with `rmcp::transport::stdio()`.
    RmcpStdio,
    /// Hand-written rmcp with `rmcp::transport::stdio_pipes()`.
    RmcpPipes,
    /// The same, served by the CLI's own binary (`wide_cli_rmcp mcp`), as
    /// a CLI's author who writes the server by hand ships it; 300 tools
    /// only (the one-command CLI's binary is the server's, give or take
    /// one command).
    RmcpInCli,
    /// `floor`: one thread that parses each line with serde_json and
    /// writes an answer computed in advance; the floor of server CPU per
    /// call.
    Floor,
}

impl Server {
    fn label(self) -> &'static str {
        match self {
            Server::Bridge => "mcp-bridge",
            Server::BridgeIsolated => "mcp-bridge isolated",
            Server::BridgeDropIn => "mcp-bridge parse::<Cli>()",
            Server::RmcpStdio => "rmcp stdio()",
            Server::RmcpPipes => "rmcp stdio_pipes()",
            Server::RmcpInCli => "rmcp stdio_pipes() in the CLI",
            Server::Floor => "floor (serde_json)",
        }
    }
}

/// One server binary with one CLI size.
struct Target {
    server: Server,
    tools: usize,
    bin: PathBuf,
    args: &'static [&'static str],
    /// Set in the server's environment.
    env: Option<(&'static str, &'static str)>,
    /// Tool names are `<prefix><command>`.
    prefix: &'static str,
}

impl Target {
    fn name(&self) -> String {
        format!(
            "{} / {} tool{}",
            self.server.label(),
            self.tools,
            plural(self.tools)
        )
    }

    /// The `tools/call` request with `id`; wide CLIs go round all their
    /// tools, so a per-tool cost shows in the average.
    fn call_line(&self, id: u64) -> Vec<u8> {
        let command = id % self.tools as u64;
        let name = format!("{}c{command:03}", self.prefix);
        let params = format!(r#"{{"name":"{name}","arguments":{{"name":"Ann","count":2}}}}"#);
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#)
            .into_bytes()
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A running server process with its pipes and watchdog.
struct Process {
    child: Arc<Mutex<Child>>,
    pid: u32,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: String,
    /// Milliseconds since `epoch` after which the watchdog kills the child.
    deadline: Arc<AtomicU64>,
    epoch: Instant,
    stop: Arc<AtomicBool>,
    watchdog: Option<JoinHandle<()>>,
    name: String,
    next_id: u64,
}

impl Process {
    fn spawn(target: &Target) -> Process {
        let mut command = Command::new(&target.bin);
        if let Some((name, value)) = target.env {
            command.env(name, value);
        }
        let mut child = command
            .args(target.args)
            .env_remove("MCP_BRIDGE_LOG")
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", target.bin.display()));
        let stdin = child.stdin.take();
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().unwrap());
        let pid = child.id();
        let child = Arc::new(Mutex::new(child));
        let epoch = Instant::now();
        let deadline = Arc::new(AtomicU64::new(START_LIMIT.as_millis() as u64));
        let stop = Arc::new(AtomicBool::new(false));
        let watchdog = {
            let (child, deadline, stop) =
                (Arc::clone(&child), Arc::clone(&deadline), Arc::clone(&stop));
            thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    if epoch.elapsed().as_millis() as u64 > deadline.load(Ordering::Relaxed) {
                        // The reader then sees end of file and reports it.
                        let _ = child.lock().unwrap().kill();
                        return;
                    }
                    thread::sleep(Duration::from_millis(100));
                }
            })
        };
        Process {
            pid,
            child,
            stdin,
            stdout,
            line: String::new(),
            deadline,
            epoch,
            stop,
            watchdog: Some(watchdog),
            name: target.name(),
            next_id: 1,
        }
    }

    /// Gives the next steps `limit` to complete.
    fn arm(&self, limit: Duration) {
        let at = self.epoch.elapsed() + limit;
        self.deadline
            .store(at.as_millis() as u64, Ordering::Relaxed);
    }

    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        // One write per message: the request and its newline.
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
        if let Err(e) = stdin.write_all(&bytes).and_then(|()| stdin.flush()) {
            panic!("{}: cannot write a request: {e}", self.name);
        }
    }

    /// Reads the next line into `self.line`; end of file (the server died,
    /// or the watchdog killed it) fails the benchmark.
    fn read_line(&mut self) {
        self.line.clear();
        match self.stdout.read_line(&mut self.line) {
            Ok(0) => panic!(
                "{}: the server closed stdout (it exited, or did not answer in time)",
                self.name
            ),
            Ok(_) => {}
            Err(e) => panic!("{}: cannot read a response: {e}", self.name),
        }
    }

    /// Checks that the line just read is the successful response to `id`
    /// (skipping nothing: the servers send no notifications here).
    fn check_response(&self, id: u64) -> Value {
        let message: Value = serde_json::from_str(&self.line)
            .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {}", self.name, self.line.trim_end()));
        assert_eq!(
            message["id"], id,
            "{}: unexpected message: {message}",
            self.name
        );
        assert!(
            message.get("error").is_none(),
            "{}: error: {message}",
            self.name
        );
        message
    }

    fn request(&mut self, method: &str, params: &str) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let line =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#);
        self.send(line.as_bytes());
        id
    }

    fn send_initialize(&mut self) -> u64 {
        self.request(
            "initialize",
            concat!(
                r#"{"protocolVersion":"2025-11-25","capabilities":{},"#,
                r#""clientInfo":{"name":"stdio-bench","version":"0.1.0"}}"#
            ),
        )
    }

    fn send_initialized_and_list(&mut self) -> u64 {
        self.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        self.request("tools/list", "{}")
    }

    /// The number of tools in the `tools/list` response just read.
    fn listed_tools(&self, id: u64) -> usize {
        let message = self.check_response(id);
        message["result"]["tools"].as_array().map_or(0, Vec::len)
    }

    /// Closes stdin and waits (bounded) for the server to exit.
    fn close(mut self) {
        self.arm(EXIT_LIMIT);
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            if let Ok(Some(_)) = self.child.lock().unwrap().try_wait() {
                break;
            }
            if start.elapsed() > EXIT_LIMIT + Duration::from_secs(1) {
                panic!("{}: did not exit after stdin closed", self.name);
            }
            thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let mut child = self.child.lock().unwrap();
        if !matches!(child.try_wait(), Ok(Some(_))) {
            let _ = child.kill();
        }
        let _ = child.wait();
        drop(child);
        if let Some(watchdog) = self.watchdog.take() {
            let _ = watchdog.join();
        }
    }
}

/// What the server process has used so far, from `/proc` (Linux; zeros
/// elsewhere): CPU time of all its threads (including exited ones),
/// context switches and count of its live threads, and its resident
/// memory now.
#[derive(Clone, Copy, Default)]
struct Usage {
    cpu_ticks: u64,
    switches: u64,
    threads: u64,
    /// `VmRSS`: the memory the process has in RAM, in KiB.
    rss_kib: u64,
    /// `RssAnon`: the part of it that is the process's own (heap, stacks),
    /// not pages of files (its binary and libraries, shared and
    /// evictable), in KiB.
    anon_kib: u64,
}

impl Usage {
    fn of(pid: u32) -> Usage {
        let mut usage = Usage::default();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Fields after the command name (which may contain spaces): utime
        // and stime are the 12th and 13th.
        if let Some((_, rest)) = stat.rsplit_once(')') {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let field = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
            usage.cpu_ticks = field(11).unwrap_or(0) + field(12).unwrap_or(0);
        }
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let kib = |key: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(key))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or(0)
        };
        usage.rss_kib = kib("VmRSS:");
        usage.anon_kib = kib("RssAnon:");
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return usage;
        };
        for task in tasks.flatten() {
            usage.threads += 1;
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            for line in status.lines() {
                if let Some(rest) = line
                    .strip_prefix("voluntary_ctxt_switches:")
                    .or_else(|| line.strip_prefix("nonvoluntary_ctxt_switches:"))
                {
                    usage.switches += rest.trim().parse::<u64>().unwrap_or(0);
                }
            }
        }
        usage
    }
}

/// Clock ticks per second of `/proc/<pid>/stat` times (`USER_HZ`, 100 on
/// every Linux architecture in use).
const TICKS_PER_SECOND: f64 = 100.0;

/// Latencies in nanoseconds, summarised.
struct Stats {
    sorted: Vec<u64>,
}

impl Stats {
    fn new(mut samples: Vec<u64>) -> Stats {
        assert!(!samples.is_empty());
        samples.sort_unstable();
        Stats { sorted: samples }
    }

    /// Nearest-rank percentile.
    fn percentile(&self, p: f64) -> f64 {
        let rank = ((p / 100.0) * self.sorted.len() as f64).ceil() as usize;
        self.sorted[rank.clamp(1, self.sorted.len()) - 1] as f64
    }

    fn median(&self) -> f64 {
        self.percentile(50.0)
    }

    fn mean(&self) -> f64 {
        self.sorted.iter().sum::<u64>() as f64 / self.sorted.len() as f64
    }
}

/// Cold start of one fresh process: (spawn → tools/list answered,
/// of which tools/list after initialize), in nanoseconds.
fn cold_start(target: &Target) -> (u64, u64) {
    let start = Instant::now();
    let mut process = Process::spawn(target);
    let init = process.send_initialize();
    process.read_line();
    let initialized = Instant::now();
    process.check_response(init);
    let list = process.send_initialized_and_list();
    process.read_line();
    let listed = Instant::now();
    let tools = process.listed_tools(list);
    assert_eq!(
        tools, target.tools,
        "{}: tools/list returned {tools} tools",
        process.name
    );
    process.close();
    (
        (listed - start).as_nanos() as u64,
        (listed - initialized).as_nanos() as u64,
    )
}

/// `count` sequential calls, each after a pause of `gap`; appends each
/// round trip (ns) to `samples`.
fn calls(
    process: &mut Process,
    target: &Target,
    count: usize,
    gap: Duration,
    samples: &mut Vec<u64>,
) {
    process.arm(BLOCK_LIMIT);
    for _ in 0..count {
        if !gap.is_zero() {
            thread::sleep(gap);
        }
        let id = process.next_id;
        process.next_id += 1;
        let line = target.call_line(id);
        let sent = Instant::now();
        process.send(&line);
        process.read_line();
        let answered = Instant::now();
        samples.push((answered - sent).as_nanos() as u64);
        let message = process.check_response(id);
        if message["result"]["isError"] != false {
            panic!("{}: the call failed: {message}", process.name);
        }
    }
}

fn main() -> ExitCode {
    let plan = Plan::from_env();
    let release = match std::env::var_os("STDIO_BENCH_BIN_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => build_servers(),
    };
    let bin = |name: &str| release.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let mut targets = Vec::new();
    for (tools, cli, rmcp, prefix) in [
        (1, "narrow", "narrow_rmcp", "narrow_"),
        (300, "wide", "wide_rmcp", "wide_"),
    ] {
        targets.push(Target {
            server: Server::Bridge,
            tools,
            bin: bin(cli),
            args: &["mcp", "serve"],
            env: None,
            prefix,
        });
        if tools == 1 {
            targets.push(Target {
                server: Server::BridgeIsolated,
                tools,
                bin: bin(cli),
                args: &["mcp", "serve"],
                env: Some(("BENCH_ISOLATE", "1")),
                prefix,
            });
            targets.push(Target {
                server: Server::BridgeDropIn,
                tools,
                bin: bin(cli),
                args: &["mcp", "serve"],
                env: Some(("BENCH_DROP_IN", "1")),
                prefix,
            });
        }
        targets.push(Target {
            server: Server::RmcpStdio,
            tools,
            bin: bin(rmcp),
            args: &[],
            env: None,
            prefix,
        });
        targets.push(Target {
            server: Server::RmcpPipes,
            tools,
            bin: bin(rmcp),
            args: &["--pipes"],
            env: None,
            prefix,
        });
        if tools == 300 {
            targets.push(Target {
                server: Server::RmcpInCli,
                tools,
                bin: bin("wide_cli_rmcp"),
                args: &["mcp", "--pipes"],
                env: None,
                prefix,
            });
        }
        targets.push(Target {
            server: Server::Floor,
            tools,
            bin: bin("floor"),
            args: if tools == 1 {
                &["1", "narrow_"]
            } else {
                &["300", "wide_"]
            },
            env: None,
            prefix,
        });
    }
    print_machine(&plan, &targets);
    let started = Instant::now();

    // Cold starts, interleaved: run r starts every target once.
    let mut cold: Vec<(Vec<u64>, Vec<u64>)> = vec![(Vec::new(), Vec::new()); targets.len()];
    for _ in 0..plan.cold_runs {
        for (target, (total, list)) in targets.iter().zip(&mut cold) {
            let (t, l) = cold_start(target);
            total.push(t);
            list.push(l);
        }
    }

    // Round trips: one long-lived process per target.
    let mut processes: Vec<Process> = targets
        .iter()
        .map(|target| {
            let mut process = Process::spawn(target);
            let init = process.send_initialize();
            process.read_line();
            process.check_response(init);
            let list = process.send_initialized_and_list();
            process.read_line();
            assert_eq!(process.listed_tools(list), target.tools);
            process
        })
        .collect();
    // Idle: started, listed, and left alone a moment (call threads park
    // after 100 µs without work).
    thread::sleep(Duration::from_millis(300));
    let idle: Vec<Usage> = processes.iter().map(|p| Usage::of(p.pid)).collect();
    let mut warmup = Vec::new();
    for (process, target) in processes.iter_mut().zip(&targets) {
        calls(
            process,
            target,
            plan.calls_for(target, plan.warmup_calls),
            Duration::ZERO,
            &mut warmup,
        );
    }
    let mut samples: Vec<Vec<u64>> = vec![Vec::with_capacity(plan.timed_calls()); targets.len()];
    let before: Vec<Usage> = processes.iter().map(|p| Usage::of(p.pid)).collect();
    for round in 0..plan.rounds {
        for k in 0..targets.len() {
            let i = (k + round) % targets.len();
            calls(
                &mut processes[i],
                &targets[i],
                plan.calls_for(&targets[i], plan.calls_per_block),
                plan.gap,
                &mut samples[i],
            );
        }
    }
    // Idle servers use next to nothing, so each delta is the server's own
    // cost of its calls.
    let usage: Vec<(Usage, Usage)> = processes
        .iter()
        .zip(before)
        .map(|(p, before)| (before, Usage::of(p.pid)))
        .collect();
    for process in processes {
        process.close();
    }
    let elapsed = started.elapsed();

    let cold: Vec<(Stats, Stats)> = cold
        .into_iter()
        .map(|(total, list)| (Stats::new(total), Stats::new(list)))
        .collect();
    let trips: Vec<Stats> = samples.into_iter().map(Stats::new).collect();
    report(&plan, &targets, &cold, &trips, &usage, &idle);
    println!(
        "\nmeasured in {:.1} s (after the build)",
        elapsed.as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// `cargo build --release -p bench-bins`: the servers; returns the release dir.
fn build_servers() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    eprintln!("building the servers: cargo build --release -p bench-bins");
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--release",
            "-p",
            "bench-bins",
            "--bin",
            "narrow",
            "--bin",
            "narrow_rmcp",
            "--bin",
            "wide",
            "--bin",
            "wide_rmcp",
            "--bin",
            "wide_cli_rmcp",
            "--bin",
            "floor",
        ])
        .current_dir(&workspace)
        .status()
        .expect("run cargo build");
    assert!(
        status.success(),
        "cargo build --release -p bench-bins failed"
    );
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => workspace.join(dir),
        None => workspace.join("target"),
    };
    target.join("release")
}

fn print_machine(plan: &Plan, targets: &[Target]) {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']).to_owned())
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let cores = thread::available_parallelism().map_or(0, |n| n.get());
    println!("machine: {cores} cores available, {model}");
    println!(
        "plan: {} cold starts per server; {} warm-up calls, then {} timed calls \
         per server in {} interleaved blocks of {}",
        plan.cold_runs,
        plan.warmup_calls,
        plan.timed_calls(),
        plan.rounds,
        plan.calls_per_block
    );
    println!("binaries ({}):", targets[0].bin.parent().unwrap().display());
    for target in targets.iter().filter(|t| t.server != Server::RmcpPipes) {
        let size = std::fs::metadata(&target.bin).map_or(0, |m| m.len());
        println!(
            "  {:<14} {:>6.1} MiB",
            target.bin.file_name().unwrap().to_string_lossy(),
            size as f64 / (1024.0 * 1024.0)
        );
    }
}

fn report(
    plan: &Plan,
    targets: &[Target],
    cold: &[(Stats, Stats)],
    trips: &[Stats],
    usage: &[(Usage, Usage)],
    idle: &[Usage],
) {
    let us = |ns: f64| ns / 1_000.0;
    let ms = |ns: f64| ns / 1_000_000.0;
    println!(
        "\ncold start: spawn -> initialize -> tools/list answered ({} runs each)",
        plan.cold_runs
    );
    println!(
        "  {:<42} {:>10} {:>10} {:>10} {:>16}",
        "server", "median ms", "p90 ms", "min ms", "tools/list ms"
    );
    for (target, (total, list)) in targets.iter().zip(cold) {
        println!(
            "  {:<42} {:>10.2} {:>10.2} {:>10.2} {:>16.3}",
            target.name(),
            ms(total.median()),
            ms(total.percentile(90.0)),
            ms(total.percentile(0.0)),
            ms(list.median()),
        );
    }

    println!(
        "\ntools/call round trip, sequential ({} calls each{})",
        plan.timed_calls(),
        match plan.gap.is_zero() {
            true => String::new(),
            false => format!(", each after a pause of {} µs", plan.gap.as_micros()),
        }
    );
    println!(
        "  {:<42} {:>10} {:>10} {:>10} {:>10}",
        "server", "median µs", "p90 µs", "p99 µs", "mean µs"
    );
    for (target, stats) in targets.iter().zip(trips) {
        println!(
            "  {:<42} {:>10.1} {:>10.1} {:>10.1} {:>10.1}",
            target.name(),
            us(stats.median()),
            us(stats.percentile(90.0)),
            us(stats.percentile(99.0)),
            us(stats.mean()),
        );
    }

    println!("\nserver side of those calls (from /proc: CPU time, context switches)");
    println!(
        "  {:<42} {:>12} {:>16} {:>8}",
        "server", "CPU µs/call", "switches/call", "threads"
    );
    // CPU ticks over the timed calls (every server but the isolated one
    // gets the same number of them).
    let cpu_ticks =
        |(before, after): &(Usage, Usage)| after.cpu_ticks.saturating_sub(before.cpu_ticks) as f64;
    let calls = plan.timed_calls() as f64;
    for (target, used) in targets.iter().zip(usage) {
        let (before, after) = used;
        let ticks = cpu_ticks(used);
        let switches = after.switches.saturating_sub(before.switches) as f64;
        println!(
            "  {:<42} {:>12.1} {:>16.2} {:>8}",
            target.name(),
            ticks / TICKS_PER_SECOND * 1e6 / calls,
            switches / calls,
            after.threads,
        );
    }

    let find = |server: Server, tools: usize| {
        targets
            .iter()
            .position(|t| t.server == server && t.tools == tools)
            .expect("target")
    };

    println!(
        "\nmemory (from /proc, KiB): resident (VmRSS) and the process's own part of it \
         (RssAnon), idle after tools/list and after the calls; ratios of the idle figures \
         to rmcp stdio_pipes()"
    );
    println!(
        "  {:<42} {:>9} {:>9} {:>10} {:>10} {:>8} {:>8}",
        "server", "idle RSS", "own", "after RSS", "own", "RSS ×", "own ×"
    );
    for (at, target) in targets.iter().enumerate() {
        let baseline = &idle[find(Server::RmcpPipes, target.tools)];
        let ratio = |ours: u64, theirs: u64| ours as f64 / theirs.max(1) as f64;
        println!(
            "  {:<42} {:>9} {:>9} {:>10} {:>10} {:>8.2} {:>8.2}",
            target.name(),
            idle[at].rss_kib,
            idle[at].anon_kib,
            usage[at].1.rss_kib,
            usage[at].1.anon_kib,
            ratio(idle[at].rss_kib, baseline.rss_kib),
            ratio(idle[at].anon_kib, baseline.anon_kib),
        );
    }
    let (ours, theirs) = (
        &idle[find(Server::Bridge, 300)],
        &idle[find(Server::RmcpInCli, 300)],
    );
    println!(
        "  300 tools, mcp-bridge against rmcp in the CLI: RSS {:.2}×, own {:.2}×",
        ours.rss_kib as f64 / theirs.rss_kib.max(1) as f64,
        ours.anon_kib as f64 / theirs.anon_kib.max(1) as f64,
    );

    println!("\nratios, mcp-bridge / hand-written rmcp (1.00 = as fast; target ≤ 1.05)");
    println!(
        "  {:<44} {:>8} {:>8} {:>8} {:>12}",
        "", "median", "p90", "p99", "cold start"
    );
    for tools in [1, 300] {
        let ours = find(Server::Bridge, tools);
        let in_cli: &[Server] = match tools {
            300 => &[Server::RmcpInCli],
            _ => &[],
        };
        for &baseline in [Server::RmcpStdio, Server::RmcpPipes].iter().chain(in_cli) {
            let theirs = find(baseline, tools);
            let ratio = |p: f64| trips[ours].percentile(p) / trips[theirs].percentile(p);
            println!(
                "  {:<44} {:>8.3} {:>8.3} {:>8.3} {:>12.3}",
                format!("{tools} tool{} vs {}", plural(tools), baseline.label()),
                ratio(50.0),
                ratio(90.0),
                ratio(99.0),
                cold[ours].0.median() / cold[theirs].0.median(),
            );
        }
    }
    println!(
        "\nserver CPU per call against the floor (one thread, serde_json, answers computed \
         in advance; target for mcp-bridge ≤ 2)"
    );
    for tools in [1, 300] {
        let floor = cpu_ticks(&usage[find(Server::Floor, tools)]).max(1.0);
        for server in [Server::Bridge, Server::RmcpStdio, Server::RmcpPipes] {
            println!(
                "  {:<44} {:>8.2}",
                format!("{tools} tool{}, {}", plural(tools), server.label()),
                cpu_ticks(&usage[find(server, tools)]) / floor
            );
        }
    }
    println!("\nflatness, 300 tools / 1 tool (median round trip)");
    for server in [Server::Bridge, Server::RmcpStdio, Server::RmcpPipes] {
        let wide = &trips[find(server, 300)];
        let narrow = &trips[find(server, 1)];
        println!(
            "  {:<20} {:>8.3}",
            server.label(),
            wide.median() / narrow.median()
        );
    }
    for (server, what) in [
        (
            Server::BridgeIsolated,
            "isolated calls (a child process per call)",
        ),
        (
            Server::BridgeDropIn,
            "parse::<Cli>() (the CLI's main in a child process per call)",
        ),
    ] {
        if let Some(at) = targets.iter().position(|t| t.server == server) {
            let inline = &trips[find(Server::Bridge, 1)];
            println!(
                "\n{what}, 1 tool: median {:.0} µs, {:.1}× the in-process call",
                trips[at].median() / 1000.0,
                trips[at].median() / inline.median()
            );
        }
    }
}
