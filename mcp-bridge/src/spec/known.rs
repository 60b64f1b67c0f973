//! The JSON types of well-known field types, for generated code.

use super::{PrimitiveInteger, StringFacets, ValueType};

/// An integer with `T`'s bounds.
pub fn integer<T: PrimitiveInteger>() -> ValueType {
    ValueType::integer(T::MIN, T::MAX)
}

/// Whole numbers followed by a unit, as `humantime` (the usual
/// duration parser of clap CLIs) reads them.
pub const DURATION_PATTERN: &str = r"^\s*([0-9]+\s*(nsec|ns|usec|us|µs|msec|ms|seconds|second|secs|sec|s|minutes|minute|mins|min|m|hours|hour|hrs|hr|h|days|day|d|weeks|week|w|months|month|M|years|year|y)\s*)+$";

/// A duration in the common `humantime` notation: whole numbers
/// with units, `90s`, `5m`, `1h 30m`, `2 days`.
pub fn duration() -> ValueType {
    ValueType::String(StringFacets {
        pattern: Some(DURATION_PATTERN),
        examples: &["90s", "15m", "1h 30m", "2days"],
        ..StringFacets::default()
    })
}

/// `IpAddr`: IPv4 or IPv6.
pub fn ip_addr() -> ValueType {
    ValueType::String(StringFacets {
        any_format: &["ipv4", "ipv6"],
        examples: &["127.0.0.1", "::1"],
        ..StringFacets::default()
    })
}

/// `Ipv4Addr`.
pub fn ipv4() -> ValueType {
    ValueType::String(StringFacets {
        format: Some("ipv4"),
        ..StringFacets::default()
    })
}

/// `Ipv6Addr`.
pub fn ipv6() -> ValueType {
    ValueType::String(StringFacets {
        format: Some("ipv6"),
        ..StringFacets::default()
    })
}

/// `SocketAddr`: an address and a port.
pub fn socket_addr() -> ValueType {
    ValueType::String(StringFacets {
        pattern: Some(r"^(\[[0-9A-Fa-f:.]+\]|[0-9.]+):[0-9]{1,5}$"),
        examples: &["127.0.0.1:8080", "[::1]:8080"],
        ..StringFacets::default()
    })
}

/// One character.
pub fn single_char() -> ValueType {
    ValueType::String(StringFacets {
        min_length: Some(1),
        max_length: Some(1),
        ..StringFacets::default()
    })
}
