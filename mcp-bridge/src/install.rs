//! `mcp install <client>` / `mcp uninstall <client>`: the server's entry in
//! the configuration file of an MCP client, merged into what is there —
//! parsed, changed, written atomically after a backup — or refused, with
//! the reason and the entry to add by hand, when the file cannot be parsed.

use std::path::{Path, PathBuf};

use crate::ordered::{Json, Object};

/// The clients whose configuration `mcp install` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Client {
    /// Claude Desktop (`claude_desktop_config.json`).
    ClaudeDesktop,
    /// Claude Code (`.mcp.json` in the project, or `~/.claude.json`).
    ClaudeCode,
    /// Cursor (`~/.cursor/mcp.json`, or `.cursor/mcp.json`).
    Cursor,
    /// VS Code (`.vscode/mcp.json`, or the user's `mcp.json`).
    Vscode,
    /// Zed (`settings.json`, `context_servers`).
    Zed,
}

/// Where the entry goes: the user's configuration, or the project's (the
/// current directory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Scope {
    User,
    Project,
}

impl Client {
    /// The scope used when none is given: where each client's own
    /// documentation puts servers first.
    pub(crate) fn default_scope(self) -> Scope {
        match self {
            Client::ClaudeCode | Client::Vscode => Scope::Project,
            Client::ClaudeDesktop | Client::Cursor | Client::Zed => Scope::User,
        }
    }

    /// The key of the object holding the servers.
    fn servers_key(self) -> &'static str {
        match self {
            Client::ClaudeDesktop | Client::ClaudeCode | Client::Cursor => "mcpServers",
            Client::Vscode => "servers",
            Client::Zed => "context_servers",
        }
    }

    /// The configuration file for `scope`, under `home` (the user's) or
    /// `project` (the current directory).
    pub(crate) fn config_path(
        self,
        scope: Scope,
        home: &Path,
        project: &Path,
    ) -> Result<PathBuf, String> {
        self.config_path_on(&Platform::current(), scope, home, project)
    }

    /// [`config_path`](Self::config_path) on `platform`.
    fn config_path_on(
        self,
        platform: &Platform,
        scope: Scope,
        home: &Path,
        project: &Path,
    ) -> Result<PathBuf, String> {
        let config = platform.config_dir(home);
        let path = match (self, scope) {
            (Client::ClaudeDesktop, Scope::User) => {
                config.join("Claude/claude_desktop_config.json")
            }
            (Client::ClaudeCode, Scope::User) => home.join(".claude.json"),
            (Client::ClaudeCode, Scope::Project) => project.join(".mcp.json"),
            (Client::Cursor, Scope::User) => home.join(".cursor/mcp.json"),
            (Client::Cursor, Scope::Project) => project.join(".cursor/mcp.json"),
            (Client::Vscode, Scope::User) => config.join(vscode_user_dir()).join("mcp.json"),
            (Client::Vscode, Scope::Project) => project.join(".vscode/mcp.json"),
            (Client::Zed, Scope::User) => platform.zed_dir(home).join("settings.json"),
            (Client::Zed, Scope::Project) => project.join(".zed/settings.json"),
            (Client::ClaudeDesktop, Scope::Project) => {
                return Err("Claude Desktop has no project configuration; use --scope user".into())
            }
        };
        Ok(path)
    }

    /// The entry for a stdio server.
    fn entry(self, server: &ServerEntry) -> Json {
        let mut entry = Object::new();
        match self {
            Client::Vscode => {
                entry.insert("type", "stdio");
            }
            Client::Zed => {
                entry.insert("source", "custom");
            }
            _ => {}
        }
        entry.insert("command", server.command.clone());
        entry.insert("args", server.args.clone());
        if !server.env.is_empty() {
            let mut env = Object::new();
            for (key, value) in &server.env {
                env.insert(key.clone(), value.clone());
            }
            entry.insert("env", env);
        }
        Json::Object(entry)
    }
}

/// The operating system, and the variables that move its configuration
/// directory: what the clients' files depend on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Platform {
    os: Os,
    /// `%APPDATA%` (Windows).
    appdata: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME` (Linux and the other Unixes).
    xdg_config_home: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Os {
    Macos,
    Windows,
    /// Linux and the other Unixes (the XDG directories).
    Other,
}

impl Platform {
    /// This machine.
    fn current() -> Self {
        Self {
            os: if cfg!(target_os = "macos") {
                Os::Macos
            } else if cfg!(windows) {
                Os::Windows
            } else {
                Os::Other
            },
            appdata: std::env::var_os("APPDATA").map(PathBuf::from),
            xdg_config_home: std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from),
        }
    }

    /// Where per-user configuration lives (`~/Library/Application
    /// Support`, `%APPDATA%`, `$XDG_CONFIG_HOME` or `~/.config`).
    fn config_dir(&self, home: &Path) -> PathBuf {
        match self.os {
            Os::Macos => home.join("Library/Application Support"),
            Os::Windows => self
                .appdata
                .clone()
                .unwrap_or_else(|| home.join("AppData/Roaming")),
            Os::Other => self
                .xdg_config_home
                .clone()
                .filter(|dir| dir.is_absolute())
                .unwrap_or_else(|| home.join(".config")),
        }
    }

    /// Zed's directory: `%APPDATA%\Zed` on Windows, `~/.config/zed` on
    /// macOS too.
    fn zed_dir(&self, home: &Path) -> PathBuf {
        match self.os {
            Os::Windows => self.config_dir(home).join("Zed"),
            Os::Macos => home.join(".config/zed"),
            Os::Other => self.config_dir(home).join("zed"),
        }
    }
}

fn vscode_user_dir() -> &'static str {
    "Code/User"
}

/// The server a client starts.
#[derive(Debug, Clone)]
pub(crate) struct ServerEntry {
    pub(crate) name: String,
    /// The absolute path of the binary.
    pub(crate) command: String,
    pub(crate) args: Vec<String>,
    pub(crate) env: Vec<(String, String)>,
}

/// What an install or uninstall would do to one file.
#[derive(Debug)]
pub(crate) struct Change {
    pub(crate) path: PathBuf,
    /// The file's text before (`None`: no file).
    pub(crate) before: Option<String>,
    pub(crate) after: String,
    /// Whether an entry of that name was there.
    pub(crate) replaced: bool,
}

impl Change {
    /// A unified diff of the change.
    pub(crate) fn diff(&self) -> String {
        let before = self.before.as_deref().unwrap_or("");
        let path = self.path.display().to_string();
        similar::TextDiff::from_lines(before, &self.after)
            .unified_diff()
            .header(&path, &path)
            .to_string()
    }

    /// Writes the new text atomically, after copying the old one to
    /// `<file>.bak`.
    pub(crate) fn write(&self) -> Result<(), String> {
        let fail =
            |what: &str, error: std::io::Error| format!("{}: {what}: {error}", self.path.display());
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| fail("cannot create its folder", e))?;
        }
        if self.before.is_some() {
            let mut backup = self.path.clone().into_os_string();
            backup.push(".bak");
            std::fs::copy(&self.path, &backup).map_err(|e| fail("cannot back it up", e))?;
        }
        let mut temp = self.path.clone().into_os_string();
        temp.push(format!(".tmp{}", std::process::id()));
        let temp = PathBuf::from(temp);
        let written = (|| {
            use std::io::Write;
            let mut file = std::fs::File::create(&temp)?;
            file.write_all(self.after.as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&temp, &self.path)
        })();
        if let Err(error) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(fail("cannot write it", error));
        }
        Ok(())
    }
}

/// The JSON snippet of the entry, as it sits in the client's file.
pub(crate) fn snippet(client: Client, server: &ServerEntry) -> String {
    let mut servers = Object::new();
    servers.insert(server.name.clone(), client.entry(server));
    let mut root = Object::new();
    root.insert(client.servers_key(), servers);
    pretty(&Json::Object(root))
}

/// Adds (or replaces) `server` in the file at `path`.
pub(crate) fn install(client: Client, path: &Path, server: &ServerEntry) -> Result<Change, String> {
    let before = read(path)?;
    let mut root = parse(client, path, before.as_deref(), server)?;
    let servers = servers_of(client, path, &mut root)?;
    let replaced = servers
        .insert(server.name.clone(), client.entry(server))
        .is_some();
    Ok(Change {
        path: path.to_owned(),
        before,
        after: pretty(&root),
        replaced,
    })
}

/// Removes the entry `name` from the file at `path`.
pub(crate) fn uninstall(client: Client, path: &Path, name: &str) -> Result<Change, String> {
    let before = read(path)?;
    let missing = || format!("{}: no server named `{name}` to remove", path.display());
    if before.is_none() {
        return Err(missing());
    }
    let mut root = parse_existing(path, before.as_deref().unwrap_or(""))?;
    let servers = servers_of(client, path, &mut root)?;
    if servers.remove(name).is_none() {
        return Err(missing());
    }
    Ok(Change {
        path: path.to_owned(),
        before,
        after: pretty(&root),
        replaced: true,
    })
}

fn read(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(format!("{}: cannot read it: {error}", path.display())),
    }
}

/// The file's JSON object (an empty one for no file or an empty file);
/// a file that is not a JSON object is refused with the entry to add by
/// hand.
fn parse(
    client: Client,
    path: &Path,
    text: Option<&str>,
    server: &ServerEntry,
) -> Result<Json, String> {
    match text {
        None => Ok(Json::Object(Object::new())),
        Some(text) if text.trim().is_empty() => Ok(Json::Object(Object::new())),
        Some(text) => parse_existing(path, text).map_err(|error| {
            format!(
                "{error}\nNothing was changed. Fix the file, or add this entry to it by hand:\n{}",
                snippet(client, server)
            )
        }),
    }
}

fn parse_existing(path: &Path, text: &str) -> Result<Json, String> {
    let value: Json = serde_json::from_str(text).map_err(|error| {
        let comments = if text.contains("//") || text.contains("/*") {
            " (comments are not JSON: a file with comments is left to be edited by hand)"
        } else {
            ""
        };
        format!(
            "{}: cannot parse it as JSON (line {}, column {}: {error}){comments}",
            path.display(),
            error.line(),
            error.column()
        )
    })?;
    if !matches!(value, Json::Object(_)) {
        return Err(format!(
            "{}: expected a JSON object at the top, found {}",
            path.display(),
            value.kind()
        ));
    }
    Ok(value)
}

/// The object holding the servers, created when missing.
fn servers_of<'v>(
    client: Client,
    path: &Path,
    root: &'v mut Json,
) -> Result<&'v mut Object, String> {
    let key = client.servers_key();
    let Json::Object(root) = root else {
        unreachable!("checked to be an object")
    };
    match root.get_or_insert_with(key, || Json::Object(Object::new())) {
        Json::Object(servers) => Ok(servers),
        other => Err(format!(
            "{}: `{key}` should be a JSON object of servers, found {}; nothing was changed",
            path.display(),
            other.kind()
        )),
    }
}

/// Two-space indentation and a final newline, as the clients write.
fn pretty(value: &Json) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each client's user file on each system, as its documentation gives
    /// it; project files are the same everywhere.
    #[test]
    fn config_paths_on_each_system() {
        let home = Path::new("/home/ann");
        let project = Path::new("/work/app");
        let on = |os, appdata: Option<&str>, xdg: Option<&str>| Platform {
            os,
            appdata: appdata.map(PathBuf::from),
            xdg_config_home: xdg.map(PathBuf::from),
        };
        let user = |platform: &Platform, client: Client| {
            client
                .config_path_on(platform, Scope::User, home, project)
                .unwrap()
        };
        let mac = on(Os::Macos, None, None);
        let support = "/home/ann/Library/Application Support";
        assert_eq!(
            user(&mac, Client::ClaudeDesktop),
            Path::new(support).join("Claude/claude_desktop_config.json")
        );
        assert_eq!(
            user(&mac, Client::Vscode),
            Path::new(support).join("Code/User/mcp.json")
        );
        assert_eq!(
            user(&mac, Client::Zed),
            home.join(".config/zed/settings.json")
        );
        let windows = on(Os::Windows, Some("C:/Users/ann/AppData/Roaming"), None);
        let roaming = Path::new("C:/Users/ann/AppData/Roaming");
        assert_eq!(
            user(&windows, Client::ClaudeDesktop),
            roaming.join("Claude/claude_desktop_config.json")
        );
        assert_eq!(
            user(&windows, Client::Vscode),
            roaming.join("Code/User/mcp.json")
        );
        assert_eq!(
            user(&windows, Client::Zed),
            roaming.join("Zed/settings.json")
        );
        let no_appdata = on(Os::Windows, None, None);
        assert_eq!(
            user(&no_appdata, Client::Zed),
            home.join("AppData/Roaming/Zed/settings.json")
        );
        let linux = on(Os::Other, None, Some("/xdg"));
        assert_eq!(
            user(&linux, Client::ClaudeDesktop),
            Path::new("/xdg/Claude/claude_desktop_config.json")
        );
        assert_eq!(
            user(&linux, Client::Zed),
            Path::new("/xdg/zed/settings.json")
        );
        // A relative XDG_CONFIG_HOME is ignored, as the XDG spec says.
        let relative = on(Os::Other, None, Some("xdg"));
        assert_eq!(
            user(&relative, Client::Vscode),
            home.join(".config/Code/User/mcp.json")
        );
        for platform in [&mac, &windows, &linux] {
            assert_eq!(
                user(platform, Client::ClaudeCode),
                home.join(".claude.json")
            );
            assert_eq!(
                user(platform, Client::Cursor),
                home.join(".cursor/mcp.json")
            );
            let project_file = |client: Client| {
                client
                    .config_path_on(platform, Scope::Project, home, project)
                    .unwrap()
            };
            assert_eq!(project_file(Client::ClaudeCode), project.join(".mcp.json"));
            assert_eq!(
                project_file(Client::Vscode),
                project.join(".vscode/mcp.json")
            );
            assert_eq!(
                project_file(Client::Zed),
                project.join(".zed/settings.json")
            );
            assert!(Client::ClaudeDesktop
                .config_path_on(platform, Scope::Project, home, project)
                .is_err());
        }
    }

    fn server() -> ServerEntry {
        ServerEntry {
            name: "taskctl".into(),
            command: "/opt/bin/taskctl".into(),
            args: vec!["mcp".into(), "serve".into()],
            env: vec![("PATH".into(), "/usr/bin".into())],
        }
    }

    #[test]
    fn other_entries_and_keys_are_kept_in_order() {
        let dir = tempfile_dir();
        let path = dir.join("mcp.json");
        let before = r#"{"theme": "dark", "mcpServers": {"other": {"command": "x", "args": [], "extra": [1, 2.5, null]}}, "z": true}"#;
        std::fs::write(&path, before).unwrap();
        let change = install(Client::Cursor, &path, &server()).unwrap();
        assert!(!change.replaced);
        // Every key where it was, the new entry last in its object.
        let expected = r#"{
  "theme": "dark",
  "mcpServers": {
    "other": {
      "command": "x",
      "args": [],
      "extra": [
        1,
        2.5,
        null
      ]
    },
    "taskctl": {
      "command": "/opt/bin/taskctl",
      "args": [
        "mcp",
        "serve"
      ],
      "env": {
        "PATH": "/usr/bin"
      }
    }
  },
  "z": true
}
"#;
        assert_eq!(change.after, expected);
        // Replaced in its place; removed without moving the others.
        std::fs::write(&path, &change.after).unwrap();
        let again = install(Client::Cursor, &path, &server()).unwrap();
        assert!(again.replaced);
        assert_eq!(again.after, expected);
        let removed = uninstall(Client::Cursor, &path, "other").unwrap();
        let at = |key: &str| removed.after.find(key).unwrap();
        assert!(at("\"theme\"") < at("\"mcpServers\"") && at("\"mcpServers\"") < at("\"z\""));
        assert!(!removed.after.contains("\"other\""));
        let _ = std::fs::remove_dir_all(dir);
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "mcp-bridge-install-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
