//! `cargo mcp-bridge adopt`: a clap CLI adopts mcp-bridge in one command.
//! `McpTool` beside every clap derive, the parse call replaced by
//! `mcp_bridge::parse*`, the dependency added, and a test of the tools
//! against clap next to the root type; then checked. `cargo mcp-bridge
//! remove` takes it all back, byte for byte.
//!
//! Built with mcp-bridge's `adopt` feature:
//! `cargo install mcp-bridge --features adopt`.

mod edit;
mod forms;
mod manifest;
mod sources;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use edit::{Change, Edit};
use sources::{File, Scan};

/// Adopt mcp-bridge in a clap CLI's package, or take it back.
#[derive(Parser)]
#[command(name = "cargo-mcp-bridge", bin_name = "cargo mcp-bridge", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Add `McpTool` to every clap derive, `mcp_bridge::parse*` in place
    /// of the parse call, the dependency and a test; then check them.
    Adopt(Adopt),
    /// Take back everything `adopt` added, leaving every file as it was.
    Remove(Common),
}

#[derive(Args)]
struct Common {
    /// The CLI package's Cargo.toml (default: the one in this folder).
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
    /// Print the changes as a diff, and change nothing.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Args)]
struct Adopt {
    #[command(flatten)]
    common: Common,
    /// Depend on this local checkout of mcp-bridge (its `mcp-bridge`
    /// crate folder, or the workspace holding it) instead of the registry.
    #[arg(long, value_name = "DIR")]
    path: Option<PathBuf>,
    /// Put MCP behind this feature of the CLI: the dependency is
    /// optional and the derives are `cfg_attr`s, so a build without it
    /// has nothing of mcp-bridge.
    #[arg(long, value_name = "NAME")]
    feature: Option<String>,
    /// Do not run `cargo check` and the added test afterwards.
    #[arg(long)]
    no_check: bool,
}

fn main() -> ExitCode {
    // `cargo mcp-bridge ...` runs `cargo-mcp-bridge mcp-bridge ...`.
    let mut args: Vec<_> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "mcp-bridge") {
        args.remove(1);
    }
    let cli = Cli::parse_from(args);
    let done = match cli.command {
        Command::Adopt(adopt) => run_adopt(&adopt),
        Command::Remove(common) => run_remove(&common),
    };
    match done {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The package: its folder, manifest and Rust files, each scanned; files
/// that cannot be read or parsed are named and left alone.
struct Package {
    dir: PathBuf,
    manifest: PathBuf,
    manifest_text: String,
    about: manifest::Package,
    files: Vec<(File, Scan)>,
}

fn load(common: &Common) -> Result<Package, String> {
    let manifest = match &common.manifest_path {
        Some(path) => path.clone(),
        None => std::env::current_dir()
            .map_err(|e| format!("the current folder: {e}"))?
            .join("Cargo.toml"),
    };
    let manifest_text = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("{}: cannot read it: {e}", manifest.display()))?;
    let dir = manifest
        .parent()
        .map(Path::to_owned)
        .unwrap_or_else(|| PathBuf::from("."));
    let about = manifest::package(&manifest_text, &dir)?;
    let mut paths = Vec::new();
    walk(&dir.join("src"), &mut paths);
    for path in &about.paths {
        if !paths.contains(path) && path.exists() {
            paths.push(path.clone());
        }
    }
    let mut files = Vec::new();
    for path in paths {
        match sources::read(&path) {
            Ok(file) => {
                let scan = file.scan();
                files.push((file, scan));
            }
            Err(error) => eprintln!("warning: {error}; left as it is"),
        }
    }
    let mut package = Package {
        dir,
        manifest,
        manifest_text,
        about,
        files,
    };
    // The files of modules declared for tests only are test code: left
    // alone.
    let tests = test_files(&package);
    package
        .files
        .retain(|(file, _)| !tests.iter().any(|test| file.path.starts_with(test)));
    Ok(package)
}

/// The `.rs` files under `dir`, in order.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

impl Package {
    fn relative<'a>(&self, path: &'a Path) -> std::borrow::Cow<'a, str> {
        path.strip_prefix(&self.dir)
            .unwrap_or(path)
            .to_string_lossy()
    }

    /// Shows or writes the changes.
    fn finish(&self, changes: &[Change], dry_run: bool) -> Result<(), String> {
        for change in changes {
            if dry_run {
                print!("{}", change.diff(&self.dir));
            } else {
                change.write()?;
            }
        }
        Ok(())
    }
}

fn run_adopt(adopt: &Adopt) -> Result<ExitCode, String> {
    let package = load(&adopt.common)?;
    let feature = adopt.feature.as_deref();
    let derived: Vec<_> = package
        .files
        .iter()
        .flat_map(|(file, scan)| scan.derived.iter().map(move |d| (file, d)))
        .collect();
    if derived.is_empty() {
        return Err(format!(
            "found no type deriving clap's Parser, Args or Subcommand in {}",
            package.relative(&package.dir.join("src"))
        ));
    }
    let roots: Vec<&str> = derived
        .iter()
        .filter(|(_, d)| d.parser)
        .map(|(_, d)| d.name.as_str())
        .collect();
    let mut edits: Vec<Vec<Edit>> = package.files.iter().map(|_| Vec::new()).collect();
    let mut report = Vec::new();

    // McpTool beside each clap derive.
    let mut added = 0;
    let mut touched = Vec::new();
    for (index, (file, scan)) in package.files.iter().enumerate() {
        for item in scan.derived.iter().filter(|d| !d.adopted) {
            let edit = match feature {
                None => Edit::insert(
                    item.list.last_end,
                    format!("{}{}", forms::DERIVE_SEPARATOR, forms::DERIVE),
                ),
                Some(feature) => {
                    let start = item.list.attribute.start;
                    let line = file.text[..start].rfind('\n').map_or(0, |i| i + 1);
                    let indent = &file.text[line..start];
                    let indent = if indent.trim().is_empty() { indent } else { "" };
                    let condition = forms::feature_condition(feature, item.list.cfg.as_deref());
                    Edit::insert(
                        item.list.attribute.end,
                        format!("\n{indent}{}", forms::cfg_attr_derive(&condition)),
                    )
                }
            };
            edits[index].push(edit);
            added += 1;
            if !touched.contains(&index) {
                touched.push(index);
            }
        }
    }
    let already = derived.iter().filter(|(_, d)| d.adopted).count();
    report.push(format!(
        "McpTool added to {added} derive list(s) in {} file(s){}",
        touched.len(),
        if already > 0 {
            format!(" ({already} had it)")
        } else {
            String::new()
        }
    ));

    // The parse call.
    let calls: Vec<(usize, &sources::Call)> = package
        .files
        .iter()
        .enumerate()
        .flat_map(|(i, (_, scan))| scan.calls.iter().map(move |c| (i, c)))
        .filter(|(_, call)| roots.contains(&call.name.as_str()))
        .collect();
    let mut tested: Vec<&str> = Vec::new();
    let bridged: Vec<_> = calls.iter().filter(|(_, c)| c.bridged).collect();
    let mut plain: Vec<_> = calls.iter().filter(|(_, c)| !c.bridged).collect();
    // Of several, each binary's own (a client and its daemon, each with
    // its parser): in each file declaring a `main`, its one call; of its
    // several, those parsing the process's own arguments (not a config
    // file's words), then the one in `main`. Calls in other files are
    // reached from those binaries, and left to them. With no binary's
    // file among them, the one call parsing the process's arguments.
    let own = |calls: &mut Vec<&(usize, &sources::Call)>| {
        if calls.len() > 1 && calls.iter().any(|(_, c)| c.own_arguments()) {
            calls.retain(|(_, c)| c.own_arguments());
        }
    };
    let mut replaceable = plain.len() == 1;
    if plain.len() > 1 {
        let mut binaries: Vec<usize> = plain
            .iter()
            .map(|(i, _)| *i)
            .filter(|i| package.files[*i].1.has_main)
            .collect();
        binaries.dedup();
        let mut picked = Vec::new();
        for file in &binaries {
            let mut here: Vec<_> = plain.iter().copied().filter(|(i, _)| i == file).collect();
            own(&mut here);
            if here.len() > 1 {
                here.retain(|(_, c)| c.in_main);
            }
            if let [one] = here.as_slice() {
                picked.push(*one);
            }
        }
        if !binaries.is_empty() && picked.len() == binaries.len() {
            plain = picked;
            replaceable = true;
        } else if binaries.is_empty() {
            own(&mut plain);
            replaceable = plain.len() == 1;
        }
    }
    let placed = !bridged.is_empty() || replaceable;
    for (i, call) in &bridged {
        report.push(format!(
            "{}:{}:{}: parses with {} already",
            package.relative(&package.files[*i].0.path),
            call.line,
            call.column,
            call.bridged_text(),
        ));
        tested.push(&call.name);
    }
    let chosen = if bridged.is_empty() && replaceable {
        plain.clone()
    } else {
        Vec::new()
    };
    for (i, call) in chosen {
        let text = match feature {
            None => forms::bridged_call(
                &call.ty,
                &call.function,
                call.receiver.as_deref(),
                &call.args,
            ),
            Some(feature) => forms::feature_call(
                feature,
                &call.ty,
                &call.function,
                call.receiver.as_deref(),
                &call.args,
            ),
        };
        edits[*i].push(Edit::replace(call.at.clone(), text));
        let file = &package.files[*i].0;
        if feature.is_none()
            && file
                .text
                .lines()
                .any(|line| line.trim() == "use clap::Parser;")
            && file.text.matches("Parser").count() == 1
        {
            report.push(format!(
                "{}: `use clap::Parser;` is not needed there any more (rustc warns): delete it",
                package.relative(&file.path)
            ));
        }
        report.push(format!(
            "{}:{}:{}: {} is now {}",
            package.relative(&package.files[*i].0.path),
            call.line,
            call.column,
            call.clap_text(),
            call.bridged_text(),
        ));
        tested.push(&call.name);
    }
    if !placed {
        let found = plain.as_slice();
        let root = roots.first().copied().unwrap_or("Cli");
        let mut message = match found {
            [] => format!(
                "no call of {root}::parse(), try_parse(), parse_from(..) or try_parse_from(..), \
                 nor of get_matches(), try_get_matches(), get_matches_from(..) or \
                 try_get_matches_from(..) on {root}'s command, was found: where main builds \
                 the CLI's value, call mcp_bridge::parse::<{root}>() (or try_parse, parse_from, \
                 try_parse_from) instead, or where it parses {root}'s command into matches, \
                 mcp_bridge::get_matches::<{root}>(command) (or get_matches_mut, \
                 try_get_matches, get_matches_from, try_get_matches_from, \
                 try_get_matches_from_mut)"
            ),
            _ => "several calls parse the CLI; replace the one main runs with its \
                  mcp_bridge:: counterpart (mcp_bridge::parse::<Cli>() for Cli::parse(), \
                  mcp_bridge::get_matches_from::<Cli>(cmd, args) for \
                  cmd.get_matches_from(args)):"
                .to_owned(),
        };
        for (i, call) in found {
            message.push_str(&format!(
                "\n  {}:{}:{}: {}",
                package.relative(&package.files[*i].0.path),
                call.line,
                call.column,
                call.clap_text(),
            ));
        }
        report.push(message);
    }
    if tested.is_empty() {
        tested = roots.clone();
    }

    // The test next to each root type tested: at the end of the inline
    // module declaring it, or of its file.
    for (index, (file, scan)) in package.files.iter().enumerate() {
        if scan.tests {
            continue;
        }
        let mut places: Vec<(Option<sources::Place>, Vec<forms::Root<'_>>)> = Vec::new();
        for d in scan
            .derived
            .iter()
            .filter(|d| d.parser && tested.contains(&d.name.as_str()))
        {
            let root = forms::Root {
                name: &d.name,
                debug: derived
                    .iter()
                    .any(|(_, other)| other.name == d.name && other.debug),
            };
            match places.iter_mut().find(|(at, _)| *at == d.tests_at) {
                Some((_, roots)) => roots.push(root),
                None => places.push((d.tests_at.clone(), vec![root])),
            }
        }
        for (at, here) in &places {
            let edit = match at {
                Some((offset, indent)) => {
                    let text = forms::tests(here, feature);
                    let indented: String = text
                        .lines()
                        .map(|line| match line.is_empty() {
                            true => "\n".to_owned(),
                            false => format!("{indent}{line}\n"),
                        })
                        .collect();
                    Edit::insert(*offset, format!("\n{indented}"))
                }
                None => {
                    let separator = if file.text.ends_with('\n') {
                        "\n"
                    } else {
                        "\n\n"
                    };
                    Edit::insert(
                        file.text.len(),
                        format!("{separator}{}", forms::tests(here, feature)),
                    )
                }
            };
            edits[index].push(edit);
            let names: Vec<&str> = here.iter().map(|r| r.name).collect();
            report.push(format!(
                "{}: test module {} added (assert_parity{} for {})",
                package.relative(&file.path),
                forms::TESTS,
                if here.iter().all(|r| r.debug) {
                    ", assert_agrees_with_clap"
                } else {
                    ""
                },
                names.join(", ")
            ));
            for root in here.iter().filter(|r| !r.debug) {
                report.push(format!(
                    "  {} has no Debug: the agreement check is written commented out",
                    root.name
                ));
            }
        }
    }

    // The manifest.
    let source = match &adopt.path {
        Some(path) => {
            let path = path
                .canonicalize()
                .map_err(|e| format!("--path {}: {e}", path.display()))?;
            let crate_dir = if path.join("mcp-bridge").join("Cargo.toml").exists() {
                path.join("mcp-bridge")
            } else {
                path
            };
            manifest::Source::Path(crate_dir)
        }
        None => manifest::Source::Version(env!("CARGO_PKG_VERSION").to_owned()),
    };
    let edited: Vec<&Path> = touched
        .iter()
        .map(|&i| package.files[i].0.path.as_path())
        .collect();
    let build = build_compiles(&package, &edited);
    let (manifest_after, manifest_added) =
        manifest::adopt(&package.manifest_text, &source, feature, build)?;
    if !manifest_added.is_empty() {
        report.push(format!("Cargo.toml: added {}", manifest_added.join(", ")));
    }

    let mut changes = Vec::new();
    for ((file, _), edits) in package.files.iter().zip(edits) {
        if !edits.is_empty() {
            changes.push(Change {
                path: file.path.clone(),
                before: file.text.clone(),
                after: edit::apply(&file.text, edits),
            });
        }
    }
    if manifest_after != package.manifest_text {
        changes.push(Change {
            path: package.manifest.clone(),
            before: package.manifest_text.clone(),
            after: manifest_after,
        });
    }
    package.finish(&changes, adopt.common.dry_run)?;
    for line in &report {
        eprintln!("{line}");
    }
    if changes.is_empty() {
        eprintln!("nothing to change: the package has adopted mcp-bridge");
    }
    if adopt.common.dry_run || adopt.no_check {
        return Ok(ExitCode::SUCCESS);
    }
    let checked = check(&package, feature);
    Ok(if checked && placed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The files and folders of the modules declared for tests only
/// (`#[cfg(test)] mod testing;` → `testing.rs`, `testing/`).
fn test_files(package: &Package) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for (file, scan) in &package.files {
        let Some(dir) = file.path.parent() else {
            continue;
        };
        let stem = file
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned());
        let base = match stem.as_deref() {
            Some("main" | "lib" | "mod") | None => dir.to_owned(),
            Some(stem) => dir.join(stem),
        };
        for name in &scan.test_modules {
            found.push(base.join(format!("{name}.rs")));
            found.push(base.join(name));
        }
    }
    found
}

/// Whether the build script compiles the CLI's definitions too
/// (`include!("src/cli.rs")`, `#[path = "src/cli.rs"] mod cli;`, for
/// completions or man pages): it names a file given `McpTool`, or
/// includes a file of `src/` (whose modules may be the ones given it).
/// Then it needs mcp-bridge too.
fn build_compiles(package: &Package, edited: &[&Path]) -> bool {
    let Some(text) = package
        .about
        .build
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
    else {
        return false;
    };
    let includes_src =
        (text.contains("include!") || text.contains("#[path")) && text.contains("src/");
    !edited.is_empty()
        && (includes_src
            || edited.iter().any(|path| {
                let relative = package.relative(path).replace('\\', "/");
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                let name = name.unwrap_or_default();
                text.contains(&relative)
                    || text.contains(&format!("/{name}\""))
                    || text.contains(&format!("\"{name}\""))
            }))
}

/// `cargo check`, then the added test; whether both pass.
fn check(package: &Package, feature: Option<&str>) -> bool {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut common = vec![
        "--manifest-path".to_owned(),
        package.manifest.display().to_string(),
    ];
    if let Some(feature) = feature {
        common.extend(["--features".to_owned(), feature.to_owned()]);
    }
    eprintln!("running cargo check...");
    let checked = std::process::Command::new(&cargo)
        .arg("check")
        .args(&common)
        .status()
        .is_ok_and(|s| s.success());
    if !checked {
        eprintln!("cargo check failed: see above");
        return false;
    }
    let mut targets = vec!["--bins"];
    if package.about.has_lib {
        targets.push("--lib");
    }
    eprintln!("running the adoption test ({})...", forms::TESTS);
    let tested = std::process::Command::new(&cargo)
        .arg("test")
        .args(&common)
        .args(targets)
        .arg(forms::TESTS)
        .status()
        .is_ok_and(|s| s.success());
    eprintln!(
        "{}",
        if tested {
            "adopted: the tools agree with clap; serve them with `<cli> mcp serve`"
        } else {
            "the adoption test failed: see above"
        }
    );
    tested
}

fn run_remove(common: &Common) -> Result<ExitCode, String> {
    let package = load(common)?;
    let mut changes = Vec::new();
    let mut undone = 0;
    for (file, scan) in &package.files {
        if scan.undo.is_empty() {
            continue;
        }
        undone += scan.undo.len();
        changes.push(Change {
            path: file.path.clone(),
            before: file.text.clone(),
            after: edit::apply(&file.text, scan.undo.clone()),
        });
    }
    let manifest_after = manifest::remove(&package.manifest_text)?;
    if manifest_after != package.manifest_text {
        changes.push(Change {
            path: package.manifest.clone(),
            before: package.manifest_text.clone(),
            after: manifest_after,
        });
    }
    package.finish(&changes, common.dry_run)?;
    eprintln!(
        "{} change(s) of `adopt` taken back in {} file(s)",
        undone,
        changes.len()
    );
    Ok(ExitCode::SUCCESS)
}
