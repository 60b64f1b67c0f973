//! Picks a converter for a type the derive cannot classify by name, in
//! the order clap's `value_parser!` does: a `ValueParserFactory` with a
//! typed parser, `ValueEnum`, `From<OsString>`, `From<&OsStr>`,
//! `From<String>`, `From<&str>`, `FromStr`.
//!
//! Autoref specialisation: generated code calls
//! `(&&&&&&&Probe::<T>).converter(ignore_case)` with every `Via*` trait in
//! scope, and method lookup takes the first impl that applies. The
//! argument's `ignore_case` reaches the parser clap would pick (a
//! `ValueEnum`'s, a factory's), whether or not `value_enum` is written.
//! Generated code only.

#![allow(missing_docs, unreachable_pub)]

use std::marker::PhantomData;
use std::str::FromStr;

use clap::builder::TypedValueParser;
use clap::ValueEnum;

use super::convert::{ClapParser, Enum, ErasedParser, FromText, McpValue, Parse, Text};
use crate::spec::ValueType;

pub struct Probe<T>(pub PhantomData<fn() -> T>);

pub trait ViaValueEnum {
    type Converter;
    fn converter(&self, ignore_case: bool) -> Self::Converter;
}
impl<T: ValueEnum> ViaValueEnum for &&&&&&Probe<T> {
    type Converter = Enum<T>;
    fn converter(&self, ignore_case: bool) -> Enum<T> {
        Enum::new(ignore_case)
    }
}

pub trait ViaFactory {
    type Converter;
    fn converter(&self, ignore_case: bool) -> Self::Converter;
}
impl<T> ViaFactory for &&&&&&&Probe<T>
where
    T: clap::builder::ValueParserFactory,
    T::Parser: TypedValueParser<Value = T>,
{
    type Converter = ClapParser<T::Parser>;
    fn converter(&self, ignore_case: bool) -> Self::Converter {
        ClapParser::new(T::value_parser(), ValueType::string()).ignore_case(ignore_case)
    }
}

pub trait ViaFromOsString {
    type Converter;
    fn converter(&self, ignore_case: bool) -> Self::Converter;
}
impl<T: From<std::ffi::OsString>> ViaFromOsString for &&&&&Probe<T> {
    type Converter = FromText<T>;
    fn converter(&self, _ignore_case: bool) -> FromText<T> {
        FromText::new(|text| T::from(std::ffi::OsString::from(text)))
    }
}

pub trait ViaFromOsStr {
    type Converter;
    fn converter(&self, ignore_case: bool) -> Self::Converter;
}
impl<T> ViaFromOsStr for &&&&Probe<T>
where
    T: for<'a> From<&'a std::ffi::OsStr>,
{
    type Converter = FromText<T>;
    fn converter(&self, _ignore_case: bool) -> FromText<T> {
        FromText::new(|text| T::from(std::ffi::OsStr::new(text)))
    }
}

pub trait ViaFromString {
    type Converter;
    fn converter(&self, ignore_case: bool) -> Self::Converter;
}
impl<T: From<String>> ViaFromString for &&&Probe<T> {
    type Converter = Text<T>;
    fn converter(&self, _ignore_case: bool) -> Text<T> {
        Text::new()
    }
}

pub trait ViaFromStrRef {
    type Converter;
    fn converter(&self, ignore_case: bool) -> Self::Converter;
}
impl<T> ViaFromStrRef for &&Probe<T>
where
    T: for<'a> From<&'a str>,
{
    type Converter = FromText<T>;
    fn converter(&self, _ignore_case: bool) -> FromText<T> {
        FromText::new(|text| T::from(text))
    }
}

pub trait ViaFromStr {
    type Converter;
    fn converter(&self, ignore_case: bool) -> Self::Converter;
}
impl<T> ViaFromStr for &Probe<T>
where
    T: FromStr,
    T::Err: std::fmt::Display,
{
    type Converter = Parse<T>;
    fn converter(&self, _ignore_case: bool) -> Parse<T> {
        Parse::new(ValueType::string())
    }
}

/// The last resort, reached only when nothing above applies. It is
/// implemented for every type, with the `McpValue` bound on the method:
/// method lookup always ends here, and the unmet bound is reported as
/// `McpValue`'s own message ("cannot be converted from a JSON value"),
/// at the field's type, instead of a list of every probe that failed.
pub trait ViaNothing {
    type Value;
    fn converter(&self, ignore_case: bool) -> <Self::Value as McpValue>::Converter
    where
        Self::Value: McpValue;
}
impl<T> ViaNothing for Probe<T> {
    type Value = T;
    fn converter(&self, _ignore_case: bool) -> <T as McpValue>::Converter
    where
        T: McpValue,
    {
        T::converter()
    }
}

/// A `value_parser = EXPR` whose type is only known to the compiler: a
/// `TypedValueParser` (closures, `fn` items, clap's parser types) is called
/// directly; anything else clap takes (`Into<ValueParser>`, e.g. what
/// `value_parser!(T)` gives for a `FromStr` type) goes through clap itself
/// ([`ErasedParser`]). Generated code calls
/// `(&&ParserProbe::<T, _>::new(expr)).parser_converter(value_type)`.
pub struct ParserProbe<T, P>(std::cell::Cell<Option<P>>, PhantomData<fn() -> T>);

impl<T, P> ParserProbe<T, P> {
    pub fn new(parser: P) -> Self {
        Self(std::cell::Cell::new(Some(parser)), PhantomData)
    }

    fn take(&self) -> P {
        self.0.take().expect("a parser probe is used once")
    }
}

pub trait ViaTypedParser {
    type Converter;
    fn parser_converter(&self, value_type: ValueType, ignore_case: bool) -> Self::Converter;
}
impl<T, P: TypedValueParser> ViaTypedParser for &ParserProbe<T, P> {
    type Converter = ClapParser<P>;
    fn parser_converter(&self, value_type: ValueType, ignore_case: bool) -> ClapParser<P> {
        ClapParser::new(self.take(), value_type).ignore_case(ignore_case)
    }
}

pub trait ViaErasedParser {
    type Converter;
    fn parser_converter(&self, value_type: ValueType, ignore_case: bool) -> Self::Converter;
}
impl<T, P> ViaErasedParser for ParserProbe<T, P>
where
    T: std::any::Any + Clone + Send + Sync + 'static,
    P: Into<clap::builder::ValueParser>,
{
    type Converter = ErasedParser<T>;
    fn parser_converter(&self, value_type: ValueType, ignore_case: bool) -> ErasedParser<T> {
        ErasedParser::new(self.take().into(), value_type).ignore_case(ignore_case)
    }
}
