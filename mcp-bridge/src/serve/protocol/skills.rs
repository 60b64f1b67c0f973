//! Skills (SEP-2640, the `io.modelcontextprotocol/skills` extension): a
//! CLI's `SKILL.md` — written by its author, or made from its help and
//! examples — and the files beside it, served as `skill://<name>/...`
//! resources: `skills/list`, `skills/get`, `resources/read` of each file,
//! `resources/list` naming them, and `resources/directory/read` when a
//! skill has a folder of files.
//!
//! A skill is read once, when the server is made: its frontmatter (YAML
//! between `---` lines, read with the `yaml` feature) must name it (1-64
//! lower-case letters, digits and single hyphens) and describe it (1-1024
//! characters); the file's paths must stay within the skill. What is
//! wrong stops the start, saying so. A generated skill needs no YAML
//! reader: its frontmatter is written from the values it holds.

use std::borrow::Cow;
use std::collections::BTreeSet;

use rmcp::model::{
    GetSkillResult, ListResourcesResult, ListSkillsResult, ReadResourceResult, Resource,
    ResourceContents, SkillFrontmatter, SkillResource, SkillResources,
};
use rmcp::ErrorData;
use serde_json::Value;

use crate::error::RegistryError;

/// The scheme of a skill's files.
const SCHEME: &str = "skill://";
/// The longest description the Agent Skills format allows.
const MAX_DESCRIPTION: usize = 1024;

/// A skill a CLI offers its clients ([`Bridge::skill`](crate::Bridge::skill)):
/// a `SKILL.md` and the files it refers to.
///
/// ```
/// use mcp_bridge::Skill;
///
/// // Made from the CLI's help, with a file of the author's beside it.
/// let skill = Skill::generated().file("references/priorities.md", "Priority 5 is the highest.\n");
/// ```
#[derive(Debug, Clone)]
pub struct Skill {
    source: Source,
    files: Vec<(String, Cow<'static, str>)>,
}

#[derive(Debug, Clone)]
enum Source {
    /// The author's `SKILL.md`.
    #[cfg(feature = "yaml")]
    Written(Cow<'static, str>),
    /// Made from the CLI's help and its tools' examples.
    Generated,
}

impl Skill {
    /// A skill from the text of its `SKILL.md` (e.g.
    /// `include_str!("../SKILL.md")`): YAML frontmatter with `name` and
    /// `description`, then the instructions. Needs the `yaml` feature
    /// (the frontmatter is YAML); [`Skill::generated`] does not.
    ///
    /// ```
    /// use mcp_bridge::Skill;
    ///
    /// let skill = Skill::new("---\nname: taskctl\ndescription: Track tasks from the shell.\n---\nUse `taskctl_task_add`...\n")
    ///     .file("references/priorities.md", "Priority 5 is the highest.\n");
    /// ```
    #[cfg(feature = "yaml")]
    pub fn new(skill_md: impl Into<Cow<'static, str>>) -> Self {
        Self {
            source: Source::Written(skill_md.into()),
            files: Vec::new(),
        }
    }

    /// A skill made from the CLI: named after it, described by its about
    /// text, its instructions the long about and each tool with its
    /// summary and example calls.
    pub fn generated() -> Self {
        Self {
            source: Source::Generated,
            files: Vec::new(),
        }
    }

    /// A file of the skill, at `path` relative to its `SKILL.md` (e.g.
    /// `references/api.md`), served as `skill://<name>/<path>`.
    #[must_use]
    pub fn file(mut self, path: impl Into<String>, text: impl Into<Cow<'static, str>>) -> Self {
        self.files.push((path.into(), text.into()));
        self
    }
}

/// The skills a server serves, read and checked.
#[derive(Debug, Default)]
pub(crate) struct Skills {
    skills: Vec<Served>,
}

/// One skill as served: its entry and its files' texts.
#[derive(Debug)]
struct Served {
    entry: rmcp::model::Skill,
    /// URI → text, the `SKILL.md` first.
    files: Vec<(String, Cow<'static, str>)>,
}

/// What a generated skill is made of.
pub(crate) struct About<'a> {
    pub(crate) name: &'a str,
    pub(crate) about: Option<&'a str>,
    pub(crate) long_about: Option<&'a str>,
    /// Each tool: name, description, example calls.
    pub(crate) tools: Vec<(&'a str, &'a str, Vec<String>)>,
}

impl Skills {
    /// The skills, read and checked; `about` makes a generated one.
    pub(crate) fn read<'a>(
        skills: &[Skill],
        about: &dyn Fn() -> About<'a>,
    ) -> Result<Self, RegistryError> {
        let mut served = Vec::new();
        let mut names = BTreeSet::new();
        for skill in skills {
            let (text, (name, frontmatter)) = match &skill.source {
                #[cfg(feature = "yaml")]
                Source::Written(text) => (text.clone(), frontmatter(text).map_err(skill_error)?),
                Source::Generated => {
                    let (text, name, description) = generate(&about());
                    let front = checked_front(name, description).map_err(skill_error)?;
                    (Cow::Owned(text), front)
                }
            };
            if !names.insert(name.clone()) {
                return Err(skill_error(format!("two skills are named `{name}`")));
            }
            let skill_md = format!("{SCHEME}{name}/SKILL.md");
            let mut files = vec![(skill_md.clone(), text)];
            for (path, text) in &skill.files {
                let uri = format!(
                    "{SCHEME}{name}/{}",
                    checked_path(path).map_err(skill_error)?
                );
                if files.iter().any(|(known, _)| *known == uri) {
                    return Err(skill_error(format!(
                        "skill `{name}`: the file `{path}` is given twice"
                    )));
                }
                files.push((uri, text.clone()));
            }
            let resources = files
                .iter()
                .map(|(uri, text)| SkillResource::from_bytes(uri.clone(), text.as_bytes()))
                .collect();
            let entry =
                rmcp::model::Skill::new(skill_md, frontmatter, SkillResources::Files(resources));
            served.push(Served { entry, files });
        }
        Ok(Self { skills: served })
    }

    /// Whether a skill has a folder of files (what makes directory reads
    /// worth declaring).
    pub(crate) fn has_folders(&self) -> bool {
        self.skills.iter().any(|skill| {
            let root = skill_root(&skill.entry.uri);
            skill
                .files
                .iter()
                .any(|(uri, _)| uri[root.len()..].contains('/'))
        })
    }

    /// Each file as a resource (for `resources/list`): a `SKILL.md` named
    /// and described as its frontmatter does.
    pub(crate) fn resources(&self) -> impl Iterator<Item = Resource> + '_ {
        self.skills.iter().flat_map(|skill| {
            let front = &skill.entry.frontmatter;
            skill.files.iter().map(move |(uri, text)| {
                let resource = if *uri == skill.entry.uri {
                    Resource::new(uri.clone(), front.name.clone())
                        .with_description(front.description.clone())
                } else {
                    let file = uri.rsplit('/').next().unwrap_or(uri);
                    Resource::new(uri.clone(), file.to_owned())
                };
                resource
                    .with_mime_type(mime_type(uri))
                    .with_size(text.len() as u64)
            })
        })
    }

    /// A file's text, if `uri` is one.
    fn text(&self, uri: &str) -> Option<&str> {
        self.skills
            .iter()
            .flat_map(|skill| &skill.files)
            .find(|(known, _)| known == uri)
            .map(|(_, text)| &**text)
    }

    /// The direct children of a skill's folder: its files, and its
    /// folders (`inode/directory`). `None` when `uri` names no folder.
    fn children(&self, uri: &str) -> Option<Vec<Resource>> {
        let folder = format!("{}/", uri.trim_end_matches('/'));
        let mut children = Vec::new();
        let mut folders = BTreeSet::new();
        for skill in &self.skills {
            for (file, text) in &skill.files {
                let Some(rest) = file.strip_prefix(&folder) else {
                    continue;
                };
                match rest.split_once('/') {
                    None => {
                        let resource = Resource::new(file.clone(), rest.to_owned())
                            .with_mime_type(mime_type(file))
                            .with_size(text.len() as u64);
                        children.push(resource);
                    }
                    Some((sub, _)) => {
                        if folders.insert(sub.to_owned()) {
                            let resource = Resource::new(format!("{folder}{sub}"), sub.to_owned())
                                .with_mime_type(rmcp::model::DIRECTORY_MIME_TYPE);
                            children.push(resource);
                        }
                    }
                }
            }
        }
        // A folder is a skill's own, or one of its files is inside it.
        let is_folder = !children.is_empty()
            && self
                .skills
                .iter()
                .any(|skill| folder.starts_with(&skill_root(&skill.entry.uri)));
        is_folder.then_some(children)
    }
}

/// What the server answers of its skills (`server.rs` and `catalogue.rs`
/// hand the requests here).
impl Skills {
    /// `skills/list`: every skill, on one page.
    pub(crate) fn list(&self) -> ListSkillsResult {
        let skills = self.skills.iter().map(|s| s.entry.clone()).collect();
        ListSkillsResult::with_all_items(skills)
    }

    /// `skills/get`: the skill whose `SKILL.md` is `uri`, or invalid
    /// params naming the skills there are.
    pub(crate) fn get(&self, uri: &str) -> Result<GetSkillResult, ErrorData> {
        match self.skills.iter().find(|skill| skill.entry.uri == uri) {
            Some(skill) => Ok(GetSkillResult::new(skill.entry.clone())),
            None => Err(ErrorData::invalid_params(
                format!("no skill `{uri}`: {}", known(&self.skills)),
                None,
            )),
        }
    }

    /// `resources/directory/read`: a skill folder's direct children.
    pub(crate) fn folder(&self, uri: &str) -> Result<ListResourcesResult, ErrorData> {
        match self.children(uri) {
            Some(children) => Ok(ListResourcesResult::with_all_items(children)),
            None => Err(ErrorData::invalid_params(
                format!(
                    "`{uri}` is not a folder of a skill: {}",
                    known(&self.skills)
                ),
                None,
            )),
        }
    }

    /// `resources/read` of a skill's file, if `uri` is one.
    pub(crate) fn file(&self, uri: &str) -> Option<ReadResourceResult> {
        let text = self.text(uri)?;
        let contents = ResourceContents::text(text, uri).with_mime_type(mime_type(uri));
        Some(ReadResourceResult::new(vec![contents]))
    }
}

/// The skills there are, for a message.
fn known(skills: &[Served]) -> String {
    match skills.is_empty() {
        true => "this server offers no skill".to_owned(),
        false => {
            let uris: Vec<&str> = skills
                .iter()
                .map(|skill| skill.entry.uri.as_str())
                .collect();
            format!("the skills are {}", uris.join(", "))
        }
    }
}

/// `skill://<name>/` of a skill whose `SKILL.md` is `uri`.
fn skill_root(uri: &str) -> String {
    uri.strip_suffix("SKILL.md").unwrap_or(uri).to_owned()
}

fn skill_error(problem: String) -> RegistryError {
    RegistryError::Skill { problem }
}

/// The type of a skill's file, by its extension.
fn mime_type(uri: &str) -> &'static str {
    let extension = uri
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase());
    match extension.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        Some("sh") => "text/x-shellscript",
        Some("py") => "text/x-python",
        _ => "text/plain",
    }
}

/// A file's path within its skill: relative, `/`-separated, no empty,
/// `.` or `..` part, not the `SKILL.md` itself.
fn checked_path(path: &str) -> Result<&str, String> {
    // What a URI's path carries as it is: no `%`, `?`, `#` or space.
    let plain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'/');
    let fine = !path.is_empty()
        && path.bytes().all(plain)
        && !path.starts_with('/')
        && path
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
        && path != "SKILL.md";
    match fine {
        true => Ok(path),
        false => Err(format!(
            "the skill file `{path}`: expected a relative path within the skill, \
             e.g. references/api.md: letters, digits and `.-_/`, no `..`, no leading `/`, not SKILL.md itself"
        )),
    }
}

/// The name and frontmatter of a `SKILL.md`.
#[cfg(feature = "yaml")]
fn frontmatter(text: &str) -> Result<(String, SkillFrontmatter), String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let yaml = frontmatter_text(text)
        .ok_or("a SKILL.md begins with its frontmatter: YAML between two `---` lines")?;
    let value: Value = serde_yaml_ng::from_str(yaml)
        .map_err(|error| format!("the SKILL.md's frontmatter is not YAML: {error}"))?;
    let Value::Object(mut fields) = value else {
        return Err("the SKILL.md's frontmatter is not a mapping of fields".into());
    };
    let mut text_field = |key: &str| match fields.remove(key) {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(text),
        Some(other) => Err(format!("the SKILL.md's `{key}` is not a text: {other}")),
        None => Err(format!("the SKILL.md's frontmatter has no `{key}`")),
    };
    let name = text_field("name")?;
    let description = text_field("description")?;
    let (name, mut front) = checked_front(name, description)?;
    front.extra = fields;
    Ok((name, front))
}

/// A skill's name and description, checked against the Agent Skills
/// rules.
fn checked_front(name: String, description: String) -> Result<(String, SkillFrontmatter), String> {
    check_name(&name)?;
    if description.chars().count() > MAX_DESCRIPTION {
        return Err(format!(
            "the skill `{name}`'s description is over {MAX_DESCRIPTION} characters"
        ));
    }
    Ok((name.clone(), SkillFrontmatter::new(name, description)))
}

/// The YAML between a first line `---` and the next line `---` (either
/// may end in spaces; CRLF lines too).
#[cfg(feature = "yaml")]
fn frontmatter_text(text: &str) -> Option<&str> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let start = first.len();
    let mut at = start;
    for line in lines {
        if line.trim_end() == "---" {
            return Some(&text[start..at]);
        }
        at += line.len();
    }
    None
}

/// The Agent Skills rule for a name: 1-64 lower-case letters, digits and
/// hyphens, no hyphen first, last or next to another.
fn check_name(name: &str) -> Result<(), String> {
    let fine = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    match fine {
        true => Ok(()),
        false => Err(format!(
            "the skill name {name:?}: expected 1-64 lower-case letters, digits and single \
             hyphens, not first or last"
        )),
    }
}

/// A name the rule takes, made from a CLI's name.
fn skill_name(cli: &str) -> String {
    let mut name = String::new();
    for c in cli.chars().flat_map(char::to_lowercase) {
        let c = if c.is_ascii_lowercase() || c.is_ascii_digit() {
            c
        } else {
            '-'
        };
        if !(c == '-' && (name.is_empty() || name.ends_with('-'))) {
            name.push(c);
        }
    }
    name.truncate(64);
    let name = name.trim_end_matches('-');
    match name.is_empty() {
        true => "cli".to_owned(),
        false => name.to_owned(),
    }
}

/// A `SKILL.md` made from the CLI's help and its tools' examples, with
/// the name and description its frontmatter gives.
fn generate(about: &About<'_>) -> (String, String, String) {
    let name = skill_name(about.name);
    let summary = about
        .about
        .map(str::trim)
        .filter(|about| !about.is_empty())
        .map_or_else(
            || format!("Use the `{}` command-line tool", about.name),
            str::to_owned,
        );
    let description: String = format!("{summary}. Use it through this server's tools.")
        .replace("..", ".")
        .chars()
        .take(MAX_DESCRIPTION)
        .collect();
    // The fields in the order the Agent Skills specification gives
    // them, each a JSON string: YAML reads JSON, and a JSON string holds
    // any text on one line.
    let quoted = |text: &str| Value::from(text).to_string();
    let mut text = format!(
        "---\nname: {}\ndescription: {}\n---\n\n# {}\n\n",
        quoted(&name),
        quoted(&description),
        about.name
    );
    if let Some(long) = about.long_about.or(about.about) {
        text.push_str(long.trim());
        text.push_str("\n\n");
    }
    text.push_str("## Tools\n\n");
    for (tool, description, examples) in &about.tools {
        let summary = description.lines().next().unwrap_or_default();
        text.push_str(&format!("- `{tool}`: {summary}\n"));
        for example in examples {
            text.push_str(&format!("  - e.g. `{example}`\n"));
        }
    }
    text.push_str(
        "\nEach tool's `--help` is the resource `help://<tool>`; a failed call says what \
         was wrong, as the command line would.\n",
    );
    (text, name, description)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about() -> About<'static> {
        About {
            name: "TaskCtl",
            about: Some("Keep a small task list"),
            long_about: None,
            tools: vec![(
                "taskctl_task_add",
                "Add a task\nmore",
                vec!["{\"title\":\"x\"}".into()],
            )],
        }
    }

    #[test]
    #[cfg(feature = "yaml")]
    fn a_written_skill_is_served_with_its_files_and_digests() {
        let skill = Skill::new("---\nname: pdf-tools\ndescription: Work with PDFs\nlicense: MIT\nmetadata:\n  team: docs\n---\nBody\n")
            .file("references/forms.md", "Forms\n")
            .file("notes.txt", "n");
        let skills = Skills::read(&[skill], &about).unwrap();
        let entry = &skills.skills[0].entry;
        assert_eq!(entry.uri, "skill://pdf-tools/SKILL.md");
        assert_eq!(entry.frontmatter.extra["license"], "MIT");
        assert_eq!(entry.frontmatter.extra["metadata"]["team"], "docs");
        assert_eq!(entry.validate(), Ok(()));
        assert!(skills.has_folders());
        let top = skills.children("skill://pdf-tools").unwrap();
        let uris: Vec<(&str, Option<&str>)> = top
            .iter()
            .map(|r| (r.uri.as_str(), r.mime_type.as_deref()))
            .collect();
        assert_eq!(
            uris,
            [
                ("skill://pdf-tools/SKILL.md", Some("text/markdown")),
                ("skill://pdf-tools/references", Some("inode/directory")),
                ("skill://pdf-tools/notes.txt", Some("text/plain")),
            ]
        );
        assert_eq!(
            skills
                .children("skill://pdf-tools/references/")
                .unwrap()
                .len(),
            1
        );
        assert!(skills.children("skill://pdf-tools/SKILL.md").is_none());
        assert!(skills.children("skill://other").is_none());
        assert_eq!(
            skills.text("skill://pdf-tools/references/forms.md"),
            Some("Forms\n")
        );
    }

    #[test]
    #[cfg(feature = "yaml")]
    fn what_is_wrong_with_a_skill_is_said() {
        let cases = [
            ("no frontmatter", "# Title\n", "begins with its frontmatter"),
            ("unclosed", "---\nname: a\n", "begins with its frontmatter"),
            ("not yaml", "---\nname: [a\n---\n", "not YAML"),
            ("no name", "---\ndescription: d\n---\n", "has no `name`"),
            (
                "bad name",
                "---\nname: Bad_Name\ndescription: d\n---\n",
                "lower-case",
            ),
            (
                "double hyphen",
                "---\nname: a--b\ndescription: d\n---\n",
                "lower-case",
            ),
            (
                "empty description",
                "---\nname: a\ndescription: ''\n---\n",
                "`description` is not a text",
            ),
        ];
        for (case, text, expected) in cases {
            let error = Skills::read(&[Skill::new(text)], &about)
                .unwrap_err()
                .to_string();
            assert!(error.contains(expected), "{case}: {error}");
        }
        let empty = Skills::read(&[Skill::new("---\n---\nbody\n")], &about).unwrap_err();
        assert!(empty.to_string().contains("not a mapping"), "{empty}");
        let crlf = "---\r\nname: a\r\ndescription: d\r\n--- \r\nbody\r\n";
        assert!(Skills::read(&[Skill::new(crlf)], &about).is_ok());
        let good = "---\nname: a\ndescription: d\n---\n";
        let paths = [
            "../x.md", "/x.md", "a//b.md", "SKILL.md", "a/./b", "a b.md", "x%20", "q?",
        ];
        for path in paths {
            let error = Skills::read(&[Skill::new(good).file(path, "")], &about).unwrap_err();
            assert!(
                error.to_string().contains("relative path"),
                "{path}: {error}"
            );
        }
        let error = Skills::read(&[Skill::new(good), Skill::new(good)], &about).unwrap_err();
        assert!(
            error.to_string().contains("two skills are named `a`"),
            "{error}"
        );
    }

    #[test]
    fn a_generated_skill_reads_back_as_its_author_would_write_it() {
        let skills = Skills::read(&[Skill::generated()], &about).unwrap();
        let skill = &skills.skills[0];
        assert_eq!(skill.entry.uri, "skill://taskctl/SKILL.md");
        assert_eq!(
            skill.entry.frontmatter.description,
            "Keep a small task list. Use it through this server's tools."
        );
        let text = &skill.files[0].1;
        assert!(
            text.contains("- `taskctl_task_add`: Add a task\n  - e.g. `{\"title\":\"x\"}`"),
            "{text}"
        );
        assert_eq!(skill_name("--My Tool_2--"), "my-tool-2");
        assert_eq!(skill_name("日本"), "cli");
    }

    /// The generated frontmatter, read back as YAML, gives what was
    /// served, whatever the about text holds (quotes, a colon, `#`,
    /// a line break).
    #[test]
    #[cfg(feature = "yaml")]
    fn a_generated_frontmatter_is_the_yaml_of_what_is_served() {
        let about = || About {
            about: Some("Say \"hi\": # twice\n  then 'bye' \\ ok"),
            ..about()
        };
        let skills = Skills::read(&[Skill::generated()], &about).unwrap();
        let skill = &skills.skills[0];
        let (name, front) = frontmatter(&skill.files[0].1).unwrap();
        assert_eq!(name, "taskctl");
        assert_eq!(front.description, skill.entry.frontmatter.description);
        assert!(front
            .description
            .starts_with("Say \"hi\": # twice\n  then 'bye' \\ ok"));
        assert!(front.extra.is_empty());
    }
}
