//! Every error of the runtime, one type per failure: a call's arguments
//! ([`ArgError`]), a call that cannot be routed ([`CallError`]), and a
//! command tree that cannot be served ([`RegistryError`]).

use std::fmt;

/// Arguments of a `tools/call` that cannot become the CLI's typed value.
///
/// The message names the tool, the property, what was given and what was
/// expected, so a client (or the model behind it) can correct the call.
///
/// ```
/// use mcp_bridge::{ArgError, Problem};
/// let err = ArgError::new("taskctl_task_add", Some("priority"), Problem::Invalid {
///     given: "9".into(),
///     expected: "an integer from 1 to 5".into(),
///     reason: None,
/// });
/// assert_eq!(
///     err.to_string(),
///     "tool `taskctl_task_add`: property `priority`: expected an integer from 1 to 5, got 9"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error("tool `{tool}`: {}", self.describe())]
pub struct ArgError {
    /// The tool that was called.
    pub tool: String,
    /// The property at fault, when one is.
    pub property: Option<String>,
    /// What is wrong.
    pub problem: Problem,
}

/// What is wrong with an argument.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A required property is absent.
    Missing {
        /// What the property takes.
        expected: String,
    },
    /// A property the tool does not have.
    Unknown {
        /// The closest accepted name, if one is close.
        suggestion: Option<String>,
        /// Every accepted property name.
        accepted: Vec<String>,
    },
    /// A value of the wrong type, out of range, or rejected by the
    /// argument's parser.
    Invalid {
        /// The value given, as JSON.
        given: String,
        /// What would have been accepted.
        expected: String,
        /// The parser's own explanation, if any.
        reason: Option<String>,
    },
    /// Fewer values than the argument needs.
    TooFew {
        /// How many are needed.
        min: u32,
        /// How many were given.
        given: usize,
    },
    /// A relation between arguments clap enforces was broken.
    Relation {
        /// Which relation, in clap's words.
        message: String,
    },
}

impl ArgError {
    /// An error about `property` of `tool`.
    pub fn new(tool: impl Into<String>, property: Option<&str>, problem: Problem) -> Self {
        Self {
            tool: tool.into(),
            property: property.map(str::to_owned),
            problem,
        }
    }

    fn describe(&self) -> Described<'_> {
        Described(self)
    }
}

struct Described<'a>(&'a ArgError);

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let property = self.0.property.as_deref().unwrap_or("?");
        match &self.0.problem {
            Problem::Missing { expected } => {
                write!(
                    f,
                    "missing required property `{property}` (expected {expected})"
                )
            }
            Problem::Unknown {
                suggestion,
                accepted,
            } => {
                write!(f, "unknown property `{property}`")?;
                if let Some(suggestion) = suggestion {
                    write!(f, "; did you mean `{suggestion}`?")?;
                }
                if accepted.is_empty() {
                    write!(f, "; this tool takes no arguments")
                } else {
                    write!(f, "; accepted properties: {}", accepted.join(", "))
                }
            }
            Problem::Invalid {
                given,
                expected,
                reason,
            } => {
                write!(f, "property `{property}`: expected {expected}, got {given}")?;
                if let Some(reason) = reason {
                    write!(f, " ({reason})")?;
                }
                Ok(())
            }
            Problem::TooFew { min, given } => write!(
                f,
                "property `{property}`: needs at least {min} value{}, got {given}",
                if *min == 1 { "" } else { "s" }
            ),
            Problem::Relation { message } => write!(f, "{message}"),
        }
    }
}

/// Why one value was refused, before it is tied to a tool and property.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ValueProblem {
    /// What would have been accepted ("an integer from 1 to 5").
    pub expected: String,
    /// The parser's explanation, if it gave one.
    pub reason: Option<String>,
}

impl ValueProblem {
    /// A value that is not what `expected` says.
    pub fn expected(expected: impl Into<String>) -> Self {
        Self {
            expected: expected.into(),
            reason: None,
        }
    }

    /// Adds the parser's explanation.
    pub fn because(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }
}

/// A `tools/call` that cannot be turned into a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// No tool has this name.
    #[error("unknown tool `{name}`; call tools/list for the available tools")]
    UnknownTool {
        /// The name asked for.
        name: String,
    },
    /// The arguments do not fit the tool.
    #[error(transparent)]
    InvalidArguments(#[from] ArgError),
    /// The call could not be run.
    #[error("the call could not be run: {0}")]
    Failed(String),
}

/// Two commands end up as tools with the same name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error("tool name `{name}` is used by both `{first}` and `{second}`; rename one with #[mcp(name = \"...\")]")]
pub struct DuplicateTool {
    /// The shared name.
    pub name: String,
    /// The first command path.
    pub first: String,
    /// The second command path.
    pub second: String,
}

/// A tool name that breaks the MCP rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error("tool name `{name}` (command `{path}`) is not a valid tool name here: use 1 to {max} characters of A-Z, a-z, 0-9, `_`, `.` and `-` (the root's `#[mcp(max_name_len)]`, 64 by default); set one with #[mcp(name = \"...\")]")]
pub struct InvalidToolName {
    /// The name.
    pub name: String,
    /// The longest name allowed.
    pub max: usize,
    /// The command path.
    pub path: String,
}

/// Why the tool table of a CLI cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// A skill ([`Bridge::skill`](crate::Bridge::skill)) that cannot be
    /// served as it is.
    #[error("skill: {problem}")]
    Skill {
        /// What is wrong.
        problem: String,
    },
    /// Two commands end up as tools with the same name.
    #[error(transparent)]
    DuplicateTool(#[from] DuplicateTool),
    /// A tool name breaks the MCP rule.
    #[error(transparent)]
    InvalidToolName(#[from] InvalidToolName),
    /// `#[mcp(args(...))]` fixes a value the command's tool cannot take:
    /// of another type than its property, outside its choices, or for a
    /// property it does not have (a tree the derive could not check).
    #[error("`#[mcp(args({name} = ...))]` on the command `{command}`: {problem}")]
    FixedArgument {
        /// The command path.
        command: String,
        /// The property name given.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// `#[mcp(values = ...)]` on an argument whose values are not strings
    /// (the function gives strings, which become the schema's `enum`).
    #[error("`#[mcp(values = {function})]` on the argument `{name}` of the command `{command}`: {problem}")]
    Values {
        /// The command path.
        command: String,
        /// The property name.
        name: String,
        /// The function, as written.
        function: String,
        /// What is wrong.
        problem: String,
    },
    /// `#[mcp(header = "...")]` on a property an HTTP header cannot carry
    /// (not one string, integer or boolean), or a header name twice in
    /// one tool (an inherited argument's too).
    #[error("`#[mcp(header = {header:?})]` on the argument `{name}` of the command `{command}`: {problem}")]
    Header {
        /// The command path.
        command: String,
        /// The property name.
        name: String,
        /// The header name, as written.
        header: String,
        /// What is wrong.
        problem: String,
    },
    /// `#[mcp(example = "...")]` is not a call its tool accepts.
    #[error("`#[mcp(example = {example:?})]` on the command `{command}`: {problem}")]
    Example {
        /// The command path.
        command: String,
        /// The example as written.
        example: String,
        /// What is wrong.
        problem: String,
    },
    /// The tools cannot be listed in the [`ToolMode`](crate::ToolMode)
    /// asked for (a made tool's name is taken, a pinned pattern matches
    /// nothing).
    #[error("{0}")]
    ToolMode(String),
    /// Two properties of one tool have one name (a spec built by hand: the
    /// derive refuses it at compile time).
    #[error("the tool `{tool}` has two properties named `{name}`; rename one with #[mcp(name = \"...\")]")]
    DuplicateProperty {
        /// The tool.
        tool: String,
        /// The shared property name.
        name: String,
    },
}

/// What a panic said (its `&str` or `String` payload).
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_owned()
    }
}
