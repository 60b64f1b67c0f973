//! Field types, sorted the way clap's derive sorts them (`bool`, `Option`,
//! `Vec`, `Option<Vec>`, `Option<Option>`, other), and value types
//! recognised by name.
//!
//! Like clap, this matches the last path segment, so a type alias of
//! `Option`/`Vec` is not recognised (documented in the guide).

use syn::{GenericArgument, PathArguments, Type};

use crate::model::{Builtin, Int, Shape};

pub(crate) fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            path.path.segments.last().map(|s| s.ident.to_string())
        }
        Type::Group(group) => last_segment(&group.elem),
        Type::Paren(paren) => last_segment(&paren.elem),
        _ => None,
    }
}

fn generic_args(ty: &Type) -> Vec<&Type> {
    let ty = match ty {
        Type::Group(group) => &*group.elem,
        other => other,
    };
    let Type::Path(path) = ty else {
        return Vec::new();
    };
    let Some(segment) = path.path.segments.last() else {
        return Vec::new();
    };
    match &segment.arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn single_arg<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    if last_segment(ty).as_deref() != Some(wrapper) {
        return None;
    }
    match generic_args(ty).as_slice() {
        [inner] => Some(inner),
        _ => None,
    }
}

pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    single_arg(ty, "Option")
}

pub(crate) fn vec_inner(ty: &Type) -> Option<&Type> {
    single_arg(ty, "Vec")
}

/// The value type of a `HashMap`, `BTreeMap` or `IndexMap`.
pub(crate) fn map_value(ty: &Type) -> Option<&Type> {
    let name = last_segment(ty)?;
    if name != "HashMap" && name != "BTreeMap" && name != "IndexMap" {
        return None;
    }
    match generic_args(ty).as_slice() {
        [_key, value, ..] => Some(value),
        _ => None,
    }
}

pub(crate) fn shape_of(ty: &Type) -> Shape {
    if last_segment(ty).as_deref() == Some("bool") {
        return Shape::Bool;
    }
    if let Some(inner) = option_inner(ty) {
        if option_inner(inner).is_some() {
            return Shape::OptionOption;
        }
        if vec_inner(inner).is_some() {
            return Shape::OptionVec;
        }
        return Shape::Option;
    }
    if vec_inner(ty).is_some() {
        return Shape::Vec;
    }
    Shape::Other
}

/// The type of one value of a field of `shape`.
pub(crate) fn inner_type(ty: &Type, shape: Shape) -> &Type {
    match shape {
        Shape::Bool | Shape::Other => ty,
        Shape::Option => option_inner(ty).unwrap_or(ty),
        Shape::Vec => vec_inner(ty).unwrap_or(ty),
        Shape::OptionOption => option_inner(ty).and_then(option_inner).unwrap_or(ty),
        Shape::OptionVec => option_inner(ty).and_then(vec_inner).unwrap_or(ty),
    }
}

/// A value type the derive knows by its name.
pub(crate) fn builtin(ty: &Type) -> Option<Builtin> {
    let name = last_segment(ty)?;
    Some(match name.as_str() {
        "String" => Builtin::String,
        "OsString" => Builtin::OsString,
        "PathBuf" => Builtin::PathBuf,
        "char" => Builtin::Char,
        "bool" => Builtin::Bool,
        "i8" => Builtin::Integer(Int::I8),
        "i16" => Builtin::Integer(Int::I16),
        "i32" => Builtin::Integer(Int::I32),
        "i64" => Builtin::Integer(Int::I64),
        "i128" => Builtin::Integer(Int::I128),
        "isize" => Builtin::Integer(Int::Isize),
        "u8" => Builtin::Integer(Int::U8),
        "u16" => Builtin::Integer(Int::U16),
        "u32" => Builtin::Integer(Int::U32),
        "u64" => Builtin::Integer(Int::U64),
        "u128" => Builtin::Integer(Int::U128),
        "usize" => Builtin::Integer(Int::Usize),
        // clap reads them through `FromStr`: integers without 0.
        "NonZeroI8" => Builtin::Integer(Int::I8),
        "NonZeroI16" => Builtin::Integer(Int::I16),
        "NonZeroI32" => Builtin::Integer(Int::I32),
        "NonZeroI64" => Builtin::Integer(Int::I64),
        "NonZeroI128" => Builtin::Integer(Int::I128),
        "NonZeroIsize" => Builtin::Integer(Int::Isize),
        "NonZeroU8" => Builtin::Integer(Int::U8),
        "NonZeroU16" => Builtin::Integer(Int::U16),
        "NonZeroU32" => Builtin::Integer(Int::U32),
        "NonZeroU64" => Builtin::Integer(Int::U64),
        "NonZeroU128" => Builtin::Integer(Int::U128),
        "NonZeroUsize" => Builtin::Integer(Int::Usize),
        "f32" | "f64" => Builtin::Float,
        "Duration" => Builtin::Duration,
        "IpAddr" => Builtin::IpAddr,
        "Ipv4Addr" => Builtin::Ipv4Addr,
        "Ipv6Addr" => Builtin::Ipv6Addr,
        "SocketAddr" => Builtin::SocketAddr,
        _ => return None,
    })
}
