//! Derive macro for [mcp-bridge](https://docs.rs/mcp-bridge): put
//! `#[derive(McpTool)]` next to clap's `Parser`, `Args` and `Subcommand`
//! derives.
//!
//! The derive reads the same attributes clap reads, builds a small model
//! of the command tree (`model`, built by `parse`), checks it
//! (`check`) collecting every error, and generates the spec builders and
//! typed constructors (`expand`). See the `mcp-bridge` crate for the
//! user-facing docs.
//!
//! The attribute reference is on [`McpTool`](derive@McpTool).

// The model and the attribute items hold syn nodes by value, for the
// length of one expansion; their size varies with proc-macro2's features
// (`span-locations`, on in this crate's tests), and boxing them would only
// add noise.
#![allow(clippy::large_enum_variant)]

mod check;
mod ctxt;
mod expand;
mod model;
mod parse;
#[cfg(test)]
mod tests;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives the MCP surface of a clap command type.
///
/// Put it next to clap's derives, on every type of the command tree: on a
/// `Parser` or `Args` struct it implements `mcp_bridge::McpArgs` (and makes
/// a `Parser` root usable with `mcp_bridge::Bridge`); on a `Subcommand`
/// enum (or an enum that derives `Parser`) it implements
/// `mcp_bridge::McpSubcommand`. It reads the attributes clap reads
/// (`#[command]`, `#[arg]`, `#[clap]`, `#[group]`, `#[value]`, doc
/// comments) to mirror the command line: docs/clap-support.md in the
/// repository says what it does with each. Mistakes in the MCP surface
/// (two tools or two properties of one name, a name MCP refuses, a value
/// it cannot convert...) are compile errors at your tokens.
///
/// # `#[mcp(...)]`
///
/// clap's attributes say what the command is; `#[mcp(...)]` refines what
/// MCP clients see and how a call runs (docs/attributes.md in the
/// repository has the full reference, with examples and each key's
/// compile errors):
///
/// | key | on | effect |
/// | --- | --- | --- |
/// | `name = "..."` | the root type, a variant | the tool's name, instead of the command path joined with `_` (`taskctl_task_add`) |
/// | `name = "..."` | an argument field | the property's name, instead of the long name (flags) or the id (positionals) |
/// | `json` | an argument field | the CLI reads the value as JSON text (its own `value_parser`): offer it as a JSON value with the schema `schemars` derives for the field's type (`T`, or the item of `Option<T>`/`Vec<T>`, which must be `Deserialize + JsonSchema`), and deserialize the call's value with serde |
/// | `values = path::to_fn` | an argument field | the argument's allowed values come from a function called at run time (`fn() -> Result<Vec<S>, E>`, `S: Into<String>`, `E: Display`; e.g. labels fetched from an API), off the event loop when due: they are the property's `enum` in `tools/list` (the first list waits up to 3 s for them), a call giving another value is refused naming the current ones (fetched again first when they are over a second old), and clients are sent `notifications/tools/list_changed` when they change. A function that fails, panics or takes over 10 s leaves the values as they were (the schema as declared, before any fetch), and the log says why. A string argument only: on an argument whose values the derive knows are no plain strings (a number, a flag, a count, `value_enum` or `value_parser = [...]`, `json`, a map) or that is no property (hidden, skipped) it is a compile error, and where a `value_parser` decides the type the server refuses to start; another function shape is a compile error at the path |
/// | `values_ttl = "5m"` | an argument field, with `values` | how long fetched values hold before they are fetched again (60 s by default; at most one fetch a second) |
/// | `header = "Region"` | an argument field of one string, integer or boolean | over Streamable HTTP (protocol 2026-07-28, SEP-2243), clients send the value in an `Mcp-Param-Region` header as well, so a load balancer or gateway can route on it without reading the body; the schema carries `"x-mcp-header": "Region"` and the server refuses a call whose header is missing or differs from the argument (`400`, `-32020`). A header name once per tool (case-insensitive); on a list, a hidden or skipped argument it is a compile error, on a property of another JSON type the server refuses to start |
/// | `description = "..."` | the type, a variant, an argument field | the description, instead of the doc comment |
/// | `skip` | the type, a variant, an argument field | leave it out of MCP (clap still has it); a skipped argument gets its default |
/// | `serial` | the type, a variant | calls of this command never overlap one another |
/// | `timeout = "30s"` | the type, a variant | a call running longer is answered with an error naming the timeout (exit code 124); `ms`, `s`, `m`, `h`, combined (`1m30s`) |
/// | `isolate` | the type, a variant | each call runs in a child process of the binary: a crash, `process::exit` or a hang cannot take the server down |
/// | `task` | the type, a variant | long-running: a call from a client that supports the MCP Tasks extension is a task from its start, answered at once; the client polls it (`tasks/get`: its result, or its questions, answered with `tasks/update`) and may stop it (`tasks/cancel`). A command that fails is a `completed` task whose result is an error; a handler that panics makes it `failed` (in an isolated call's process too, on Unix), and so does running past its time to live (5 minutes by default, `Bridge::task_ttl`; counted from the moment the call is a task, time waiting for the user's answers included; the call is stopped). Other clients get the result as usual |
/// | `task = "required"` | the type, a variant | as `task`, but every call is a task: a client that does not support the Tasks extension is refused with MCP's missing client capability error (`-32021`, naming the extension), before its arguments are read |
/// | `task = "deferred"` | the type, a variant | a call runs as usual (its questions asked the usual way) until the handler calls `Io::start_task` (`mcp_bridge::start_task` from a handler that prints with `println!`, on its own thread; `mcp_bridge::start_task_async` from an `async` one); from there it is a task, for a client that supports the Tasks extension under protocol 2026-07-28 (the questions first, then the long part); elsewhere the call goes on as it was. Not with `isolate`: a call in a child process cannot become a task (under `Bridge::isolate_calls`, `start_task` returns `false`) |
/// | `title = "..."` | the type, a variant | the tool's human-readable title (`"Add a task"`), which clients show instead of its name |
/// | `icon = "https://..."` | the type, a variant | the icon of the command's tools and of every tool below it (a nearer `icon` wins): an `https://` URL or a `data:image/...` URI; its MIME type comes from the URI or the file extension |
/// | `read_only` | the type, a variant | the tool changes nothing (MCP's `readOnlyHint`); a client may run it without asking |
/// | `destructive` / `destructive = false` | the type, a variant | the tool may destroy or overwrite, or only adds (`destructiveHint`); not together with `read_only` |
/// | `idempotent` | the type, a variant | a second identical call changes nothing more (`idempotentHint`) |
/// | `open_world` / `open_world = false` | the type, a variant | the tool reaches beyond the machine (the network, other people's systems), or not (`openWorldHint`) |
/// | `output = "json"` | the type, a variant | what the command prints — `"json"`, `"yaml"` (mcp-bridge's `yaml` feature), `"table"` (a header row, columns apart by two or more spaces or a tab: an array of objects keyed by the header) or `"lines"` — parsed into the call's `structuredContent` (an object: arrays come as `{"items": [...]}`, tables as `{"rows": [...]}`, lines as `{"lines": [...]}`), next to the text as printed; output that does not parse is sent as text, with a warning in the log |
/// | `output = Type` | the type, a variant | the command's handler returns a `Type` as data (`mcp_bridge::Output::new(value)`; `Type: Serialize + JsonSchema`): the tool's `outputSchema` is `Type`'s schema (schemars, draft 2020-12; a type whose schema is not an object's — a list, a number, an `Option` — is served as `{"result": ...}`), a call's value is its `structuredContent` and its text the result's text; a call that returns a value of another type, or none, fails naming both. In CLI mode the text is printed (the value as indented JSON, or what the handler chose). A type that is not `Serialize + JsonSchema` is a compile error at the type |
/// | `args(name = value, ...)` | the type, a variant | values fixed for every call of the command's tool, by property name as the schema has it (`args(format = "json", "dry-run" = true)`): the properties leave the schema, a call giving one is refused, and every call gets the values — to make a command print machine output. A name the tool does not offer is a compile error; so is a value of the wrong type for an argument of the same struct or variant whose type the derive knows, and the server refuses to start on one it could not see (an argument declared elsewhere, or read by a `value_parser`) |
/// | `example = r#"{...}"#` | the type, a variant (repeatable) | a call of the command's tool, its arguments as a JSON object: appended to the tool's description (`Example: {...}`; the first two of at most 240 bytes each, as the description is sent on every turn), and the tool becomes an MCP prompt showing its examples; checked by the tool's own build when the registry is made, so a wrong example fails at start-up, not in front of a model. Without the attribute, command lines in the doc comment are examples too: under a line `Example:` / `Examples:` (or a Markdown `# Examples`), each line starting with `$ ` (`$ taskctl task add "Write it" -p 5 --tag work`) is split as a shell splits it, its first word (the binary) dropped, the next ones naming the command's path (or aliases; ancestors' options may stand between them), the rest read with the command's arguments as clap reads them; the call made of it is checked by the same build and shown by the prompt, and the description keeps the line as written (a JSON copy only when `description = "..."` replaced the doc comment). A line for another command is passed over; one that cannot be read or that the tool refuses is skipped with a warning naming the tool and the line — a doc comment is no contract, so the server starts. `mcp_bridge::testing::assert_doc_examples` checks them against clap |
/// | `prefix = "..."` | the root type only | what starts the tool names made from paths, in place of the root's name: `prefix = "tc"` gives `tc_task_add`, `prefix = ""` gives `task_add` (a runnable root keeps its own name as its tool's) |
/// | `max_name_len = N` | the root type only | the longest tool name, 16 to 128 (64 by default, what common clients accept): a name made from a longer path is served as the path's end and 8 hex digits of its hash (`…list-remote-branches_1f3a9c0e`), the same on every build; a given `name` past it, or two tools whose served names meet, are compile errors |
/// | `crate = "path"` | the type only | reach mcp-bridge through `path` (a renamed or re-exported dependency): generated code uses `path::__private` instead of `::mcp_bridge::__private` |
///
/// Each hint is a flag (`read_only`) or takes `true` or `false`. Without
/// any, a tool carries no annotations and a client assumes MCP's
/// defaults: it may change and destroy things, is not idempotent, and
/// reaches beyond the machine — the safe reading of a command nobody
/// described. The hints are promises to the client: a wrong `read_only`
/// lets an assistant run a command without asking.
///
/// A key where it means nothing (on a `flatten` or `subcommand` field, a
/// skipped or `from_global` field, a `flatten` variant) is a compile error
/// saying where it belongs. So is a key for a command's own tool (`name`,
/// `title`, a hint, `serial`, `timeout`, `isolate`, `task`, `output`,
/// `example`, `args`) on a command that runs only through its subcommands
/// (a required `#[command(subcommand)]`), which has no tool: put it on the
/// subcommands, or make the subcommand an `Option` so the command is a tool
/// too. `description`, `icon` and `skip` mean something there as well.
///
/// ```ignore
/// use clap::{Parser, Subcommand};
/// use mcp_bridge::McpTool;
///
/// #[derive(Parser, McpTool)]
/// #[command(name = "taskctl")]
/// struct Cli {
///     /// The task file
///     #[arg(long, default_value = "tasks.json")]
///     db: std::path::PathBuf,
///     #[command(subcommand)]
///     command: Command,
/// }
///
/// #[derive(Subcommand, McpTool)]
/// enum Command {
///     /// Add a task
///     #[mcp(serial, timeout = "10s")]
///     Add {
///         title: String,
///         #[arg(long)]
///         #[mcp(description = "1 (low) to 5 (high)")]
///         priority: Option<u8>,
///     },
///     /// Remove everything
///     #[mcp(skip)]
///     Purge,
/// }
/// ```
///
/// Through a renamed dependency (`bridge = { package = "mcp-bridge", ... }`),
/// every type that derives `McpTool` says `#[mcp(crate = "bridge")]`, as
/// with serde's `#[serde(crate = "...")]`.
#[proc_macro_derive(McpTool, attributes(mcp))]
pub fn derive_mcp_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

/// The pipeline: read the input into the model, check it, generate code
/// (or, with errors, the errors and stub impls).
fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let model = parse::from_syn(&cx, input);
    model.iter().for_each(|model| check::check(&cx, model));
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::expand(&model),
        (errors, model) => expand::fallback(input, model.as_ref(), errors.err()),
    }
}
