#!/usr/bin/env python3
"""Round trips of a trivial `tools/call` from a Python client (docs/benchmarks.md).

The stdio benchmark's client is Rust and does nothing between a response
and the next request; this one does what an SDK-based client does per
message (`json.dumps`, a line read, `json.loads`), so the servers are seen
from a slower client. Runs the one-command servers of the benchmark
(`narrow mcp serve` and the hand-written `narrow_rmcp --pipes`), ROUNDS
times each, alternating, with CALLS calls per run, each after a pause of
GAP_US µs (0: back to back); prints the median, p90 and p99 of each run,
the first fifth of the calls left out.

    cargo build --release -p bench-bins
    scripts/call-latency.py [target/release] [GAP_US] [CALLS] [ROUNDS]
"""

import json
import os
import subprocess
import sys
import time


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run(command, gap_us, calls):
    server = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )

    def send(message):
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    def receive():
        line = server.stdout.readline()
        if not line:
            raise SystemExit(f"{command[0]} closed its output")
        return json.loads(line)

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "call-latency", "version": "0"}}})
    receive()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
    name = receive()["result"]["tools"][0]["name"]
    times = []
    for i in range(calls):
        if gap_us:
            time.sleep(gap_us / 1e6)
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "id": i + 2, "method": "tools/call",
              "params": {"name": name, "arguments": {"name": "Ann", "count": 2}}})
        answer = receive()
        times.append((time.perf_counter() - start) * 1e6)
        if "result" not in answer or answer["result"].get("isError"):
            raise SystemExit(f"{command[0]}: not a successful call: {answer}")
    server.stdin.close()
    server.wait(timeout=10)
    return times[calls // 5:]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "target/release"
    gap_us = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 1500
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    servers = [
        ("mcp-bridge", [os.path.join(folder, "narrow"), "mcp", "serve"]),
        ("rmcp stdio_pipes()", [os.path.join(folder, "narrow_rmcp"), "--pipes"]),
    ]
    print(f"{calls} calls per run, each after {gap_us} µs; µs")
    for _ in range(rounds):
        for label, command in servers:
            times = run(command, gap_us, calls)
            print(f"  {label:20} median {percentile(times, 50):7.1f}"
                  f"  p90 {percentile(times, 90):7.1f}  p99 {percentile(times, 99):7.1f}")


if __name__ == "__main__":
    main()
