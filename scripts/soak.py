#!/usr/bin/env python3
"""A long run of one stdio server, its resident memory sampled
(docs/reliability.md, "Memory over a long run").

Serves the taskctl example over stdio from a scratch directory and sends
CALLS `tools/call`s of `taskctl_task_list`, BATCH at a time (all written,
then all answers read), every other one refused for a bad enum value
(`status: "nope"`). Every answer is checked (a result, or the refusal's
error result). The server's VmRSS (/proc/PID/status) is read after each
batch; printed at the checkpoints, with the slope after warm-up (the
first WARM calls) in bytes per call.

    cargo build --release -p examples --bin taskctl
    scripts/soak.py [target/release/taskctl] [CALLS] [BATCH]
"""

import json
import os
import subprocess
import sys
import tempfile
import time

WARM = 100_000


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/taskctl"
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    batch = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    scratch = tempfile.mkdtemp(prefix="soak-")
    server = subprocess.Popen(
        [os.path.abspath(binary), "mcp", "serve"], cwd=scratch,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )

    def send(messages):
        server.stdin.write("".join(json.dumps(m) + "\n" for m in messages).encode())
        server.stdin.flush()

    def answer():
        line = server.stdout.readline()
        if not line:
            raise SystemExit("the server closed stdout")
        return json.loads(line)

    send([{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "soak", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}])
    answer()
    good = {"name": "taskctl_task_list", "arguments": {"status": "todo"}}
    bad = {"name": "taskctl_task_list", "arguments": {"status": "nope"}}
    samples = []
    refused = 0
    started = time.monotonic()
    sent = 0
    while sent < calls:
        n = min(batch, calls - sent)
        send([{"jsonrpc": "2.0", "id": sent + i + 1, "method": "tools/call",
               "params": bad if (sent + i) % 2 else good} for i in range(n)])
        for _ in range(n):
            message = answer()
            result = message.get("result")
            if result is None:
                raise SystemExit(f"a protocol error: {message}")
            refused += bool(result.get("isError"))
        sent += n
        samples.append((sent, rss_kib(server.pid)))
    took = time.monotonic() - started
    server.stdin.close()
    server.wait(timeout=30)
    if refused != calls // 2:
        raise SystemExit(f"{refused} refused, expected {calls // 2}")

    checkpoints = {batch, 10_000, WARM} | set(range(200_000, calls + 1, 200_000)) | {calls}
    print(f"{calls} calls in {took:.1f} s ({calls / took:,.0f}/s), {refused} refused, all answered")
    print("| calls | RSS (MB) |\n| --- | --- |")
    for count, kib in samples:
        if count in checkpoints:
            print(f"| {count:,} | {kib / 1024:.1f} |")
    warm = [s for s in samples if s[0] >= WARM]
    if len(warm) >= 2:
        (c0, r0), (c1, r1) = warm[0], warm[-1]
        peak = max(r for _, r in warm)
        print(f"after {WARM:,} calls: {(r1 - r0) * 1024 / (c1 - c0):.2f} bytes per call, "
              f"{(r1 - r0) / 1024:+.1f} MB, peak {(peak - r0) / 1024:+.1f} MB over the warm RSS")


if __name__ == "__main__":
    main()
