//! The static description of a CLI: commands, parameters, value types and
//! relations, and their JSON Schema.
//!
//! Generated code fills a [`CommandSpec`] tree once (`mcp_augment`); the
//! [`Registry`](crate::Registry) flattens it into [`ToolSpec`]s: these
//! specs are what `tools/list` is answered from, without clap. What reads
//! clap's own types is named for it: `clap_args` (a hand-written `Args`),
//! `pins` (the operator's root options) and `command_line` (the command
//! line that says a call).

pub(crate) mod clap_args;
mod command;
#[doc(hidden)]
pub mod command_line;
#[doc(hidden)]
pub mod known;
pub(crate) mod markdown;
mod param;
pub(crate) mod pins;
pub(crate) mod relations;
mod schema;
#[doc(hidden)]
pub mod tree;
pub(crate) mod value;

pub use command::{
    CommandLayer, CommandSpec, DocExample, DocOutcome, FixedValue, GroupSpec, McpAttrs,
    OutputFormat, OutputType, TaskSupport, ToolHints, ToolSpec,
};
pub(crate) use command::{Pinned, Renamed, EXTERNAL_ARGS, EXTERNAL_COMMAND};
pub use param::{
    DefaultIf, ParamAction, ParamKind, ParamRelations, ParamSpec, RelationKind, Relations,
};
#[doc(hidden)]
pub use param::{ParamData, RelationData};

pub use schema::RESULT_PROPERTY;
pub(crate) use schema::{is_object_schema, type_schema};
pub(crate) use value::describe_range;
#[doc(hidden)]
pub use value::values_of;
#[doc(hidden)]
pub use value::Arity;
pub(crate) use value::PrimitiveInteger;
pub use value::{StringFacets, ValueType, ValuesSource};
