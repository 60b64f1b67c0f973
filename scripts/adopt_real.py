#!/usr/bin/env python3
"""Adopts real, published clap CLIs for real: each is fetched from the crate
registry at run time (nothing of theirs is kept in this repository), gets
`McpTool` added to its clap derive lists mechanically, is built against this
checkout, and runs `testing::assert_parity` and
`testing::assert_agrees_with_clap` on its root type.

    scripts/adopt_real.py                  # every CLI of scripts/adopt-real.list
    scripts/adopt_real.py fd-find zoxide   # only these
    scripts/adopt_real.py --ci             # the bounded CI subset (marked `ci`)

What is changed in the scratch copy, and nothing else:
- `Cargo.toml`: `mcp-bridge` (this checkout) as a dependency (and a build
  dependency, for a build script that includes the argument definitions;
  and a dev-dependency with the `testing` feature, for the checks),
  and an empty `[workspace]` so the copy builds on its own;
- every `#[derive(...)]` list holding clap's `Parser`, `Args` or
  `Subcommand` gets `mcp_bridge::McpTool`, and `Debug` when it has none
  (the agreement check compares values by their `Debug` text); a field
  type that still has no `Debug` gets a stub one in the file whose field
  names it, writing its name (so that field compares as equal);
- files of `mod x;` declarations the package left out (test modules) are
  created empty, and the crate's toolchain pin is overridden with the
  toolchain running this;
- the file declaring the root type gets a test module calling the two
  checks.

The results table (CLI, version, tools, compiled, parity, agreement) is
printed as Markdown, and written to `target/adopt-real/results.md`.
"""

import os
import re
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
MARK = "mcp_bridge_adoption"


def read_list():
    entries = []
    with open(LIST) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            crate, version, path, root = words[:4]
            options = dict(w.split("=", 1) if "=" in w else (w, "1") for w in words[4:])
            entries.append(
                {"crate": crate, "version": version, "path": path, "root": root, **options}
            )
    return entries


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


def add_derives(text):
    """`McpTool` (and `Debug`) added to every derive list with a clap derive."""
    out = []
    pos = 0
    changed = 0
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
        if not CLAP_DERIVES.search(inner) or "McpTool" in inner:
            continue
        extra = ", ::mcp_bridge::McpTool"
        if not re.search(r"\bDebug\b", attribute_block(text, m.start())):
            extra += ", Debug"
        out.append(text[pos:end].rstrip().rstrip(","))
        out.append(extra)
        pos = end
        changed += 1
    out.append(text[pos:])
    return "".join(out), changed


def adopt(entry):
    """Prepares the scratch copy; the number of derive lists changed."""
    src = fetch(entry["crate"], entry["version"])
    manifest = os.path.join(src, "Cargo.toml")
    with open(manifest) as f:
        cargo = f.read()
    if MARK not in cargo:
        bridge = os.path.join(ROOT, "mcp-bridge").replace("\\", "/")
        cargo += (
            f"\n# {MARK}: added by scripts/adopt_real.py\n"
            f'[dependencies.mcp-bridge]\npath = "{bridge}"\n'
            # The checks of its tests, as a CLI's README would have it.
            f'[dev-dependencies.mcp-bridge]\npath = "{bridge}"\nfeatures = ["testing"]\n'
        )
        # A build script that includes the argument definitions (for
        # completions or man pages) compiles them too.
        if os.path.exists(os.path.join(src, "build.rs")) or re.search(r"^build\s*=\s*\"", cargo, re.M):
            cargo += f'[build-dependencies.mcp-bridge]\npath = "{bridge}"\n'
        if not re.search(r"^\[workspace\]", cargo, re.M):
            cargo += "\n[workspace]\n"
        with open(manifest, "w") as f:
            f.write(cargo)
    changed = 0
    for directory, _, files in os.walk(os.path.join(src, "src")):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if MARK in text and "McpTool" in text:
                continue
            new, n = add_derives(text)
            if n:
                changed += n
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    root_file = os.path.join(src, entry["path"])
    with open(root_file, encoding="utf-8") as f:
        text = f.read()
    if f"mod {MARK}" not in text:
        text += f"""

#[cfg(test)]
mod {MARK} {{
    // Added by mcp-bridge's scripts/adopt_real.py.
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
    return src, changed


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
    src, changed = adopt(entry)
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
        "output": output,
    }
    m = re.search(r"MCP-ADOPT tools=(\d+)", output)
    if m:
        result["tools"] = m.group(1)
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
    entries = [
        e
        for e in read_list()
        if (not names or e["crate"] in names) and (not ci or "ci" in e)
    ]
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
        )
        failed |= not ok
        # The whole output, to read: WORK/<crate>.log.
        with open(os.path.join(WORK, f"{entry['crate']}.log"), "w") as f:
            f.write(result["output"])
        if not ok or os.environ.get("ADOPT_REAL_VERBOSE"):
            print(result["output"][-6000:])
        print(
            f"   compiled={result['compiled']} tools={result['tools']} parity={result['parity']} "
            f"agreement={result['agreement']}",
            flush=True,
        )
    table = [
        "| CLI | version | tools | compiled | parity | agreement |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        table.append(
            f"| {r['crate']} | {r['version']} | {r['tools']} | "
            f"{'yes' if r['compiled'] else 'no'} | {r['parity'] or '-'} | {r['agreement'] or '-'} |"
        )
    text = "\n".join(table) + "\n"
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "results.md"), "w") as f:
        f.write(text)
    print(text)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
