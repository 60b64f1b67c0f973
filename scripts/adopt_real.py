#!/usr/bin/env python3
"""Adopts real, published clap CLIs for real: each is fetched from the crate
registry at run time (nothing of theirs is kept in this repository), adopted
by `cargo mcp-bridge adopt --path <this checkout>` (the product, built here
first), is built against this checkout, and runs `testing::assert_parity`
and `testing::assert_agrees_with_clap` on its root type.

    scripts/adopt_real.py                  # every CLI of scripts/adopt-real.list
    scripts/adopt_real.py fd-find zoxide   # only these
    scripts/adopt_real.py --ci             # the bounded CI subset (marked `ci`)

What `adopt` changes is the adoption: `McpTool` beside every clap derive,
the parse call in `main` replaced by `mcp_bridge::parse*`, the
dependencies, and its test module. What this script changes besides, in
the scratch copy only, is for its own checks:
- an empty `[workspace]` in `Cargo.toml`, so the copy builds on its own;
- `Debug` on each derive list holding a clap derive that has none (the
  agreement check compares values by their `Debug` text); a field type
  that still has no `Debug` gets a stub one in the file whose field names
  it, writing its name (so that field compares as equal);
- files of `mod x;` declarations the package left out (test modules) are
  created empty, and the crate's toolchain pin is overridden with the
  toolchain running this;
- the file declaring the root type gets a test module of its own, which
  prints the figures of the results table.

The results table (CLI, version, tools, compiled, parity, agreement) is
printed as Markdown, and written to `target/adopt-real/results.md`.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.environ.get("ADOPT_REAL_DIR", os.path.join(ROOT, "target", "adopt-real"))
LIST = os.path.join(ROOT, "scripts", "adopt-real.list")
CLAP_DERIVES = re.compile(r"\b(?:clap::)?(?:Parser|Args|Subcommand)\b")
DERIVE = re.compile(r"derive\s*\(")
MARK = "mcp_bridge_real_run"
TOOL = os.path.join(
    os.path.join(ROOT, os.environ["CARGO_TARGET_DIR"]) if "CARGO_TARGET_DIR" in os.environ else os.path.join(ROOT, "target"),
    "debug",
    "cargo-mcp-bridge",
)


def read_list():
    entries = []
    with open(LIST) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line or line.startswith("call "):
                continue
            words = line.split()
            crate, version, path, root = words[:4]
            options = dict(w.split("=", 1) if "=" in w else (w, "1") for w in words[4:])
            entries.append(
                {"crate": crate, "version": version, "path": path, "root": root, **options}
            )
    return entries


def read_calls():
    """The calls of each CLI, by crate: `call <crate> <tool> <JSON> :: <argv>`
    lines of the list (the tool and its JSON arguments, then the same
    command as its command line, without the binary's name)."""
    calls = {}
    with open(LIST) as f:
        for number, line in enumerate(f, 1):
            if not line.startswith("call "):
                continue
            _, crate, tool, rest = line.strip().split(None, 3)
            # ` ::` alone at the end: the command line has no words.
            arguments, argv = (rest + " ").split(" :: ", 1)
            try:
                arguments = json.loads(arguments)
            except ValueError as error:
                sys.exit(f"{LIST}:{number}: the arguments are not JSON: {error}")
            calls.setdefault(crate, []).append(
                {"tool": tool, "arguments": arguments, "argv": shlex.split(argv)}
            )
    return calls


# What the calls read and change: made afresh for each side.
INPUTS = {
    "a.txt": "hello world\nfoo bar baz\nhello again\n",
    "b.txt": "colour and color\nteh typo here\n",
    "words.txt": "apple\napricot\nbanana\n",
    "notes/c.md": "# Notes\n\nhello from the notes\n",
    "notes/deep/d.txt": "a deep file\n",
    # A package of no dependencies, for the cargo plugins (cargo-license,
    # cargo-mutants, cargo-llvm-lines, cargo-nextest).
    "tiny/Cargo.toml": '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n'
    'license = "MIT"\n\n[workspace]\n',
    "tiny/src/lib.rs": "pub fn double(x: u32) -> u32 {\n    x * 2\n}\n\n"
    "pub fn is_big(x: u32) -> bool {\n    x > 10\n}\n\n"
    "#[cfg(test)]\nmod tests {\n    #[test]\n    fn doubles() {\n"
    "        assert_eq!(super::double(2), 4);\n    }\n}\n",
    # Recipes for just.
    "justfile": '# Greets someone\ngreet name="world":\n    @echo "hello {{name}}"\n\n'
    "# Lists the notes\nnotes:\n    @ls notes\n",
    # An age identity made for these inputs (rage-keygen), and a line of
    # text encrypted to it (rage -a), for rage's decryption.
    "key.txt": "AGE-SECRET-KEY-1Q9KW0585UPD4C8AAM2FMKLS07NJP3U9U4F3YKUGGSE3QJ4CUE5WQWHH4D0\n",
    "secret.age": """-----BEGIN AGE ENCRYPTED FILE-----
YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOSBaOXlQNE5ZRkFHMXIxb2gv
NHpSYzZkdnNrSUFtSXhoQXZiWVN0MU95SG04CjVvM2RPNytUdDF0ZUkvRUt6ckRQ
dkVpOWFXbnNWUVcxWGI4aU9JMUlRVVEKLT4gUS1ncmVhc2UgaGJHWE5PCnNWVXB4
RU1ibzNFRU81elFicWdtM1hBL0lYRnlJbXM4YjkyeXdVK1J6ajI0Qks3ZzVYZ0F3
MnVqeDNyWC9Rb0EKVWEyYzFDSVlyNndJc280WFFMcnZRa3E5TURiUnIxN3BzUC9K
Mk9jdgotLS0gUXJvSkJyczFVTUplMWRxNDl0UnYvUkN3QzV6ejRKVnQ5K3BvRytP
Rk53MAqehuvj0ETmGc2oU+Cz8+gaiANa/dIUD4AqL9jExH/MJEpJARVWhZxf7eXZ
6fUu4wIfzr4=
-----END AGE ENCRYPTED FILE-----
""",
}


def make_inputs(directory):
    if os.path.isdir(directory):
        shutil.rmtree(directory)
    for name, text in INPUTS.items():
        path = os.path.join(directory, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    with open(os.path.join(directory, "data.bin"), "wb") as f:
        f.write(bytes(range(48)))


def tree(directory):
    """Every file under `directory` with its bytes."""
    found = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, directory)] = f.read()
    return found


def split_result(text):
    """A tool result's text as (stdout, exit code): stdout, then stderr
    under a `[stderr]` line, then a failure's `[exit code N]`."""
    code = 0
    m = re.search(r"\[exit code (-?\d+)\]$", text)
    if m:
        code = int(m.group(1))
        text = text[: m.start()]
    if text.startswith("[stderr]\n"):
        return "", code
    at = text.find("\n[stderr]\n")
    if at >= 0:
        text = text[: at + 1]
    return text, code


def python_sdk():
    """The Python SDK's interpreter (scripts/python-venv.sh makes it)."""
    if os.environ.get("MCP_BRIDGE_PYTHON"):
        return os.environ["MCP_BRIDGE_PYTHON"]
    made = subprocess.run(
        [os.path.join(ROOT, "scripts", "python-venv.sh")], capture_output=True, text=True, check=True
    )
    return made.stdout.strip().splitlines()[-1]


def run_calls(entry, calls, env):
    """Builds the CLI, runs each call's command line in one scratch folder
    and the call, through the Python SDK against `<bin> mcp serve`, in
    another: (equal, total, what differed). The outputs must be equal, and
    so must the folders afterwards."""
    features = ["--features", entry["features"]] if "features" in entry else []
    if "no-default-features" in entry:
        features.append("--no-default-features")
    name = entry.get("bin", entry["crate"])
    src = os.path.join(WORK, f"{entry['crate']}-{entry['version']}")
    built = subprocess.run(
        ["cargo", "build", "--bin", name, *features], cwd=src, env=env, capture_output=True, text=True
    )
    if built.returncode != 0:
        return 0, len(calls), ["the binary did not build:\n" + built.stderr[-3000:]]
    binary = os.path.join(env["CARGO_TARGET_DIR"], "debug", name)
    by_hand = os.path.join(WORK, f"{entry['crate']}-calls", "command-line")
    served = os.path.join(WORK, f"{entry['crate']}-calls", "mcp")
    make_inputs(by_hand)
    make_inputs(served)
    expected = []
    for call in calls:
        done = subprocess.run(
            [binary, *call["argv"]],
            cwd=by_hand,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=120,
        )
        expected.append((done.stdout.decode("utf-8", "replace"), done.returncode))
    listing = os.path.join(WORK, f"{entry['crate']}-calls", "calls.json")
    with open(listing, "w") as f:
        json.dump([{"tool": c["tool"], "arguments": c["arguments"]} for c in calls], f)
    client = subprocess.run(
        [
            python_sdk(),
            os.path.join(ROOT, "tests", "python", "calls_client.py"),
            "--cwd", served,
            "--calls", listing,
            "--log", os.path.join(WORK, f"{entry['crate']}-calls", "server.log"),
            "--", binary, "mcp", "serve",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [json.loads(line) for line in client.stdout.splitlines() if line.startswith("{")]
    results = [line for line in lines if "tool" in line]
    problems = []
    if not lines or "tools" not in lines[0]:
        problems.append("tools/list was not answered:\n" + client.stderr[-3000:])
    equal = 0
    for i, call in enumerate(calls):
        if i >= len(results):
            problems.append(f"{call['tool']}: no answer\n" + client.stderr[-2000:])
            continue
        # The bridge's own refusal of the arguments (a usage error, as
        # the command line's clap would give) never ran the CLI: a call
        # of the list must reach its `main`.
        if results[i]["isError"] and results[i]["text"].startswith(f"[stderr]\ntool `{call['tool']}`"):
            problems.append(
                f"{call['tool']} {json.dumps(call['arguments'])}: the bridge refused it, the CLI did not run: "
                f"{results[i]['text'][:800]!r}"
            )
            continue
        got = split_result(results[i]["text"])
        want = expected[i]
        same_out = got[0] == want[0] or (got[0] == want[0] + "\n" and not want[0].endswith("\n"))
        if same_out and got[1] == want[1]:
            equal += 1
        else:
            problems.append(
                f"{call['tool']} {json.dumps(call['arguments'])} against {shlex.join(call['argv'])}:\n"
                f"  call: exit {got[1]}, stdout {got[0][:800]!r}\n"
                f"  command line: exit {want[1]}, stdout {want[0][:800]!r}"
            )
    if tree(by_hand) != tree(served):
        problems.append("the folders differ after the calls")
    return equal, len(calls), problems


def fetch(crate, version):
    """The crate's published sources, unpacked afresh under WORK (the
    archive is downloaded once)."""
    target = os.path.join(WORK, f"{crate}-{version}")
    downloads = os.path.join(WORK, "crates")
    os.makedirs(downloads, exist_ok=True)
    archive = os.path.join(downloads, f"{crate}-{version}.crate")
    if not os.path.exists(archive):
        url = f"https://static.crates.io/crates/{crate}/{crate}-{version}.crate"
        urllib.request.urlretrieve(url, archive + ".part")
        os.rename(archive + ".part", archive)
    if os.path.isdir(target):
        shutil.rmtree(target)
    with tarfile.open(archive) as tar:
        tar.extractall(WORK, filter="data")
    return target


def close_paren(text, start):
    """The index of the `)` closing the `(` at `start`."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        elif c == '"':
            i = text.index('"', i + 1)
        i += 1
    raise ValueError("unbalanced derive list")


def attribute_block(text, at):
    """The attributes around `at`, up to the item they are on: from the
    end of the item before to the item's `struct` or `enum` keyword."""
    start = max(text.rfind(";", 0, at), text.rfind("}", 0, at)) + 1
    item = re.compile(r"\b(?:struct|enum)\s+\w+").search(text, at)
    end = item.start() if item else len(text)
    return text[start:end]


def add_debug(text):
    """`Debug` added to every derive list with a clap derive that has none
    (for the agreement check; `McpTool` is `cargo mcp-bridge adopt`'s)."""
    out = []
    pos = 0
    for m in DERIVE.finditer(text):
        if m.start() < pos:
            continue
        # Only inside an attribute: `#[derive(` or `#[cfg_attr(..., derive(`.
        line_start = text.rfind("\n", 0, m.start()) + 1
        if "#[" not in text[line_start : m.start()] and not text[line_start:].lstrip().startswith("#"):
            continue
        open_at = m.end() - 1
        end = close_paren(text, open_at)
        inner = text[open_at + 1 : end]
        if not CLAP_DERIVES.search(inner) or re.search(r"\bDebug\b", attribute_block(text, m.start())):
            continue
        out.append(text[pos:end].rstrip().rstrip(","))
        out.append(", Debug")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def build_tool():
    """`cargo mcp-bridge` of this checkout."""
    subprocess.run(
        ["cargo", "build", "-q", "-p", "mcp-bridge", "--features", "adopt", "--bin", "cargo-mcp-bridge"],
        cwd=ROOT,
        check=True,
    )


def adopt(entry):
    """Prepares the scratch copy: the number of derive lists `adopt`
    changed, and what it said."""
    src = fetch(entry["crate"], entry["version"])
    manifest = os.path.join(src, "Cargo.toml")
    with open(manifest) as f:
        cargo = f.read()
    if not re.search(r"^\[workspace\]", cargo, re.M):
        with open(manifest, "w") as f:
            f.write(cargo + "\n[workspace]\n")
    for directory, _, files in os.walk(os.path.join(src, "src")):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            new = add_debug(text)
            if new != text:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    done = subprocess.run(
        [TOOL, "mcp-bridge", "adopt", "--no-check", "--path", ROOT],
        cwd=src,
        capture_output=True,
        text=True,
    )
    said = done.stdout + done.stderr
    if done.returncode != 0:
        raise RuntimeError(f"cargo mcp-bridge adopt failed:\n{said}")
    m = re.search(r"McpTool added to (\d+) derive list", said)
    changed = int(m.group(1)) if m else 0
    root_file = os.path.join(src, entry["path"])
    with open(root_file, encoding="utf-8") as f:
        text = f.read()
    if f"mod {MARK}" not in text:
        text += f"""

#[cfg(test)]
mod {MARK} {{
    // Added by mcp-bridge's scripts/adopt_real.py (its figures).
    #[test]
    fn {MARK}_tools() {{
        let registry = ::mcp_bridge::Registry::<super::{entry['root']}>::new().unwrap();
        ::std::println!("MCP-ADOPT tools={{}}", registry.tools().len());
    }}

    #[test]
    fn {MARK}_parity() {{
        ::mcp_bridge::testing::assert_parity::<super::{entry['root']}>();
    }}

    #[test]
    fn {MARK}_agreement() {{
        let start = ::std::time::Instant::now();
        let report = ::mcp_bridge::testing::agreement::<super::{entry['root']}>();
        ::std::println!(
            "MCP-ADOPT compared={{}} unsayable={{}} disagreements={{}} kept={{}} seconds={{:.2}}",
            report.compared,
            report.unsayable,
            report.disagreements.len(),
            report.kept.len(),
            start.elapsed().as_secs_f64()
        );
        for (reason, cases) in report.kept_by_reason() {{
            ::std::println!("MCP-ADOPT kept {{cases}}: {{reason}}");
        }}
        ::std::assert!(report.disagreements.is_empty(), "{{}}", report.disagreements.join("\\n"));
    }}
}}
"""
        with open(root_file, "w", encoding="utf-8") as f:
            f.write(text)
    return src, changed, said


def missing_modules(output, src):
    """Creates the files of `mod x;` declarations the published crate left
    out (test modules are often excluded from a package): whether any."""
    created = False
    for m in re.finditer(r'to create the module `\w+`, create file "([^"]+)"', output):
        path = os.path.join(src, m.group(1))
        if not os.path.exists(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").close()
            created = True
    return created


def debug_stubs(output, src):
    """`Debug` for the field types that lack it (the agreement check
    compares values by their `Debug` text): a stub writing the type's name,
    so such a field always compares equal, written in the file whose field
    names the type (where its name as written is in scope). Whether any
    was added."""
    found = re.findall(r"`([\w:]+)` doesn't implement `Debug`\s*\n\s*--> ([^:\s]+):\d+", output)
    added = False
    for ty, file in sorted(set(found)):
        if ty.startswith(("std::", "core::", "alloc::")):
            continue
        path = os.path.join(src, file)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # rustc names it from the crate root (`cli::FileType`) when its
        # name alone is ambiguous; the file declaring the field has it by
        # its name.
        ty = ty.split("::")[-1]
        stub = f"impl ::std::fmt::Debug for {ty}"
        if stub in text:
            continue
        text += (
            f"\n// {MARK}: compared as equal (the type has no Debug)\n"
            f"{stub} {{\n"
            f"    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {{\n"
            f'        f.write_str("{ty}")\n'
            f"    }}\n}}\n"
        )
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        added = True
    return added


def run(entry):
    src, changed, said = adopt(entry)
    # The crate's own toolchain pin (`rust-toolchain.toml`) names a
    # toolchain this machine may not have: the one running this is used.
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(WORK, "target"))
    env.setdefault("RUSTUP_TOOLCHAIN", toolchain())
    env.setdefault("CARGO_PROFILE_DEV_DEBUG", "line-tables-only")
    env.setdefault("CARGO_INCREMENTAL", "0")
    # A CLI parser that panics (the check feeds it bad values) would have
    # each panic's backtrace resolved: seconds apiece in a large binary.
    env["RUST_BACKTRACE"] = "0"
    target = ["--lib"] if entry.get("target") == "lib" else ["--bin", entry.get("bin", entry["crate"])]
    features = ["--features", entry["features"]] if "features" in entry else []
    if "no-default-features" in entry:
        features.append("--no-default-features")
    command = ["cargo", "test", *target, *features, MARK, "--", "--nocapture", "--test-threads=1"]
    for _ in range(4):
        done = subprocess.run(command, cwd=src, env=env, capture_output=True, text=True)
        output = done.stdout + done.stderr
        if not (missing_modules(output, src) or debug_stubs(output, src)):
            break
    result = {
        "crate": entry["crate"],
        "version": entry["version"],
        "derives": changed,
        # Built (its dependencies' build scripts too) and run.
        "compiled": re.search(r"^\s*Running ", output, re.M) is not None,
        "tools": "",
        "parity": "",
        "agreement": "",
        "output": "== cargo mcp-bridge adopt\n" + said + "\n== cargo test\n" + output,
    }
    m = re.search(r"MCP-ADOPT tools=(\d+)", output)
    if m:
        result["tools"] = m.group(1)
    result["calls"] = ""
    calls = entry.get("calls")
    if calls and result["compiled"]:
        equal, total, problems = run_calls(entry, calls, env)
        result["calls"] = f"{equal}/{total} equal" + ("" if not problems or equal < total else ", folders differ")
        result["calls_ok"] = equal == total and not problems
        if problems:
            result["output"] += "\n== calls\n" + "\n".join(problems)
    failures = output.split("\nfailures:\n")[-1] if "\nfailures:\n" in output else ""
    for check in ("parity", "agreement"):
        name = f"{MARK}_{check}"
        if re.search(rf"^\s+\S*{name}$", failures, re.M):
            result[check] = "fails"
        elif re.search(rf"test \S*{name} \.\.\.", output):
            result[check] = "passes"
    m = re.search(
        r"MCP-ADOPT compared=(\d+) unsayable=(\d+) disagreements=(\d+) kept=(\d+) seconds=([\d.]+)",
        output,
    )
    if m:
        # The report lists 40 and counts the rest in its last line.
        more = re.search(r"\.\.\. and (\d+) more disagreements", output)
        total = int(m.group(3)) - (1 - int(more.group(1)) if more else 0)
        kept = f", {m.group(4)} as documented" if m.group(4) != "0" else ""
        result["agreement"] += f" ({m.group(1)} calls, {total} disagree{kept}, {m.group(5)} s)"
    return result


def toolchain():
    """The toolchain `cargo` runs with here (`rustup show active-toolchain`)."""
    try:
        shown = subprocess.run(
            ["rustup", "show", "active-toolchain"], capture_output=True, text=True, cwd=ROOT
        ).stdout
        return shown.split()[0] if shown.strip() else "stable"
    except OSError:
        return "stable"


def main():
    args = sys.argv[1:]
    unknown = [a for a in args if a.startswith("-") and a != "--ci"]
    if unknown:
        # `--help` included: a mistyped flag must not start the whole run.
        print(__doc__.split("\n\n")[1] if unknown != ["--help"] else __doc__)
        sys.exit(0 if unknown in (["--help"], ["-h"]) else 2)
    ci = "--ci" in args
    names = [a for a in args if not a.startswith("--")]
    calls = read_calls()
    entries = [
        dict(e, calls=calls.get(e["crate"], []))
        for e in read_list()
        if (not names or e["crate"] in names) and (not ci or "ci" in e)
    ]
    build_tool()
    rows = []
    failed = False
    for entry in entries:
        print(f"== {entry['crate']} {entry['version']}", flush=True)
        result = run(entry)
        rows.append(result)
        ok = (
            result["compiled"]
            and result["parity"] == "passes"
            and result["agreement"].startswith("passes")
            and result.get("calls_ok", True)
        )
        failed |= not ok
        # The whole output, to read: WORK/<crate>.log.
        with open(os.path.join(WORK, f"{entry['crate']}.log"), "w") as f:
            f.write(result["output"])
        if not ok or os.environ.get("ADOPT_REAL_VERBOSE"):
            print(result["output"][-6000:])
        print(
            f"   compiled={result['compiled']} tools={result['tools']} parity={result['parity']} "
            f"agreement={result['agreement']} calls={result['calls'] or '-'}",
            flush=True,
        )
    table = [
        "| CLI | version | tools | compiled | parity | agreement | calls over MCP |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        table.append(
            f"| {r['crate']} | {r['version']} | {r['tools']} | "
            f"{'yes' if r['compiled'] else 'no'} | {r['parity'] or '-'} | {r['agreement'] or '-'} | "
            f"{r['calls'] or '-'} |"
        )
    text = "\n".join(table) + "\n"
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "results.md"), "w") as f:
        f.write(text)
    print(text)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
