//! The execution model on a CLI made to misbehave
//! (`tests/src/bin/fixture_cli.rs`), over raw pipes as a client sees it:
//! output captured, panics, stdin, child processes, nested runtimes, slow
//! calls next to `ping`, cancellation, timeouts, bounded output, progress,
//! shutdown; and the `mcp` name clash.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::raw::RawServer;
use serde_json::{json, Value};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_cli");

/// A raw JSON-RPC session with the fixture served by the `handler` kind
/// (`io`, `plain` or `async`), initialized.
fn session(handler: &str, env: &[(&str, &str)]) -> RawServer {
    let mut command = Command::new(FIXTURE);
    command
        .args(["ai", "serve"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("FIXTURE_HANDLER", handler)
        .env_remove("RUST_BACKTRACE");
    for (name, value) in env {
        command.env(name, value);
    }
    let mut server = RawServer::spawn(command);
    let init = server.initialize();
    assert_eq!(init["serverInfo"]["name"], "fixture");
    server
}

/// The result's one text.
fn text(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .expect("a text result")
}

fn send_call(server: &mut RawServer, id: i64, tool: &str, arguments: Value) {
    server.send(&json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}
    }));
}

#[test]
fn what_a_plain_or_async_handler_prints_is_the_result() {
    for handler in ["plain", "async"] {
        let mut server = session(handler, &[]);
        let result = server.call(2, "fixture_shout", json!({"text": "hello"}));
        assert_eq!(result["isError"], false, "{handler}");
        assert_eq!(text(&result), "shouted hello\n", "{handler}");
        // Sent once: no structured copy of the same text.
        assert!(result.get("structuredContent").is_none(), "{result}");
        let result = server.call(3, "fixture_fail", json!({}));
        assert_eq!(result["isError"], true);
        assert_eq!(
            text(&result),
            "[stderr]\nerror: the command failed on purpose\n[exit code 1]"
        );
        server.assert_stdout_pure();
        server.finish();
    }
}

#[test]
fn an_io_handlers_stray_println_goes_to_the_log_not_into_the_protocol() {
    let mut server = session("io", &[]);
    let result = server.call(2, "fixture_shout", json!({"text": "hello"}));
    assert_eq!(text(&result), "shouted hello\n");
    // The next answer must still be clean JSON on stdout.
    assert!(!server.tools_list(3).is_empty());
    server.assert_stdout_pure();
    let log = server.finish();
    assert!(log.contains("stray println: hello"), "log was:\n{log}");
}

#[test]
fn a_panicking_command_is_an_error_result_and_the_server_goes_on() {
    for handler in ["io", "plain", "async"] {
        let mut server = session(handler, &[]);
        let result = server.call(2, "fixture_crash", json!({}));
        assert_eq!(result["isError"], true);
        let said = text(&result);
        assert!(said.contains("deliberate crash"), "{handler}: {said}");
        assert!(said.ends_with("[exit code 101]"), "{handler}: {said}");
        let result = server.call(3, "fixture_shout", json!({"text": "still here"}));
        assert_eq!(text(&result), "shouted still here\n", "{handler}");
        server.finish();
    }
}

#[test]
fn a_handler_reading_stdin_reads_nothing_and_the_protocol_keeps_its_bytes() {
    for handler in ["plain", "async"] {
        let mut server = session(handler, &[]);
        send_call(&mut server, 2, "fixture_read-stdin", json!({}));
        // Sent while the handler reads: must reach the server, not it.
        server.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
        let mut answered = Vec::new();
        for _ in 0..2 {
            let message = server.recv();
            if message["id"] == 2 {
                assert_eq!(text(&message["result"]), "stdin had 0 bytes\n");
            }
            answered.push(message["id"].clone());
        }
        answered.sort_by_key(|id| id.as_i64());
        assert_eq!(answered, [json!(2), json!(3)], "{handler}");
        server.finish();
    }
}

#[test]
fn child_processes_output_and_nested_runtimes_work() {
    let mut server = session("plain", &[]);
    let result = server.call(2, "fixture_child", json!({}));
    assert_eq!(
        text(&result),
        "from the child\nchild exited with 0\n[stderr]\nchild complains\n"
    );
    // A runtime of its own, `block_on`: what blocking HTTP clients do.
    let result = server.call(3, "fixture_nested-runtime", json!({}));
    assert_eq!(text(&result), "the nested runtime answered 42\n");
    server.finish();
}

#[test]
fn from_an_async_main_the_cli_and_the_server_work_as_from_a_sync_one() {
    for handler in ["io", "plain", "async"] {
        // The CLI itself: a blocking handler may start a runtime of its
        // own; a panic ends the process with 101, as it would without the
        // bridge.
        let run = |args: &[&str]| {
            let output = Command::new(FIXTURE)
                .args(args)
                .env("FIXTURE_HANDLER", handler)
                .env("FIXTURE_MAIN", "async")
                .env_remove("RUST_BACKTRACE")
                .output()
                .expect("the fixture runs");
            (
                output.status.code(),
                String::from_utf8_lossy(&output.stdout).into_owned(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            )
        };
        let (code, out, _) = run(&["nested-runtime"]);
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "the nested runtime answered 42\n"),
            "{handler}"
        );
        let (code, _, err) = run(&["crash"]);
        assert_eq!(code, Some(101), "{handler}: {err}");
        assert!(err.contains("deliberate crash"), "{handler}: {err}");
        let (code, _, _) = run(&["exit", "7"]);
        assert_eq!(code, Some(7), "{handler}");

        // The server, in process and isolated (the child process runs the
        // same async `main`, and tells its panic to the server).
        for isolate in [false, true] {
            let mut env = vec![("FIXTURE_MAIN", "async")];
            if isolate {
                env.push(("FIXTURE_ISOLATE", "1"));
            }
            let case = format!("{handler}, isolated: {isolate}");
            let mut server = session(handler, &env);
            let result = server.call(2, "fixture_shout", json!({"text": "hello"}));
            assert!(
                text(&result).contains("shouted hello\n"),
                "{case}: {result}"
            );
            let result = server.call(3, "fixture_nested-runtime", json!({}));
            assert_eq!(result["isError"], false, "{case}: {result}");
            if handler != "io" || isolate {
                // (An `Io` handler's `println!` goes to the log in process.)
                let said = text(&result);
                assert!(
                    said.contains("the nested runtime answered 42\n"),
                    "{case}: {said}"
                );
            }
            let result = server.call(4, "fixture_crash", json!({}));
            assert_eq!(result["isError"], true, "{case}");
            let said = text(&result);
            assert!(said.contains("deliberate crash"), "{case}: {said}");
            assert!(said.ends_with("[exit code 101]"), "{case}: {said}");
            let result = server.call(5, "fixture_exit", json!({"code": 7}));
            assert!(text(&result).ends_with("[exit code 7]"), "{case}: {result}");
            let result = server.call(6, "fixture_shout", json!({"text": "still here"}));
            assert!(text(&result).contains("shouted still here\n"), "{case}");
            server.assert_stdout_pure();
            server.finish();
        }
    }
}

#[test]
fn slow_calls_do_not_delay_ping_or_other_calls() {
    for handler in ["io", "plain", "async"] {
        let mut server = session(handler, &[]);
        send_call(&mut server, 2, "fixture_sleep", json!({"ms": 1500}));
        send_call(&mut server, 3, "fixture_sleep", json!({"ms": 1500}));
        let start = Instant::now();
        server.send(&json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}));
        let message = server.recv();
        assert_eq!(message["id"], 4, "{handler}: ping first, got {message}");
        assert!(
            start.elapsed() < Duration::from_millis(500),
            "{handler}: ping took {:?}",
            start.elapsed()
        );
        if handler == "io" {
            // Calls writing through `Io` run side by side.
            let result = server.call(5, "fixture_shout", json!({"text": "meanwhile"}));
            assert_eq!(text(&result), "shouted meanwhile\n");
            assert!(start.elapsed() < Duration::from_millis(1000));
        }
        for _ in 0..2 {
            let message = server.recv();
            assert_eq!(text(&message["result"]), "slept\n", "{handler}");
        }
        server.finish();
    }
}

/// Over stdio, a synchronous handler's call is run by the thread that read
/// its request, which answers it unseen by the event loop (no wake-up of
/// another thread on its path; rmcp never sees it); a request that comes
/// while it runs is read by the thread standing by. An async handler's
/// call goes to the event loop.
#[test]
fn a_synchronous_call_runs_on_the_thread_that_read_it() {
    for (handler, started) in [("io", 6_usize), ("plain", 6), ("async", 0)] {
        let mut server = session(handler, &[("MCP_BRIDGE_LOG", "debug")]);
        // Once the first values are fetched (the list waits for them).
        server.request(1, "tools/list", json!({}));
        for id in 2..5 {
            let result = server.call(id, "fixture_shout", json!({"text": id.to_string()}));
            assert_eq!(text(&result), format!("shouted {id}\n"), "{handler}");
        }
        send_call(&mut server, 5, "fixture_sleep", json!({"ms": 400}));
        std::thread::sleep(Duration::from_millis(50));
        // Answered while the call runs, then the call.
        server.send(&json!({"jsonrpc": "2.0", "id": 6, "method": "ping"}));
        let pong = server.response(&json!(6));
        assert!(pong.get("result").is_some(), "{handler}: {pong}");
        let message = server.response(&json!(5));
        assert_eq!(text(&message["result"]), "slept\n", "{handler}");
        // Their ids again, at once.
        for id in [2, 5] {
            let result = server.call(id, "fixture_shout", json!({"text": "again"}));
            assert_eq!(text(&result), "shouted again\n", "{handler}");
        }
        let log = server.finish();
        let early = log
            .matches("call started by the thread that read it")
            .count();
        assert_eq!(early, started, "{handler}: {early} started early\n{log}");
    }
}

/// The lines of several messages, to be written at once.
fn together(messages: &[Value]) -> Vec<u8> {
    messages
        .iter()
        .flat_map(|message| format!("{message}\n").into_bytes())
        .collect()
}

fn call_message(id: i64, tool: &str, arguments: Value) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}
    })
}

fn cancel_message(id: i64) -> Value {
    json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "changed my mind"}
    })
}

/// What comes in the same write as a slow call of a synchronous handler
/// (read by the thread that then runs that call) is handled at once: a
/// `ping`, another call (with an `Io` handler: calls of handlers that
/// print to the process's stdout take turns), and the slow call's own
/// cancellation. The same holds for an async handler.
#[test]
fn what_comes_with_a_slow_call_is_handled_at_once() {
    for handler in ["io", "plain", "async"] {
        let mut server = session(handler, &[]);
        server.request(1, "tools/list", json!({}));
        let mut messages = vec![
            call_message(2, "fixture_sleep", json!({"ms": 1500})),
            json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
        ];
        // Another call: one that runs beside it (an `Io` handler's), or,
        // for handlers that take turns, one refused at once.
        messages.push(match handler {
            "io" => call_message(4, "fixture_shout", json!({"text": "too"})),
            _ => call_message(4, "fixture_sleep", json!({"ms": "soon"})),
        });
        let start = Instant::now();
        server.send_bytes(&together(&messages));
        // In either order.
        let mut answers: Vec<Value> = (1..messages.len()).map(|_| server.recv()).collect();
        answers.sort_by_key(|answer| answer["id"].as_i64());
        assert_eq!(answers[0]["id"], 3, "{handler}: {answers:?}");
        assert!(answers[0].get("result").is_some(), "{handler}: {answers:?}");
        assert_eq!(answers[1]["id"], 4, "{handler}: {answers:?}");
        let said = text(&answers[1]["result"]);
        match handler {
            "io" => assert_eq!(said, "shouted too\n"),
            _ => assert!(said.contains("`ms`"), "{handler}: {said}"),
        }
        assert!(
            start.elapsed() < Duration::from_millis(700),
            "{handler}: answered after {:?}",
            start.elapsed()
        );
        let slept = server.response(&json!(2));
        assert_eq!(text(&slept["result"]), "slept\n", "{handler}");

        // A cancellation written with its call stops it: no answer goes
        // out, and the server goes on.
        let start = Instant::now();
        server.send_bytes(&together(&[
            call_message(5, "fixture_sleep", json!({"ms": 600})),
            cancel_message(5),
        ]));
        std::thread::sleep(Duration::from_millis(900));
        let pong = server.exchange(6, "ping", json!({}));
        assert!(pong.get("result").is_some(), "{handler}: {pong}");
        assert!(start.elapsed() < Duration::from_millis(1500), "{handler}");
        let log = server.finish();
        assert!(
            log.contains("call cancelled by the client"),
            "{handler}: {log}"
        );
    }
}

/// A cancellation read with its call keeps the call from starting: its
/// handler never runs (no side effect), nothing answers it, and the server
/// goes on; for each handler kind, and in a process of its own.
#[test]
fn a_cancellation_read_with_its_call_keeps_it_from_starting() {
    let dir = tempfile::tempdir().unwrap();
    for (handler, isolate) in [
        ("io", false),
        ("plain", false),
        ("async", false),
        ("io", true),
    ] {
        let marks = dir.path().join(format!("{handler}-{isolate}"));
        let marks_text = marks.to_str().unwrap();
        let mut env = vec![("FIXTURE_MARKS", marks_text)];
        if isolate {
            env.push(("FIXTURE_ISOLATE", "1"));
        }
        let mut server = session(handler, &env);
        for round in 0..6 {
            let id = 10 + round * 2;
            server.send_bytes(&together(&[
                call_message(id, "fixture_sleep", json!({"ms": 50})),
                cancel_message(id),
                json!({"jsonrpc": "2.0", "id": id + 1, "method": "ping"}),
            ]));
            let pong = server.recv();
            assert_eq!(pong["id"], id + 1, "{handler} {isolate}: {pong}");
        }
        // Whatever would have run has had time to.
        std::thread::sleep(Duration::from_millis(400));
        let pong = server.exchange(99, "ping", json!({}));
        assert!(pong.get("result").is_some(), "{pong}");
        let ran = std::fs::read_to_string(&marks).unwrap_or_default();
        assert_eq!(ran, "", "{handler} (isolated: {isolate}): handlers ran");
        // A cancellation read before a request is not that request's: an
        // id used again after its cancellation, in the same read, runs,
        // and the cancellation, spent on the call it kept from starting,
        // does not reach it later (the second call lasts long enough for
        // a cancellation on its way to find it).
        server.send_bytes(&together(&[
            call_message(100, "fixture_sleep", json!({"ms": 50})),
            cancel_message(100),
            call_message(100, "fixture_sleep", json!({"ms": 400})),
            json!({"jsonrpc": "2.0", "id": 101, "method": "ping"}),
        ]));
        let mut answers: Vec<Value> = (0..2).map(|_| server.recv()).collect();
        answers.sort_by_key(|answer| answer["id"].as_i64());
        assert_eq!(answers[0]["id"], 100, "{answers:?}");
        assert!(
            answers[0].get("result").is_some(),
            "{handler} (isolated: {isolate}): {answers:?}"
        );
        let said = text(&answers[0]["result"]);
        assert!(said.contains("slept"), "{handler}: {said}");
        server.finish();
    }
}

/// A cancellation that races a call's end: the call is either answered or
/// logged as cancelled, never both (a cancelled call's answer never goes
/// out); for a call its reading thread runs, exactly one of the two.
#[test]
fn a_call_cancelled_as_it_ends_is_answered_or_cancelled_never_both() {
    for handler in ["io", "async"] {
        let mut server = session(handler, &[]);
        server.request(1, "tools/list", json!({}));
        let trials: Vec<i64> = (10..22).collect();
        for id in &trials {
            send_call(&mut server, *id, "fixture_sleep", json!({"ms": 40}));
            // From well before the call's end to past it.
            std::thread::sleep(Duration::from_millis((*id as u64 - 10) * 7));
            server.send(&cancel_message(*id));
        }
        std::thread::sleep(Duration::from_millis(300));
        server.send(&json!({"jsonrpc": "2.0", "id": 99, "method": "ping"}));
        let mut answered = Vec::new();
        loop {
            let message = server.recv();
            match message["id"].as_i64() {
                Some(99) => break,
                Some(id) => answered.push(id),
                None => panic!("{message}"),
            }
        }
        let log = server.finish();
        for id in trials {
            let cancelled = log.lines().any(|line| {
                line.contains("call cancelled by the client") && line.contains(&format!("id={id} "))
            });
            let was_answered = answered.contains(&id);
            assert!(!(cancelled && was_answered), "{handler}: {id} both\n{log}");
            if handler == "io" {
                assert!(cancelled || was_answered, "{handler}: {id} neither\n{log}");
            }
        }
    }
}

/// The answer a call's thread writes (a call its reading thread started,
/// rmcp never seeing it) is the answer rmcp writes for the same call,
/// byte for byte: a progress token sends the call through rmcp.
#[test]
fn a_call_answered_by_its_thread_reads_as_rmcp_answers_it() {
    for handler in ["io", "plain"] {
        let mut server = session(handler, &[("MCP_BRIDGE_LOG", "debug")]);
        server.request(1, "tools/list", json!({}));
        let calls = [
            ("fixture_shout", json!({"text": "same"})),
            ("fixture_measure", json!({"words": ["a", "bc"]})),
            ("fixture_spell", json!({"word": "ab"})),
            ("fixture_fail", json!({})),
            ("fixture_sizes", json!({})),
        ];
        let mut id = 10;
        for (tool, arguments) in calls.clone() {
            id += 2;
            server.send(&call_message(id, tool, arguments.clone()));
            let early = server.response(&json!(id));
            let mut through_rmcp = call_message(id + 1, tool, arguments);
            through_rmcp["params"]["_meta"] = json!({"progressToken": "t"});
            server.send(&through_rmcp);
            let mut followed = server.response(&json!(id + 1));
            followed["id"] = json!(id);
            assert_eq!(early.to_string(), followed.to_string(), "{handler}: {tool}");
        }
        let log = server.finish();
        let early = log
            .matches("call started by the thread that read it")
            .count();
        assert_eq!(early, calls.len(), "{handler}: {log}");
    }
}

#[test]
fn a_cancelled_call_is_not_answered_and_the_server_goes_on() {
    for handler in ["io", "async"] {
        let mut server = session(handler, &[]);
        send_call(&mut server, 2, "fixture_sleep", json!({"ms": 600}));
        std::thread::sleep(Duration::from_millis(100));
        server.send(&json!({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 2, "reason": "changed my mind"}
        }));
        // Past the time the call would have answered: the next message is
        // the ping's answer, never one for the cancelled call.
        std::thread::sleep(Duration::from_millis(800));
        let pong = server.exchange(3, "ping", json!({}));
        assert!(pong.get("result").is_some(), "{handler}: {pong}");
        server.finish();
    }
}

#[test]
fn a_call_past_its_timeout_is_answered_with_an_error_naming_it() {
    for handler in ["io", "plain", "async"] {
        let mut server = session(handler, &[("FIXTURE_TIMEOUT_MS", "300")]);
        let start = Instant::now();
        let result = server.call(2, "fixture_sleep", json!({"ms": 1500}));
        assert!(start.elapsed() < Duration::from_millis(1000), "{handler}");
        assert_eq!(result["isError"], true);
        let said = text(&result);
        assert!(
            said.contains("tool `fixture_sleep` timed out after 300ms"),
            "{handler}: {said}"
        );
        assert!(said.ends_with("[exit code 124]"), "{handler}: {said}");
        if handler == "plain" {
            // It runs on to its end, holding the turn of the handlers that
            // print (what it prints stays its own): a call that prints runs
            // in a process of its own meanwhile.
            let result = server.call(3, "fixture_shout", json!({"text": "meanwhile"}));
            assert_eq!(text(&result), "shouted meanwhile\n");
            std::thread::sleep(
                (start + Duration::from_millis(1600)).saturating_duration_since(Instant::now()),
            );
        }
        // Fast calls still pass.
        let result = server.call(4, "fixture_shout", json!({"text": "quick"}));
        assert_eq!(text(&result), "shouted quick\n", "{handler}");
        drop(server);
    }
}

/// A handler that prints and hangs, stopped by its client, holds the turn
/// of the handlers that print until it returns: the calls waiting for
/// that turn, and those that come meanwhile, run in a process of their
/// own, so the server stays usable and no output lands in another call's
/// result; once it returns, calls run in the server's process again.
#[test]
fn a_stopped_handler_that_prints_and_hangs_does_not_hold_up_the_others() {
    // A stopped async handler is dropped at its next `.await`: it gives the
    // turn up at once, and nothing needs to run elsewhere.
    for (handler, elsewhere) in [("plain", 2), ("async", 0)] {
        let mut server = session(handler, &[("MCP_BRIDGE_LOG", "info")]);
        server.request(1, "tools/list", json!({}));
        let start = Instant::now();
        send_call(&mut server, 2, "fixture_sleep", json!({"ms": 2000}));
        std::thread::sleep(Duration::from_millis(100));
        // Waits for the turn, then is sent elsewhere when 2 is stopped.
        send_call(&mut server, 3, "fixture_shout", json!({"text": "queued"}));
        std::thread::sleep(Duration::from_millis(100));
        server.send(&cancel_message(2));
        let queued = server.response(&json!(3));
        assert_eq!(text(&queued["result"]), "shouted queued\n", "{handler}");
        let later = server.call(4, "fixture_shout", json!({"text": "later"}));
        assert_eq!(text(&later), "shouted later\n", "{handler}");
        assert!(
            start.elapsed() < Duration::from_millis(1500),
            "{handler}: {:?}",
            start.elapsed()
        );
        // The hung call ends (its `slept` goes nowhere); calls that print
        // run in the server's process again.
        std::thread::sleep((start + Duration::from_millis(2200)) - Instant::now());
        let after = server.call(5, "fixture_shout", json!({"text": "after"}));
        assert_eq!(text(&after), "shouted after\n", "{handler}");
        let log = server.finish();
        assert_eq!(
            log.matches("runs in a process of its own").count(),
            elsewhere,
            "{handler}: {log}"
        );
    }
}

#[test]
fn calls_of_a_serial_command_never_overlap_and_others_do() {
    let mut server = session("io", &[]);
    for id in 2..5 {
        send_call(&mut server, id, "fixture_exclusive", json!({"ms": 200}));
    }
    for _ in 2..5 {
        let message = server.recv();
        assert_eq!(text(&message["result"]), "others inside: 0\n", "{message}");
    }
    server.finish();
}

#[test]
fn a_commands_own_timeout_wins() {
    // `#[mcp(timeout = "200ms")]` on `hurry`; no bridge-wide timeout.
    let mut server = session("io", &[]);
    let result = server.call(2, "fixture_hurry", json!({"ms": 2000}));
    assert!(
        text(&result).contains("tool `fixture_hurry` timed out after 200ms"),
        "{result}"
    );
    let result = server.call(3, "fixture_hurry", json!({"ms": 10}));
    assert_eq!(text(&result), "done in time\n");
    drop(server);
}

#[test]
fn process_exit_in_an_isolated_command_leaves_the_server_serving() {
    // `exit` is `#[mcp(isolate)]`: its `std::process::exit` ends a child.
    for handler in ["io", "plain", "async"] {
        let mut server = session(handler, &[]);
        let result = server.call(2, "fixture_exit", json!({"code": 7}));
        assert_eq!(result["isError"], true, "{handler}");
        assert_eq!(text(&result), "[exit code 7]", "{handler}");
        let result = server.call(3, "fixture_shout", json!({"text": "alive"}));
        assert_eq!(text(&result), "shouted alive\n", "{handler}");
        server.finish();
    }
}

#[test]
fn isolated_calls_capture_real_output_survive_crashes_and_are_killed_when_stopped() {
    for handler in ["io", "plain", "async"] {
        let mut server = session(
            handler,
            &[("FIXTURE_ISOLATE", "1"), ("FIXTURE_TIMEOUT_MS", "1500")],
        );
        let result = server.call(2, "fixture_shout", json!({"text": "apart"}));
        let said = text(&result);
        assert!(said.contains("shouted apart\n"), "{handler}: {said}");
        let result = server.call(3, "fixture_child", json!({}));
        assert!(text(&result).contains("from the child\n"), "{handler}");
        let result = server.call(4, "fixture_crash", json!({}));
        assert_eq!(result["isError"], true);
        assert!(text(&result).contains("deliberate crash"), "{handler}");
        // Past the timeout, the child is killed and the call answered.
        let start = Instant::now();
        let result = server.call(5, "fixture_sleep", json!({"ms": 30_000}));
        assert!(text(&result).contains("timed out after"), "{handler}");
        assert!(start.elapsed() < Duration::from_secs(10));
        // Bad arguments are refused before any process starts.
        let result = server.call(6, "fixture_sleep", json!({"ms": "long"}));
        assert!(text(&result).contains("`ms`"), "{handler}: {result}");
        assert!(text(&result).ends_with("[exit code 2]"));
        server.finish();
    }
}

/// A tool's definition from `tools/list`.
fn tool_definition(server: &mut RawServer, id: i64, name: &str) -> Value {
    let result = server.request(id, "tools/list", json!({}));
    result["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .clone()
}

#[test]
fn a_value_a_handler_returns_is_structured_content_its_output_schema_describes() {
    for (handler, isolate) in [
        ("io", false),
        ("plain", false),
        ("async", false),
        ("io", true),
        ("plain", true),
        ("async", true),
    ] {
        let env: &[(&str, &str)] = if isolate {
            &[("FIXTURE_ISOLATE", "1")]
        } else {
            &[]
        };
        let case = format!("{handler}, isolated: {isolate}");
        let mut server = session(handler, env);

        // An object type is the schema as it is; its value the content.
        let tool = tool_definition(&mut server, 2, "fixture_measure");
        let schema = &tool["outputSchema"];
        assert_eq!(schema["type"], "object", "{tool}");
        assert_eq!(schema["required"], json!(["words", "letters"]), "{tool}");
        assert_eq!(
            schema["properties"]["words"]["description"],
            "How many words"
        );
        let result = server.call(3, "fixture_measure", json!({"words": ["a", "bc"]}));
        assert_eq!(result["isError"], false, "{case}: {result}");
        assert_eq!(text(&result), "2 words, 3 letters\n", "{case}");
        let structured = &result["structuredContent"];
        assert_eq!(structured, &json!({"words": 2, "letters": 3}), "{case}");
        let validator = tests::fuzzing::validator(schema);
        assert!(validator.is_valid(structured), "{case}: {structured}");

        // Another type: the value sits under `result`, as the schema says.
        let tool = tool_definition(&mut server, 4, "fixture_spell");
        let schema = &tool["outputSchema"];
        assert_eq!(schema["required"], json!(["result"]), "{tool}");
        assert_eq!(schema["properties"]["result"]["type"], "array", "{tool}");
        let result = server.call(5, "fixture_spell", json!({"word": "abc"}));
        assert_eq!(text(&result), "[\"a\",\"b\",\"c\"]\n", "{case}");
        let structured = &result["structuredContent"];
        assert_eq!(structured, &json!({"result": ["a", "b", "c"]}), "{case}");
        assert!(tests::fuzzing::validator(schema).is_valid(structured));

        // Without a declared type: content, but no schema.
        let tool = tool_definition(&mut server, 6, "fixture_numbers");
        assert!(tool.get("outputSchema").is_none(), "{tool}");
        let result = server.call(7, "fixture_numbers", json!({"count": 2}));
        assert_eq!(
            result["structuredContent"],
            json!({"result": [1, 2]}),
            "{case}"
        );

        // A value of another type than declared, or none, fails the call
        // (never content its schema refuses), naming tool and types.
        let result = server.call(8, "fixture_mislabel", json!({}));
        assert_eq!(result["isError"], true, "{case}: {result}");
        assert!(
            result.get("structuredContent").is_none(),
            "{case}: {result}"
        );
        let said = text(&result);
        assert!(
            said.contains("tool `fixture_mislabel` declares its output as `fixture_cli::Counts`")
                && said.contains("returned a `alloc::vec::Vec<i32>`"),
            "{case}: {said}"
        );
        let result = server.call(9, "fixture_forget", json!({}));
        assert_eq!(result["isError"], true, "{case}: {result}");
        assert!(text(&result).contains("returned none"), "{case}: {result}");

        // A failing call has no content to match.
        let result = server.call(10, "fixture_fail", json!({}));
        assert!(result.get("structuredContent").is_none(), "{case}");
        server.finish();
    }
}

/// A value returned as data is bounded as the text is: past the output
/// limit it is left out, and the call says why (a client that checks the
/// value against the tool's output schema is not sent half of one).
#[test]
fn a_returned_value_past_the_output_limit_is_left_out_saying_so() {
    for handler in ["io", "plain", "async"] {
        let mut server = session(handler, &[("FIXTURE_OUTPUT_LIMIT", "1000")]);
        let small = server.call(2, "fixture_numbers", json!({"count": 10}));
        assert_eq!(small["isError"], false, "{handler}: {small}");
        assert_eq!(small["structuredContent"]["result"][9], 10, "{small}");
        let big = server.call(3, "fixture_numbers", json!({"count": 100000}));
        assert_eq!(big["isError"], true, "{handler}: {big}");
        assert!(big.get("structuredContent").is_none(), "{handler}");
        let said = text(&big);
        assert!(
            said.contains("longer than this server's limit of 1000 bytes as JSON")
                && said.contains("`Bridge::output_limit`"),
            "{handler}: {said}"
        );
        // Its text is cut, as any output is.
        assert!(said.len() < 4000, "{handler}: {} bytes", said.len());
        server.finish();
    }
}

#[test]
fn in_the_terminal_a_returned_value_is_printed() {
    let run = |handler: &str, args: &[&str]| {
        let output = Command::new(FIXTURE)
            .args(args)
            .env("FIXTURE_HANDLER", handler)
            .output()
            .expect("the fixture runs");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    };
    for handler in ["io", "plain", "async"] {
        assert_eq!(
            run(handler, &["measure", "a", "bc"]),
            (Some(0), "2 words, 3 letters\n".to_owned()),
            "{handler}"
        );
        // JSON, indented for a reader.
        assert_eq!(
            run(handler, &["numbers", "--count", "2"]),
            (Some(0), "[\n  1,\n  2\n]\n".to_owned()),
            "{handler}"
        );
    }
}

/// Sends a request and waits for its response, keeping the notifications
/// that come first.
fn exchange_noting(
    server: &mut RawServer,
    id: i64,
    method: &str,
    params: Value,
    notes: &mut Vec<String>,
) -> Value {
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    loop {
        let message = server.recv();
        if message["id"] == json!(id) {
            return message;
        }
        let method = message["method"].as_str().unwrap_or_default();
        notes.push(method.to_owned());
    }
}

/// The `enum` of the `label` tool's property `name`, and of `also`'s items.
fn label_enums(server: &mut RawServer, id: i64, notes: &mut Vec<String>) -> (Value, Value) {
    let listed = exchange_noting(server, id, "tools/list", json!({}), notes);
    let tool = listed["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|tool| tool["name"] == "fixture_label")
        .expect("the label tool")
        .clone();
    let properties = &tool["inputSchema"]["properties"];
    (
        properties["name"]["enum"].clone(),
        properties["also"]["items"]["enum"].clone(),
    )
}

#[test]
fn fetched_values_are_the_enum_calls_are_checked_and_clients_told_when_they_change() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("labels");
    std::fs::write(&file, "bug\ndocs\n").unwrap();
    let mut command = Command::new(FIXTURE);
    command
        .args(["ai", "serve"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("FIXTURE_HANDLER", "plain")
        .env("FIXTURE_LABELS", &file);
    let mut server = RawServer::spawn(command);
    let init = server.initialize();
    assert_eq!(init["capabilities"]["tools"]["listChanged"], true, "{init}");
    let mut notes = Vec::new();
    let call = |server: &mut RawServer, id, arguments: Value, notes: &mut Vec<String>| {
        let params = json!({"name": "fixture_label", "arguments": arguments});
        exchange_noting(server, id, "tools/call", params, notes)["result"].clone()
    };

    // The first list has the fetched values.
    let (names, also) = label_enums(&mut server, 2, &mut notes);
    assert_eq!(names, json!(["bug", "docs"]));
    assert_eq!(also, json!(["bug", "docs"]));
    let result = call(&mut server, 3, json!({"name": "bug"}), &mut notes);
    assert_eq!(text(&result), "label bug []\n", "{result}");

    // A value not among them is refused, naming the values and where
    // they come from.
    let result = call(&mut server, 4, json!({"name": "zzz"}), &mut notes);
    assert_eq!(result["isError"], true, "{result}");
    let said = text(&result);
    assert!(
        said.contains("fixture_label")
            && said.contains("`name`")
            && said.contains("\"zzz\"")
            && said.contains("one of \"bug\", \"docs\"")
            && said.contains("fetched at run time by `labels`"),
        "{said}"
    );
    // Items of a list, and pieces of a delimited item, are checked too.
    let result = call(
        &mut server,
        5,
        json!({"name": "bug", "also": ["docs,nope"]}),
        &mut notes,
    );
    assert!(text(&result).contains("\"nope\""), "{result}");

    // The first list waited for the values: no one is told they came.
    let await_list_changed = |server: &mut RawServer, notes: &mut Vec<String>| {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !notes
            .iter()
            .any(|n| n == "notifications/tools/list_changed")
        {
            assert!(Instant::now() < deadline, "no list_changed; saw {notes:?}");
            let message = server.recv();
            notes.push(message["method"].as_str().unwrap_or_default().to_owned());
        }
        notes.clear();
    };
    assert!(notes.is_empty(), "{notes:?}");

    // New values: within the TTL (300 ms, fetched at most every second),
    // the client is told and the list has them.
    std::fs::write(&file, "bug\ndocs\nzzz\n").unwrap();
    await_list_changed(&mut server, &mut notes);
    let (names, also) = label_enums(&mut server, 6, &mut notes);
    assert_eq!(names, json!(["bug", "docs", "zzz"]));
    // `also`'s values hold an hour: not fetched again yet.
    assert_eq!(also, json!(["bug", "docs"]));
    let result = call(&mut server, 7, json!({"name": "zzz"}), &mut notes);
    assert_eq!(result["isError"], false, "{result}");

    // A call giving a value not fetched yet fetches again first (the
    // values are older than a second).
    std::fs::write(&file, "bug\ndocs\nzzz\nfresh\n").unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    let result = call(
        &mut server,
        8,
        json!({"name": "bug", "also": ["fresh"]}),
        &mut notes,
    );
    assert_eq!(text(&result), "label bug [\"fresh\"]\n", "{result}");
    let (_, also) = label_enums(&mut server, 9, &mut notes);
    assert_eq!(also, json!(["bug", "docs", "zzz", "fresh"]));

    // A function that fails (or panics) keeps the values fetched before.
    // (Fetched at most every second: each state is left 1.5 s.)
    std::fs::write(&file, "panic").unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    std::fs::remove_file(&file).unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let (names, _) = label_enums(&mut server, 10, &mut notes);
    assert_eq!(names, json!(["bug", "docs", "zzz", "fresh"]));
    let result = call(&mut server, 11, json!({"name": "fresh"}), &mut notes);
    assert_eq!(result["isError"], false, "{result}");
    let log = server.finish();
    assert!(log.contains("cannot fetch argument values: it panicked: the labels file says panic; the values fetched before are kept"), "{log}");
    assert!(
        log.contains("cannot fetch argument values: no labels file"),
        "{log}"
    );
}

#[test]
fn without_values_fetched_the_schema_stays_as_declared() {
    // No labels file: every fetch fails; the property is a plain string
    // and any value goes (clap's own check is all there is).
    let mut command = Command::new(FIXTURE);
    command
        .args(["ai", "serve"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("FIXTURE_HANDLER", "plain")
        .env("FIXTURE_LABELS", "/nonexistent/labels");
    let mut server = RawServer::spawn(command);
    server.initialize();
    let mut notes = Vec::new();
    let (names, _) = label_enums(&mut server, 2, &mut notes);
    assert_eq!(names, Value::Null);
    let result = server.call(3, "fixture_label", json!({"name": "anything"}));
    assert_eq!(text(&result), "label anything []\n", "{result}");
    let log = server.finish();
    assert!(
        log.contains("the schema stays as the CLI declares it"),
        "{log}"
    );
}

/// A session whose client declares elicitation support, or not.
fn asking_session(handler: &str, elicitation: bool) -> RawServer {
    let mut command = Command::new(FIXTURE);
    command
        .args(["ai", "serve"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("FIXTURE_HANDLER", handler);
    let mut server = RawServer::spawn(command);
    let capabilities = match elicitation {
        true => json!({"elicitation": {}}),
        false => json!({}),
    };
    server.request(
        0,
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": capabilities,
            "clientInfo": {"name": "raw-test", "version": "0.0.1"}
        }),
    );
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    server
}

/// Calls `fixture_ask`, answers the question it asks with `reply` (the
/// result of `elicitation/create`), and returns the question and the
/// call's result.
fn ask_and_answer(
    server: &mut RawServer,
    id: i64,
    arguments: Value,
    reply: Value,
) -> (Value, Value) {
    send_call(server, id, "fixture_ask", arguments);
    let question = server.recv();
    assert_eq!(question["method"], "elicitation/create", "{question}");
    server.send(&json!({"jsonrpc": "2.0", "id": question["id"], "result": reply}));
    let answer = server.response(&json!(id));
    (question["params"].clone(), answer["result"].clone())
}

#[test]
fn a_handler_asks_the_user_through_a_client_that_can_ask() {
    for handler in ["io", "plain", "async"] {
        let mut server = asking_session(handler, true);
        let (question, result) = ask_and_answer(
            &mut server,
            2,
            json!({}),
            json!({"action": "accept", "content": {"confirm": true}}),
        );
        assert_eq!(question["message"], "Really go ahead?", "{handler}");
        assert_eq!(
            question["requestedSchema"]["properties"]["confirm"]["type"],
            "boolean"
        );
        assert_eq!(question["requestedSchema"]["required"], json!(["confirm"]));
        assert_eq!(text(&result), "went ahead\n", "{handler}: {result}");

        let (_, result) = ask_and_answer(
            &mut server,
            3,
            json!({}),
            json!({"action": "accept", "content": {"confirm": false}}),
        );
        assert_eq!(text(&result), "stopped\n", "{handler}");

        // Declined: the handler's error, with the flag to pass instead.
        let (_, result) = ask_and_answer(&mut server, 4, json!({}), json!({"action": "decline"}));
        assert_eq!(result["isError"], true, "{handler}");
        assert!(
            text(&result).contains("\"Really go ahead?\" was declined; to go ahead without the question, call again with `force: true`"),
            "{handler}: {result}"
        );
        let (_, result) = ask_and_answer(&mut server, 5, json!({}), json!({"action": "cancel"}));
        assert!(
            text(&result).contains("was not answered"),
            "{handler}: {result}"
        );

        // A line of text.
        let (question, result) = ask_and_answer(
            &mut server,
            6,
            json!({"name": true}),
            json!({"action": "accept", "content": {"answer": "Ann"}}),
        );
        assert_eq!(
            question["requestedSchema"]["properties"]["answer"]["type"],
            "string"
        );
        assert_eq!(text(&result), "hello Ann\n", "{handler}");

        // From inside a runtime of the handler's own (the wait runs on
        // the server's).
        if handler == "plain" {
            let (_, result) = ask_and_answer(
                &mut server,
                8,
                json!({"nested": true}),
                json!({"action": "accept", "content": {"confirm": true}}),
            );
            assert_eq!(text(&result), "went ahead\n", "{result}");
        }

        // An answer of the wrong kind is no answer.
        let (_, result) = ask_and_answer(
            &mut server,
            7,
            json!({}),
            json!({"action": "accept", "content": {"confirm": "sure"}}),
        );
        assert!(
            text(&result).contains("has no `confirm` of the kind asked"),
            "{handler}: {result}"
        );
        // A yes comes as `confirm` only: a form's other boolean is no
        // consent, even when it is the form's only property.
        let (_, result) = ask_and_answer(
            &mut server,
            9,
            json!({}),
            json!({"action": "accept", "content": {"rememberChoice": true}}),
        );
        assert_eq!(result["isError"], true, "{handler}: {result}");
        assert!(
            text(&result).contains("has no `confirm` of the kind asked")
                && !text(&result).contains("went ahead"),
            "{handler}: {result}"
        );
        server.finish();
    }
}

#[test]
fn without_a_client_that_can_ask_the_question_fails_naming_the_flag() {
    for handler in ["io", "plain", "async"] {
        let mut server = asking_session(handler, false);
        let result = server.call(2, "fixture_ask", json!({}));
        assert_eq!(result["isError"], true, "{handler}");
        let said = text(&result);
        assert!(
            said.contains("cannot ask \"Really go ahead?\"")
                && said.contains("call again with `force: true`"),
            "{handler}: {said}"
        );
        let result = server.call(3, "fixture_ask", json!({"force": true}));
        assert_eq!(text(&result), "went ahead\n", "{handler}");
        server.finish();
    }
    // Where the server cannot reach the client (an isolated call), the
    // reason says so.
    for handler in ["io", "plain", "async"] {
        let mut command = Command::new(FIXTURE);
        command
            .args(["ai", "serve"])
            .env("FIXTURE_BRIDGE_NAME", "ai")
            .env("FIXTURE_HANDLER", handler)
            .env("FIXTURE_ISOLATE", "1");
        let mut server = RawServer::spawn(command);
        server.initialize();
        let result = server.call(2, "fixture_ask", json!({}));
        let said = text(&result);
        assert!(
            (said.contains("no client can be asked here") || said.contains("a child process"))
                && said.contains("`force: true`"),
            "{handler}: {result}"
        );
        server.finish();
    }
}

#[test]
fn a_calls_questions_reach_a_client_one_after_the_other() {
    let mut server = asking_session("io", true);
    // Asked from two threads at once, sent one at a time.
    send_call(&mut server, 2, "fixture_survey", json!({}));
    let mut answered = Vec::new();
    for _ in 0..2 {
        let question = server.recv();
        assert_eq!(question["method"], "elicitation/create", "{question}");
        let open = server.recv_within(Duration::from_millis(500));
        assert!(
            open.is_none(),
            "a second question while one is open: {open:?}"
        );
        let message = question["params"]["message"].as_str().unwrap().to_owned();
        let content = match message.as_str() {
            "Your name?" => json!({"answer": "Ann"}),
            _ => json!({"confirm": true}),
        };
        let reply = json!({"action": "accept", "content": content});
        server.send(&json!({"jsonrpc": "2.0", "id": question["id"], "result": reply}));
        answered.push(message);
    }
    answered.sort();
    assert_eq!(answered, ["Really go ahead?", "Your name?"]);
    let result = server.response(&json!(2));
    assert_eq!(text(&result["result"]), "Ann: went ahead\n", "{result}");
    server.finish();
}

#[test]
fn a_question_waiting_for_an_answer_ends_with_its_call() {
    let mut server = asking_session("io", true);
    send_call(&mut server, 2, "fixture_ask", json!({}));
    let question = server.recv();
    assert_eq!(question["method"], "elicitation/create", "{question}");
    // The client cancels the call instead of answering: no answer is due,
    // and the server goes on.
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 2, "reason": "changed my mind"}}),
    );
    let pong = server.exchange(3, "ping", json!({}));
    assert_eq!(pong["result"], json!({}), "{pong}");
    let result = server.call(4, "fixture_ask", json!({"force": true}));
    assert_eq!(text(&result), "went ahead\n");
    server.finish();
}

#[test]
fn in_a_terminal_a_question_needs_one() {
    for handler in ["io", "plain", "async"] {
        let output = Command::new(FIXTURE)
            .arg("ask")
            .env("FIXTURE_HANDLER", handler)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{handler}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("stdin is not a terminal") && stderr.contains("pass `--force`"),
            "{handler}: {stderr}"
        );
    }
}

#[test]
fn a_second_request_with_an_id_in_flight_is_refused_and_the_first_answered() {
    let mut server = session("io", &[]);
    send_call(&mut server, 5, "fixture_sleep", json!({"ms": 300}));
    server.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "ping"}));
    let refused = server.recv();
    assert_eq!(refused["id"], 5);
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let answered = server.recv();
    assert_eq!(answered["id"], 5);
    assert_eq!(text(&answered["result"]), "slept\n");
    // Once answered, the id may be used again.
    let pong = server.exchange(5, "ping", json!({}));
    assert!(pong.get("result").is_some(), "{pong}");
    server.finish();
}

#[test]
fn a_cancelled_isolated_call_is_killed() {
    let mut server = session("plain", &[("FIXTURE_ISOLATE", "1")]);
    send_call(&mut server, 2, "fixture_sleep", json!({"ms": 30_000}));
    std::thread::sleep(Duration::from_millis(300));
    let pid = server.child.id().to_string();
    // Live children, from /proc (a killed child not reaped yet is a
    // zombie: dead).
    let children = || {
        let mut live = 0;
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // `pid (comm) state ppid ...`; comm may hold spaces.
            let Some(after) = stat.rsplit_once(')').map(|(_, after)| after) else {
                continue;
            };
            let fields: Vec<&str> = after.split_whitespace().collect();
            if fields.get(1) == Some(&pid.as_str()) && fields.first() != Some(&"Z") {
                live += 1;
            }
        }
        live
    };
    assert_eq!(children(), 1, "the call runs in a child process");
    server.send(&json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 2}
    }));
    let give_up = Instant::now() + Duration::from_secs(5);
    while children() > 0 && Instant::now() < give_up {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(children(), 0, "the cancelled call's process is gone");
    let pong = server.exchange(3, "ping", json!({}));
    assert!(pong.get("result").is_some(), "{pong}");
    server.finish();
}

/// A session whose client declares the MCP Tasks extension.
fn tasks_session() -> RawServer {
    session_with(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
}

/// A session of the `io` handler whose client declares `capabilities`.
fn session_with(capabilities: Value) -> RawServer {
    session_with_env(capabilities, &[])
}

/// [`session_with`], the server started with `env`.
fn session_with_env(capabilities: Value, env: &[(&str, &str)]) -> RawServer {
    let mut command = Command::new(FIXTURE);
    command
        .args(["ai", "serve"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("FIXTURE_HANDLER", "io")
        .envs(env.iter().copied());
    let mut server = RawServer::spawn(command);
    let init = server.request(
        0,
        "initialize",
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "clientInfo": {"name": "tasks-test", "version": "1"}
        }),
    );
    assert!(
        init["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"].is_object(),
        "{init}"
    );
    assert!(init["capabilities"].get("tasks").is_none(), "{init}");
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    server
}

/// The id of the task a call answered with.
fn task_id(created: &Value) -> String {
    created["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no task: {created}"))
        .to_owned()
}

/// Polls `tasks/get` until the task leaves `working`.
fn settled(server: &mut RawServer, task: &str, first_id: i64) -> Value {
    let give_up = Instant::now() + Duration::from_secs(10);
    for id in first_id.. {
        let state = server.request(id, "tasks/get", json!({"taskId": task}));
        if state["status"] != "working" || Instant::now() > give_up {
            return state;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    unreachable!()
}

#[test]
fn a_task_command_becomes_a_task_the_client_polls() {
    let mut server = tasks_session();
    let created = server.call(2, "fixture_sleep", json!({"ms": 300}));
    assert_eq!(created["resultType"], "task", "{created}");
    assert_eq!(created["status"], "working", "{created}");
    let task = task_id(&created);
    // The server answers meanwhile.
    let pong = server.exchange(3, "ping", json!({}));
    assert!(pong.get("result").is_some());
    let done = settled(&mut server, &task, 10);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "slept\n", "{done}");
    // A command that is no task answers as before.
    let result = server.call(100, "fixture_shout", json!({"text": "now"}));
    assert_eq!(text(&result), "shouted now\n");
    server.finish();
}

#[test]
fn a_cancelled_task_stops() {
    let mut server = tasks_session();
    let created = server.call(2, "fixture_sleep", json!({"ms": 30_000}));
    let task = task_id(&created);
    server.request(3, "tasks/cancel", json!({"taskId": task}));
    let state = settled(&mut server, &task, 10);
    assert_eq!(state["status"], "cancelled", "{state}");
    server.finish();
}

#[test]
fn a_cancelled_task_waiting_for_its_turn_is_cancelled_at_once() {
    let tasks = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let mut server = session_with_env(tasks, &[("FIXTURE_MAX_CALLS", "1")]);
    let first = server.call(2, "fixture_sleep", json!({"ms": 30_000}));
    let first = first["taskId"].as_str().unwrap().to_owned();
    // The one slot is taken: the second waits for it.
    let second = server.call(3, "fixture_sleep", json!({"ms": 10}));
    let second = second["taskId"].as_str().unwrap().to_owned();
    server.request(4, "tasks/cancel", json!({"taskId": second}));
    let state = settled(&mut server, &second, 10);
    assert_eq!(state["status"], "cancelled", "{state}");
    // The first still runs, and stops when cancelled too.
    let state = server.request(100, "tasks/get", json!({"taskId": first}));
    assert_eq!(state["status"], "working", "{state}");
    server.request(101, "tasks/cancel", json!({"taskId": first}));
    let state = settled(&mut server, &first, 102);
    assert_eq!(state["status"], "cancelled", "{state}");
    server.finish();
}

#[test]
fn a_call_waiting_for_its_turn_times_out_saying_so() {
    let env = [("FIXTURE_MAX_CALLS", "1"), ("FIXTURE_TIMEOUT_MS", "400")];
    let mut server = session("plain", &env);
    // Holds the one slot past its timeout: a plain handler does not stop.
    send_call(&mut server, 2, "fixture_sleep", json!({"ms": 1500}));
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    send_call(&mut server, 3, "fixture_shout", json!({"text": "late"}));
    let first = server.response(&json!(2));
    assert!(
        text(&first["result"]).contains("timed out after 400ms: the command was asked to stop"),
        "{first}"
    );
    let waiting = server.response(&json!(3));
    assert!(started.elapsed() < Duration::from_millis(1200), "{waiting}");
    let waiting = &waiting["result"];
    assert_eq!(waiting["isError"], true, "{waiting}");
    assert!(
        text(waiting).contains("timed out after 400ms before it started"),
        "{waiting}"
    );
    server.finish();
}

/// Polls `tasks/get` until the task asks `count` questions at once (or
/// ends); the task's state.
fn asking(server: &mut RawServer, task: &str, count: usize, first_id: i64) -> Value {
    let give_up = Instant::now() + Duration::from_secs(10);
    for id in first_id.. {
        let state = server.request(id, "tasks/get", json!({"taskId": task}));
        let asked = state["inputRequests"]
            .as_object()
            .map_or(0, |asked| asked.len());
        if asked >= count || state["status"] != "working" && state["status"] != "input_required" {
            return state;
        }
        assert!(Instant::now() < give_up, "no question: {state}");
        std::thread::sleep(Duration::from_millis(20));
    }
    unreachable!()
}

/// The key of the question `message` among a task's input requests.
fn question_key(state: &Value, message: &str) -> String {
    let asked = state["inputRequests"].as_object().expect("input requests");
    let (key, request) = asked
        .iter()
        .find(|(_, request)| request["params"]["message"] == message)
        .unwrap_or_else(|| panic!("no question {message:?}: {state}"));
    assert_eq!(request["method"], "elicitation/create", "{state}");
    key.clone()
}

#[test]
fn a_tasks_questions_wait_in_the_task_together_and_are_answered_through_it() {
    let mut server = session_with(json!({
        "elicitation": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}}
    }));
    let created = server.call(2, "fixture_survey", json!({}));
    assert_eq!(created["resultType"], "task", "{created}");
    let task = task_id(&created);
    // Asked from two threads: both wait at once.
    let state = asking(&mut server, &task, 2, 10);
    assert_eq!(state["status"], "input_required", "{state}");
    let name = question_key(&state, "Your name?");
    let sure = question_key(&state, "Really go ahead?");
    // A form of the client's own: its one text is the answer.
    let answer = json!({"action": "accept", "content": {"name": "Ann"}});
    let ack = server.request(
        100,
        "tasks/update",
        json!({"taskId": task, "inputResponses": {name.clone(): answer}}),
    );
    assert_eq!(ack, json!({"resultType": "complete"}));
    let state = server.request(101, "tasks/get", json!({"taskId": task}));
    assert_eq!(state["status"], "input_required", "{state}");
    let left: Vec<&String> = state["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(left, [&sure], "{state}");
    let answer = json!({"action": "accept", "content": {"confirm": true}});
    server.request(
        102,
        "tasks/update",
        json!({"taskId": task, "inputResponses": {sure: answer}}),
    );
    let done = settled(&mut server, &task, 200);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(text(&done["result"]), "Ann: went ahead\n", "{done}");
    server.finish();
}

#[test]
fn a_task_past_its_time_to_live_stops_and_fails() {
    let capabilities = json!({
        "elicitation": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}}
    });
    let env = [("FIXTURE_TASK_TTL_MS", "700"), ("FIXTURE_MAX_CALLS", "1")];
    let mut server = session_with_env(capabilities, &env);
    let created = server.call(2, "fixture_survey", json!({}));
    assert_eq!(created["ttlMs"], 700, "{created}");
    let task = task_id(&created);
    // Its questions wait in the task, unanswered, and nobody asks about
    // tasks: the call still stops when the time is up, and frees its slot.
    std::thread::sleep(Duration::from_millis(1000));
    let result = server.call(3, "fixture_shout", json!({"text": "next"}));
    assert_eq!(text(&result), "shouted next\n", "{result}");
    let state = server.request(4, "tasks/get", json!({"taskId": task}));
    assert_eq!(state["status"], "failed", "{state}");
    assert!(
        state["error"]["message"]
            .as_str()
            .unwrap()
            .contains("task expired: its time to live (700ms) elapsed"),
        "{state}"
    );
    server.finish();
}

#[test]
fn a_task_whose_client_cannot_ask_ends_with_the_question_unanswered() {
    let mut server = tasks_session();
    let created = server.call(2, "fixture_survey", json!({}));
    let task = task_id(&created);
    let done = settled(&mut server, &task, 10);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["isError"], true, "{done}");
    assert!(
        text(&done["result"]).contains("did not declare that it can ask its user"),
        "{done}"
    );
    server.finish();
}

#[test]
fn a_cancelled_task_waiting_for_an_answer_is_cancelled() {
    let mut server = session_with(json!({
        "elicitation": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}}
    }));
    let created = server.call(2, "fixture_survey", json!({}));
    let task = task_id(&created);
    asking(&mut server, &task, 2, 10);
    server.request(100, "tasks/cancel", json!({"taskId": task}));
    let state = settled(&mut server, &task, 101);
    assert_eq!(state["status"], "cancelled", "{state}");
    server.finish();
}

#[test]
fn a_task_whose_handler_panics_fails_with_the_error_and_no_result() {
    let mut server = tasks_session();
    let created = server.call(2, "fixture_break", json!({}));
    let task = task_id(&created);
    let state = settled(&mut server, &task, 10);
    assert_eq!(state["status"], "failed", "{state}");
    assert!(state.get("result").is_none(), "{state}");
    assert_eq!(state["error"]["code"], -32603, "{state}");
    assert!(
        state["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the command panicked: deliberate crash in a task"),
        "{state}"
    );
    // Another task completes.
    let created = server.call(100, "fixture_batch", json!({"ms": 10}));
    let task = task_id(&created);
    let state = settled(&mut server, &task, 101);
    assert_eq!(state["status"], "completed", "{state}");
    assert_eq!(text(&state["result"]), "batched\n", "{state}");
    server.finish();
}

#[test]
fn an_isolated_task_whose_handler_panics_fails_too() {
    for handler in ["io", "plain", "async"] {
        let tasks = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
        let env = [("FIXTURE_ISOLATE", "1"), ("FIXTURE_HANDLER", handler)];
        let mut server = session_with_env(tasks, &env);
        let created = server.call(2, "fixture_break", json!({}));
        let task = task_id(&created);
        let state = settled(&mut server, &task, 10);
        assert_eq!(state["status"], "failed", "{handler}: {state}");
        assert!(
            state["error"]["message"]
                .as_str()
                .unwrap()
                .contains("the command panicked: deliberate crash in a task"),
            "{handler}: {state}"
        );
        // A command that fails in its process still completes.
        let created = server.call(100, "fixture_fail", json!({}));
        assert!(created.get("taskId").is_none(), "{created}");
        assert_eq!(created["isError"], true, "{handler}: {created}");
        server.finish();
    }
}

#[test]
fn a_command_that_must_be_a_task_refuses_a_client_without_tasks() {
    let mut server = session("io", &[]);
    let refused = server.exchange(
        2,
        "tools/call",
        json!({"name": "fixture_batch", "arguments": {}}),
    );
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert!(
        refused["error"]["data"]["requiredCapabilities"]["extensions"]
            ["io.modelcontextprotocol/tasks"]
            .is_object(),
        "{refused}"
    );
    // Before its arguments are read: bad ones are refused the same way.
    let refused = server.exchange(
        3,
        "tools/call",
        json!({"name": "fixture_batch", "arguments": {"ms": "soon", "what": 1}}),
    );
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    // The server goes on; an optional task answers directly.
    let result = server.call(4, "fixture_sleep", json!({"ms": 10}));
    assert_eq!(text(&result), "slept\n");
    server.finish();
}

/// A request's `_meta` under protocol 2026-07-28, from a client declaring
/// `capabilities`.
fn meta_2026(capabilities: &Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "1"}
    })
}

#[test]
fn under_2026_07_28_a_handler_asks_first_then_goes_on_as_a_task() {
    let tasks = json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}});
    let no_tasks = json!({"elicitation": {}});
    let handlers = ["io", "plain", "async"];
    let runs = handlers
        .iter()
        .flat_map(|handler| [(handler, tasks.clone()), (handler, no_tasks.clone())]);
    for (handler, capabilities) in runs {
        let as_task = capabilities.get("extensions").is_some();
        let mut command = Command::new(FIXTURE);
        command
            .args(["ai", "serve"])
            .env("FIXTURE_BRIDGE_NAME", "ai")
            .env("FIXTURE_HANDLER", handler);
        let mut server = RawServer::spawn(command);
        let meta = meta_2026(&capabilities);
        let call = |extra: Value| {
            let mut params = json!({"name": "fixture_deploy", "arguments": {}, "_meta": meta});
            params
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            params
        };
        // The question first, in the call's answer.
        let first = server.request(1, "tools/call", call(json!({})));
        assert_eq!(first["resultType"], "input_required", "{first}");
        assert!(first.get("taskId").is_none(), "{first}");
        assert_eq!(
            first["inputRequests"]["question"]["params"]["message"],
            "Where to?"
        );
        let answer = json!({"action": "accept", "content": {"answer": "prod"}});
        let second = server.request(
            2,
            "tools/call",
            call(json!({
                "requestState": first["requestState"],
                "inputResponses": {"question": answer}
            })),
        );
        let yes = json!({"action": "accept", "content": {"confirm": true}});
        let text = if as_task {
            // Then a task: no requestState of the rounds in it.
            assert_eq!(second["resultType"], "task", "{second}");
            assert!(second.get("requestState").is_none(), "{second}");
            assert!(second.get("inputRequests").is_none(), "{second}");
            let task = second["taskId"].as_str().unwrap().to_owned();
            let get = json!({"taskId": task, "_meta": meta});
            let mut state = server.request(3, "tasks/get", get.clone());
            for id in 4.. {
                if state["status"] == "input_required" {
                    break;
                }
                assert!(id < 500, "no question in the task: {state}");
                std::thread::sleep(Duration::from_millis(20));
                state = server.request(id, "tasks/get", get.clone());
            }
            let key = question_key(&state, "Really go ahead?");
            server.request(
                600,
                "tasks/update",
                json!({"taskId": task, "inputResponses": {key: yes}, "_meta": meta}),
            );
            for id in 601.. {
                state = server.request(id, "tasks/get", get.clone());
                if state["status"] != "working" {
                    break;
                }
                assert!(id < 1100, "the task does not end: {state}");
                std::thread::sleep(Duration::from_millis(20));
            }
            assert_eq!(state["status"], "completed", "{state}");
            state["result"]["content"][0]["text"].clone()
        } else {
            // The client cannot follow a task: the call goes on in rounds.
            assert_eq!(second["resultType"], "input_required", "{second}");
            let third = server.request(
                3,
                "tools/call",
                call(json!({
                    "requestState": second["requestState"],
                    "inputResponses": {"question": yes}
                })),
            );
            third["content"][0]["text"].clone()
        };
        assert_eq!(
            text,
            format!("deploying to prod (a task: {as_task})\nwent ahead\n"),
            "{handler}"
        );
        server.finish();
    }
}

#[test]
fn a_handler_waiting_to_become_a_task_stops_with_its_call() {
    let mut command = Command::new(FIXTURE);
    command
        .args(["ai", "serve"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("FIXTURE_HANDLER", "io")
        .env("FIXTURE_MAX_CALLS", "1")
        .env("FIXTURE_TIMEOUT_MS", "500");
    let mut server = RawServer::spawn(command);
    let meta = meta_2026(&json!({"elicitation": {}}));
    let call =
        |tool: &str, arguments: Value| json!({"name": tool, "arguments": arguments, "_meta": meta});
    // Its question answers the call; its handler then waits to become a
    // task, behind the question nobody answers.
    let first = server.request(1, "tools/call", call("fixture_rollout", json!({})));
    assert_eq!(first["resultType"], "input_required", "{first}");
    assert_eq!(
        first["inputRequests"]["question"]["params"]["message"],
        "Which version?"
    );
    // Past its timeout the call stops, its handler's wait too, and the
    // one slot goes to the next call.
    std::thread::sleep(Duration::from_millis(800));
    let next = server.request(
        2,
        "tools/call",
        call("fixture_shout", json!({"text": "next"})),
    );
    assert_eq!(text(&next), "shouted next\n", "{next}");
    server.finish();
}

#[test]
fn without_the_tasks_extension_a_task_command_answers_directly() {
    let mut server = session("io", &[]);
    let result = server.call(2, "fixture_sleep", json!({"ms": 10}));
    assert_eq!(text(&result), "slept\n");
    server.finish();
}

#[test]
fn a_calls_logs_reach_a_client_that_asked_for_them() {
    let mut server = session("io", &[]);
    // Not asked: no notification (`call` fails on anything but the answer).
    server.call(2, "fixture_shout", json!({"text": "quiet"}));
    server.request(3, "logging/setLevel", json!({"level": "info"}));
    send_call(
        &mut server,
        4,
        "fixture_shout",
        json!({"text": "loud words"}),
    );
    let mut logs = Vec::new();
    let result = loop {
        let message = server.recv();
        if message["method"] == "notifications/message" {
            logs.push(message["params"].clone());
        } else {
            break message;
        }
    };
    assert_eq!(text(&result["result"]), "shouted loud words\n");
    // The info event, not the debug one (below the level asked for).
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert_eq!(logs[0]["level"], "info");
    assert_eq!(logs[0]["data"], "shouting loud words words=2");
    assert_eq!(logs[0]["logger"], "fixture_shout:fixture_cli");
    server.finish();
}

/// The server's peak resident memory, in KiB (Linux).
fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_million_lines_are_cut_to_the_limit_with_a_marker_and_bounded_memory() {
    for handler in ["io", "plain"] {
        let mut server = session(handler, &[]);
        let result = server.call(2, "fixture_flood", json!({"lines": 1_000_000}));
        let said = text(&result);
        assert!(said.starts_with("line 0\nline 1\n"), "{handler}");
        assert!(said.ends_with("line 999999\n"), "{handler}");
        assert!(said.contains("lines) cut here"), "{handler}");
        assert!(
            said.len() < 48 * 1024 + 400,
            "{handler}: {} bytes",
            said.len()
        );
        if let Some(peak) = peak_memory_kib(server.child.id()) {
            // The whole output would be 12.9 MB (and twice that as JSON).
            assert!(peak < 40 * 1024, "{handler}: peak memory {peak} KiB");
        }
        server.finish();
    }
}

#[test]
fn progress_reaches_a_client_that_asked_for_it() {
    let mut server = session("io", &[]);
    server.send(&json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {
            "name": "fixture_progress", "arguments": {"steps": 3},
            "_meta": {"progressToken": "p-1"}
        }
    }));
    let mut progress = Vec::new();
    let result = loop {
        let message = server.recv();
        if message["method"] == "notifications/progress" {
            assert_eq!(message["params"]["progressToken"], "p-1");
            assert_eq!(message["params"]["total"], 3.0);
            progress.push(message["params"]["progress"].as_f64().unwrap());
        } else {
            break message;
        }
    };
    assert_eq!(text(&result["result"]), "done\n");
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    server.finish();
}

fn terminate(server: &RawServer) {
    let pid = rustix::process::Pid::from_raw(server.child.id() as i32).expect("a pid");
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM sent");
}

#[test]
fn sigterm_lets_running_calls_finish_and_answer() {
    let mut server = session("io", &[]);
    send_call(&mut server, 2, "fixture_sleep", json!({"ms": 500}));
    std::thread::sleep(Duration::from_millis(100));
    terminate(&server);
    let message = server.recv();
    assert_eq!(message["id"], 2);
    assert_eq!(text(&message["result"]), "slept\n");
    let status = server.close_and_wait(Duration::from_secs(5)).unwrap();
    assert!(status.success(), "{status}");
}

#[test]
fn sigterm_stops_a_task_waiting_for_an_answer_at_once() {
    let capabilities = json!({
        "elicitation": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}}
    });
    let mut server = session_with_env(capabilities, &[("FIXTURE_GRACE_MS", "8000")]);
    let created = server.call(2, "fixture_survey", json!({}));
    let task = task_id(&created);
    asking(&mut server, &task, 2, 10);
    // No answer can come in time: the call stops, as one waiting in an
    // `input_required` round does, and nothing is cut off.
    let started = Instant::now();
    terminate(&server);
    let status = server.close_and_wait(Duration::from_secs(4));
    let log = server.log();
    let status = status.unwrap_or_else(|| panic!("still running after 4s; log:\n{log}"));
    assert!(started.elapsed() < Duration::from_secs(4));
    assert!(status.success(), "{status}; log:\n{log}");
    assert!(!log.contains("cut off"), "{log}");
    assert!(log.contains("a task's question goes unanswered"), "{log}");
}

/// A call still running when the grace period ends is answered with what
/// is true (it had not finished, and may or may not complete), whether its
/// reading thread runs it or rmcp follows it (a progress token), and the
/// server waits the grace period once.
#[test]
fn a_call_cut_off_by_the_grace_period_is_told_so_and_the_grace_counts_once() {
    let mut server = session("plain", &[("FIXTURE_GRACE_MS", "1000")]);
    server.request(1, "tools/list", json!({}));
    send_call(&mut server, 2, "fixture_sleep", json!({"ms": 8000}));
    let mut followed = call_message(3, "fixture_exclusive", json!({"ms": 8000}));
    followed["params"]["_meta"] = json!({"progressToken": "p"});
    // The printing calls take turns: the second waits for its turn.
    server.send(&followed);
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    terminate(&server);
    let mut answers: Vec<Value> = (0..2).map(|_| server.recv()).collect();
    answers.sort_by_key(|answer| answer["id"].as_i64());
    for (answer, id) in answers.iter().zip([2, 3]) {
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        let said = text(&answer["result"]);
        assert!(
            said.contains("had not finished when the server stopped")
                && said.contains("may or may not have completed"),
            "{said}"
        );
    }
    let status = server.close_and_wait(Duration::from_secs(5)).unwrap();
    let took = start.elapsed();
    assert!(!status.success(), "{status}");
    assert!(
        took < Duration::from_millis(1900),
        "exited {took:?} after SIGTERM, with a grace period of 1 s"
    );
}

#[test]
fn calls_cut_off_by_the_grace_period_make_the_exit_code_non_zero() {
    let mut server = session("io", &[("FIXTURE_GRACE_MS", "200")]);
    send_call(&mut server, 2, "fixture_sleep", json!({"ms": 5000}));
    std::thread::sleep(Duration::from_millis(100));
    terminate(&server);
    let status = server.close_and_wait(Duration::from_secs(4)).unwrap();
    assert!(!status.success(), "{status}");
    assert!(server.log().contains("cut off"), "{}", server.log());
}

#[test]
fn renamed_bridge_serves_the_clis_own_mcp_command_as_a_tool() {
    let mut server = session("io", &[]);
    let names = server.tools_list(2);
    assert_eq!(
        &names[..3],
        ["fixture_shout", "fixture_mcp", "fixture_crash"]
    );
    let result = server.call(3, "fixture_mcp", json!({}));
    assert_eq!(text(&result), "the CLI's own mcp command\n");
    server.finish();
}

#[test]
fn the_clis_own_mcp_command_wins_over_the_default_bridge_name() {
    let output = Command::new(FIXTURE).arg("mcp").output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "the CLI's own mcp command\n"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("Bridge::command_name"), "{stderr}");
}

#[test]
fn cli_mode_is_unchanged() {
    for handler in ["io", "plain", "async"] {
        let output = Command::new(FIXTURE)
            .args(["shout", "--", "-rf"])
            .env("FIXTURE_HANDLER", handler)
            .output()
            .unwrap();
        assert!(output.status.success());
        let expected = match handler {
            "io" => "stray println: -rf\nshouted -rf\n",
            _ => "shouted -rf\n",
        };
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
        let output = Command::new(FIXTURE)
            .arg("fail")
            .env("FIXTURE_HANDLER", handler)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{handler}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "error: the command failed on purpose\n"
        );
        let output = Command::new(FIXTURE)
            .args(["exit", "7"])
            .env("FIXTURE_HANDLER", handler)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(7), "{handler}");
    }
    let output = Command::new(FIXTURE).arg("nope").output().unwrap();
    assert_eq!(output.status.code(), Some(2), "clap's usage error code");
    let output = Command::new(FIXTURE).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(
        help.contains("A CLI for testing the bridge") && !help.contains("Model Context Protocol")
    );
}

#[test]
fn tools_command_writes_the_definitions_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tools.json");
    let status = Command::new(FIXTURE)
        .args(["mcp", "tools", "--output"])
        .arg(&path)
        .env("FIXTURE_BRIDGE_NAME", "mcp-bridge")
        .status()
        .unwrap();
    // With the default name `mcp` taken by the CLI, the bridge is renamed here.
    assert!(
        !status.success(),
        "`mcp tools` reaches the CLI's own `mcp` command, which takes no argument"
    );
    let status = Command::new(FIXTURE)
        .args(["ai", "tools", "--output"])
        .arg(&path)
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .status()
        .unwrap();
    assert!(status.success());
    let tools: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(tools.as_array().unwrap().len(), 29);
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["text"]));
}

#[test]
fn icons_reach_every_tool_below_the_command_that_declares_one() {
    let output = Command::new(FIXTURE)
        .args(["ai", "tools"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .output()
        .expect("run `fixture ai tools`");
    assert!(output.status.success(), "{output:?}");
    let tools: Vec<Value> = serde_json::from_slice(&output.stdout).expect("JSON");
    for tool in &tools {
        let expected = if tool["name"] == "fixture_shout" {
            json!([{"src": "https://example.com/icons/shout.png?v=2", "mimeType": "image/png"}])
        } else {
            json!([{
                "src": "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E",
                "mimeType": "image/svg+xml"
            }])
        };
        assert_eq!(tool["icons"], expected, "{}", tool["name"]);
    }
}

#[test]
fn a_calls_trace_context_reaches_its_handler_its_span_and_its_own_process() {
    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    for handler in ["io", "plain", "async"] {
        let mut server = session(handler, &[("MCP_BRIDGE_LOG", "info")]);
        let traced =
            |tool: &str, meta: Value| json!({"name": tool, "arguments": {}, "_meta": meta});
        let meta = json!({"traceparent": PARENT, "tracestate": "vendor=abc"});
        // In this process: the call's context, not the process's variable.
        let result = server.request(2, "tools/call", traced("fixture_trace", meta.clone()));
        assert_eq!(
            result["structuredContent"],
            json!({"traceparent": PARENT, "tracestate": "vendor=abc", "TRACEPARENT": null}),
            "{handler}: {result}"
        );
        // In a process of its own: the variables OpenTelemetry reads too.
        let result = server.request(3, "tools/call", traced("fixture_trace-apart", meta));
        assert_eq!(
            result["structuredContent"],
            json!({"traceparent": PARENT, "tracestate": "vendor=abc", "TRACEPARENT": PARENT}),
            "{handler}: {result}"
        );
        // None sent, or one that is not well formed: none.
        let none = json!({"traceparent": null, "tracestate": null, "TRACEPARENT": null});
        let result = server.call(4, "fixture_trace", json!({}));
        assert_eq!(result["structuredContent"], none, "{handler}: {result}");
        let bad = json!({"traceparent": "00-xyz-01", "tracestate": "vendor=abc"});
        let result = server.request(5, "tools/call", traced("fixture_trace-apart", bad));
        assert_eq!(result["structuredContent"], none, "{handler}: {result}");
        server.assert_stdout_pure();
        let log = server.finish();
        // The handler's events are in the call's span.
        assert!(
            log.contains(&format!(
                "mcp_call{{tool=\"fixture_trace\" traceparent=\"{PARENT}\""
            )),
            "{handler}: {log}"
        );
        assert!(log.contains("traceparent is dropped"), "{handler}: {log}");
    }
}

/// A client that closes its input while calls run (a pipeline, a
/// half-close) still gets the answer of every call that finishes within
/// the grace period, also past rmcp's own fixed wait for answers (five
/// seconds), and "had not finished" for one that does not: each answered
/// once, for each handler kind, started by the thread that read it and
/// followed by rmcp (a progress token), and in a process of its own.
/// Grace 8 s; calls of 0.5 s, 6 s and
/// 12 s (the times of the issue, scaled to keep the test short).
#[test]
fn closing_stdin_loses_no_answer_of_a_call_that_finishes_within_the_grace() {
    let runs = [
        ("io", false, 500),
        ("io", false, 6000),
        ("io", false, 12000),
        ("io", true, 6000),
        ("io", true, 12000),
        ("plain", false, 6000),
        ("plain", false, 12000),
        ("async", false, 500),
        ("async", false, 6000),
        ("async", false, 12000),
        // In a process of its own.
        ("isolated", true, 6000),
        ("isolated", true, 12000),
    ];
    std::thread::scope(|scope| {
        for (handler, followed, ms) in runs {
            scope.spawn(move || {
                let case = format!("{handler}, followed by rmcp: {followed}, {ms} ms");
                let mut env = vec![("FIXTURE_GRACE_MS", "8000")];
                let handler = match handler {
                    "isolated" => {
                        env.push(("FIXTURE_ISOLATE", "1"));
                        "io"
                    }
                    handler => handler,
                };
                let mut server = session(handler, &env);
                let mut call = call_message(2, "fixture_sleep", json!({"ms": ms}));
                if followed {
                    call["params"]["_meta"] = json!({"progressToken": "p"});
                }
                server.send(&call);
                std::thread::sleep(Duration::from_millis(100));
                let start = Instant::now();
                let status = server
                    .close_and_wait(Duration::from_secs(20))
                    .unwrap_or_else(|| panic!("{case}: still running"));
                let took = start.elapsed();
                let mut answers = Vec::new();
                while let Some(message) = server.recv_within(Duration::from_millis(500)) {
                    answers.push(message);
                }
                let answers: Vec<&Value> = answers.iter().filter(|m| m["id"] == 2).collect();
                assert_eq!(answers.len(), 1, "{case}: {answers:?}\n{}", server.log());
                let said = text(&answers[0]["result"]);
                if ms < 8000 {
                    assert_eq!(said, "slept\n", "{case}");
                    assert!(status.success(), "{case}: {status}");
                    assert!(took < Duration::from_millis(ms + 2000), "{case}: {took:?}");
                } else {
                    assert!(said.contains("had not finished"), "{case}: {said}");
                    assert!(!status.success(), "{case}: {status}");
                    assert!(took < Duration::from_millis(10_000), "{case}: {took:?}");
                }
            });
        }
    });
}
