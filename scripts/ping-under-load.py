#!/usr/bin/env python3
"""How long `ping` takes while slow calls are in flight (docs/benchmarks.md).

Serves the fixture CLI (tests/src/bin/fixture_cli.rs) over stdio, starts N
calls of `sleep` (each far longer than the measurement), then sends PINGS
pings one at a time and times each round trip. Prints the median, p90, p99
and max, for N = 0 and N = the given counts, for each handler kind.

    cargo build -p tests --bin fixture_cli
    scripts/ping-under-load.py [target/debug/fixture_cli] [N ...]
"""

import json
import os
import subprocess
import sys
import time

PINGS = 500
SLEEP_MS = 60_000


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def measure(binary, handler, slow_calls):
    env = dict(os.environ, FIXTURE_HANDLER=handler, FIXTURE_BRIDGE_NAME="ai", FIXTURE_GRACE_MS="100")
    server = subprocess.Popen(
        [binary, "ai", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env=env, bufsize=0,
    )

    def send(message):
        server.stdin.write((json.dumps(message) + "\n").encode())

    def receive(wanted):
        while True:
            line = server.stdout.readline()
            if not line:
                raise SystemExit("the server closed stdout")
            message = json.loads(line)
            if message.get("id") == wanted:
                return message

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "ping-under-load", "version": "1"}}})
    receive(0)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for i in range(slow_calls):
        send({"jsonrpc": "2.0", "id": f"slow-{i}", "method": "tools/call",
              "params": {"name": "fixture_sleep", "arguments": {"ms": SLEEP_MS}}})
    time.sleep(0.2)
    times = []
    for i in range(PINGS):
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "id": i + 1, "method": "ping"})
        receive(i + 1)
        times.append((time.perf_counter() - start) * 1e6)
    server.kill()
    server.wait()
    return times


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/debug/fixture_cli"
    counts = [int(n) for n in sys.argv[2:]] or [4, 16]
    print(f"{PINGS} pings each; slow calls sleep {SLEEP_MS} ms; round trip in µs")
    print(f"{'handler':<8} {'slow calls':>10} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8}")
    for handler in ["io", "plain", "async"]:
        for slow in [0] + counts:
            times = measure(binary, handler, slow)
            print(f"{handler:<8} {slow:>10} {percentile(times, 50):>8.0f} {percentile(times, 90):>8.0f} "
                  f"{percentile(times, 99):>8.0f} {max(times):>8.0f}")


if __name__ == "__main__":
    main()
