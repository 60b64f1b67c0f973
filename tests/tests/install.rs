//! `taskctl mcp install <client>` and `uninstall`, in temporary homes and
//! projects: each client's file written where it documents it, other
//! entries kept, malformed files refused untouched, `--dry-run`,
//! `--print`, the environment and pinned options recorded; and `mcp
//! server-json`, the entry for the MCP Registry.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

struct Homes {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

fn homes() -> Homes {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    Homes {
        _dir: dir,
        home,
        project,
    }
}

fn taskctl(homes: &Homes, args: &[&str]) -> Output {
    Command::new(common::taskctl())
        .args(args)
        .current_dir(&homes.project)
        .env("HOME", &homes.home)
        .env_remove("XDG_CONFIG_HOME")
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .output()
        .unwrap()
}

fn ok(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Each client, the file it reads, and where the servers sit in it.
fn clients(homes: &Homes) -> Vec<(&'static str, PathBuf, &'static str)> {
    let config = if cfg!(target_os = "macos") {
        homes.home.join("Library/Application Support")
    } else {
        homes.home.join(".config")
    };
    let zed = if cfg!(target_os = "macos") {
        homes.home.join(".config/zed")
    } else {
        config.join("zed")
    };
    vec![
        (
            "claude-desktop",
            config.join("Claude/claude_desktop_config.json"),
            "mcpServers",
        ),
        ("claude-code", homes.project.join(".mcp.json"), "mcpServers"),
        ("cursor", homes.home.join(".cursor/mcp.json"), "mcpServers"),
        ("vscode", homes.project.join(".vscode/mcp.json"), "servers"),
        ("zed", zed.join("settings.json"), "context_servers"),
    ]
}

#[test]
fn each_client_gets_its_entry_where_it_reads_it() {
    let homes = homes();
    let taskctl_path = common::taskctl().canonicalize().unwrap();
    for (client, path, key) in clients(&homes) {
        let output = taskctl(&homes, &["mcp", "install", client]);
        ok(&output);
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("added `taskctl`"),
            "{client}"
        );
        let entry = &read(&path)[key]["taskctl"];
        assert_eq!(entry["command"], taskctl_path.to_str().unwrap(), "{client}");
        assert_eq!(entry["args"], json!(["mcp", "serve"]), "{client}");
        assert_eq!(
            entry["env"]["PATH"], "/usr/local/bin:/usr/bin:/bin",
            "{client}: the PATH is recorded"
        );
        match client {
            "vscode" => assert_eq!(entry["type"], "stdio"),
            "zed" => assert_eq!(entry["source"], "custom"),
            _ => assert!(entry.get("type").is_none(), "{client}"),
        }
        // Again: the entry is updated, not doubled, and the old file kept.
        let again = taskctl(&homes, &["mcp", "install", client]);
        ok(&again);
        assert!(String::from_utf8_lossy(&again.stderr).contains("updated `taskctl`"));
        assert_eq!(read(&path)[key].as_object().unwrap().len(), 1);
        let mut backup = path.clone().into_os_string();
        backup.push(".bak");
        assert!(Path::new(&backup).exists(), "{client}: no backup");

        ok(&taskctl(&homes, &["mcp", "uninstall", client]));
        assert_eq!(read(&path)[key], json!({}), "{client}");
    }
}

#[test]
fn the_users_other_entries_are_kept() {
    let homes = homes();
    let path = homes.home.join(".cursor/mcp.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mine = json!({
        "mcpServers": {
            "github": {"command": "gh-mcp", "args": ["--stdio"], "env": {"TOKEN": "x"}},
            "notes": {"url": "https://notes.example/mcp"}
        },
        "someOtherSetting": [1, 2.5, "three", null, {"deep": true}]
    });
    std::fs::write(&path, serde_json::to_string_pretty(&mine).unwrap()).unwrap();
    ok(&taskctl(
        &homes,
        &["mcp", "install", "cursor", "--name", "tasks"],
    ));
    let after = read(&path);
    assert_eq!(after["someOtherSetting"], mine["someOtherSetting"]);
    assert_eq!(after["mcpServers"]["github"], mine["mcpServers"]["github"]);
    assert_eq!(after["mcpServers"]["notes"], mine["mcpServers"]["notes"]);
    let names: Vec<&String> = after["mcpServers"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["github", "notes", "tasks"]);
    ok(&taskctl(
        &homes,
        &["mcp", "uninstall", "cursor", "--name", "tasks"],
    ));
    assert_eq!(read(&path), mine);
}

#[test]
fn a_file_that_cannot_be_parsed_is_left_untouched_with_the_entry_to_add() {
    let homes = homes();
    let path = homes.project.join(".mcp.json");
    for bad in [
        "{\"mcpServers\": {\n  // mine\n  \"a\": {}\n}}\n",
        "{\"mcpServers\": [1, 2]}",
        "[\"not an object\"]",
        "{\"mcpServers\": {\"a\": ",
    ] {
        std::fs::write(&path, bad).unwrap();
        let output = taskctl(&homes, &["mcp", "install", "claude-code"]);
        assert!(!output.status.success(), "{bad}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(".mcp.json"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), bad, "changed");
        if bad.contains("//") {
            assert!(stderr.contains("comments are not JSON"), "{stderr}");
            assert!(stderr.contains("add this entry to it by hand"), "{stderr}");
            assert!(stderr.contains("\"mcpServers\""), "{stderr}");
        }
    }
    let output = taskctl(&homes, &["mcp", "uninstall", "cursor"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no server named `taskctl`"));
}

#[test]
fn dry_run_prints_the_diff_and_print_the_entry_writing_nothing() {
    let homes = homes();
    let path = homes.project.join(".vscode/mcp.json");
    let diff = ok(&taskctl(
        &homes,
        &["mcp", "install", "vscode", "--dry-run", "--no-path"],
    ));
    assert!(!path.exists(), "a dry run wrote the file");
    assert!(diff.contains("+++ "), "{diff}");
    assert!(diff.contains("+  \"servers\": {"), "{diff}");
    assert!(!diff.contains("PATH"), "{diff}");
    let snippet = ok(&taskctl(
        &homes,
        &[
            "mcp",
            "install",
            "zed",
            "--print",
            "--env",
            "TASKS_COLOR=never",
        ],
    ));
    let snippet: Value = serde_json::from_str(&snippet).unwrap();
    assert_eq!(
        snippet["context_servers"]["taskctl"]["env"]["TASKS_COLOR"],
        "never"
    );
    assert!(!clients(&homes)[4].1.exists(), "--print wrote the file");
    let bad = taskctl(&homes, &["mcp", "install", "zed", "--env", "NOEQUALS"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected KEY=VALUE"));
}

#[test]
fn pinned_options_and_serve_options_are_recorded() {
    let homes = homes();
    ok(&taskctl(
        &homes,
        &[
            "--db",
            "tasks-here.json",
            "-vv",
            "mcp",
            "install",
            "claude-code",
            "--",
            "--include",
            "taskctl_task_*",
        ],
    ));
    let entry = &read(&homes.project.join(".mcp.json"))["mcpServers"]["taskctl"];
    let project = homes
        .project
        .canonicalize()
        .unwrap_or(homes.project.clone());
    let args: Vec<&str> = entry["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(&args[..4], ["mcp", "serve", "--include", "taskctl_task_*"]);
    assert_eq!(args[4], "--cwd");
    assert!(
        Path::new(args[5]) == homes.project || Path::new(args[5]) == project,
        "{args:?}"
    );
    assert_eq!(
        &args[6..],
        ["--", "--db", "tasks-here.json", "--verbose", "--verbose"]
    );
    // What the client will run, run as it would (from elsewhere): the
    // selected tools, `db` fixed, and the task file where it was meant.
    let mut cmd = Command::new(entry["command"].as_str().unwrap());
    cmd.args(&args).current_dir(&homes.home);
    let mut server = common::raw::RawServer::spawn(cmd);
    server.initialize();
    assert_eq!(
        server.tools_list(1),
        [
            "taskctl_task_add",
            "taskctl_task_list",
            "taskctl_task_done",
            "taskctl_task_remove"
        ]
    );
    let added = server.call(2, "taskctl_task_add", json!({"title": "from the client"}));
    assert_eq!(added["isError"], false, "{added}");
    server.finish();
    assert!(homes.project.join("tasks-here.json").exists());
}

#[test]
fn server_json_describes_the_cargo_package_served_over_stdio() {
    let homes = homes();
    // The example's package names no repository: the name must be given.
    let output = taskctl(&homes, &["mcp", "server-json"]);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("--name"), "{said}");
    assert!(output.stdout.is_empty());
    let file = homes.project.join("server.json");
    let output = taskctl(
        &homes,
        &[
            "mcp",
            "server-json",
            "--name",
            "io.github.acme/taskctl",
            "-o",
        ],
    );
    assert!(!output.status.success(), "-o takes a file");
    let output = Command::new(common::taskctl())
        .args([
            "mcp",
            "server-json",
            "--name",
            "io.github.acme/taskctl",
            "-o",
        ])
        .arg(&file)
        .output()
        .unwrap();
    ok(&output);
    // The binary is not named after the package: said.
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("the package `examples`"), "{said}");
    let server = read(&file);
    assert_eq!(
        server["$schema"],
        "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
    );
    assert_eq!(server["name"], "io.github.acme/taskctl");
    assert_eq!(server["version"], env!("CARGO_PKG_VERSION"));
    // No package description: the CLI's own.
    assert_eq!(
        server["description"],
        "Keep a small task list in a JSON file"
    );
    assert_eq!(
        server["packages"],
        json!([{
            "registryType": "cargo",
            "registryBaseUrl": "https://crates.io",
            "identifier": "examples",
            "version": env!("CARGO_PKG_VERSION"),
            "transport": {"type": "stdio"},
            "packageArguments": [
                {"type": "positional", "value": "mcp"},
                {"type": "positional", "value": "serve"},
            ],
        }])
    );
}
