//! `#[mcp(output = "...")]`: what a command printed, parsed into the
//! result's `structuredContent`, next to the text as printed. A document
//! that does not parse leaves the text alone, and the log says why.

use serde_json::{Map, Value};

use crate::spec::OutputFormat;

/// What `stdout` holds, as an object: a JSON or YAML object as it is, an
/// array as `{"items": [...]}`, another value as `{"value": ...}`; a
/// table as `{"rows": [{<header>: <cell>, ...}, ...]}`; lines as
/// `{"lines": [...]}`.
pub(crate) fn structured(format: OutputFormat, stdout: &str) -> Result<Map<String, Value>, String> {
    let value = match format {
        OutputFormat::Json => {
            serde_json::from_str::<Value>(stdout).map_err(|error| format!("not JSON: {error}"))?
        }
        #[cfg(feature = "yaml")]
        OutputFormat::Yaml => serde_yaml_ng::from_str::<Value>(stdout)
            .map_err(|error| format!("not YAML: {error}"))?,
        // The derive refuses `output = "yaml"` without the feature; a
        // spec written by hand may still name it.
        #[cfg(not(feature = "yaml"))]
        OutputFormat::Yaml => {
            return Err("YAML output is read with mcp-bridge's `yaml` feature, which is off".into())
        }
        OutputFormat::Lines => {
            let lines = stdout
                .lines()
                .filter(|line| !line.trim().is_empty())
                .map(|line| Value::from(line.trim_end()))
                .collect();
            return Ok(wrap("lines", Value::Array(lines)));
        }
        OutputFormat::Table => return table(stdout).map(|rows| wrap("rows", Value::Array(rows))),
    };
    Ok(match value {
        Value::Object(map) => map,
        Value::Array(items) => wrap("items", Value::Array(items)),
        other => wrap("value", other),
    })
}

fn wrap(key: &str, value: Value) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert(key.to_owned(), value);
    map
}

/// A table as commands print it: a header row, then one row per line;
/// columns apart by a tab, or else starting where the header's do (a
/// header cell starts after two or more spaces), each row cut at those
/// columns.
fn table(stdout: &str) -> Result<Vec<Value>, String> {
    let mut lines = stdout.lines().filter(|line| !line.trim().is_empty());
    let header = lines.next().ok_or("no header row: the output is empty")?;
    if header.contains('\t') {
        let names: Vec<&str> = header.split('\t').map(str::trim).collect();
        return lines
            .enumerate()
            .map(|(at, line)| {
                let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
                if cells.len() > names.len() {
                    return Err(format!(
                        "row {} has {} cells, the header {}",
                        at + 1,
                        cells.len(),
                        names.len()
                    ));
                }
                Ok(row(&names, &cells))
            })
            .collect();
    }
    let chars: Vec<char> = header.chars().collect();
    let mut starts = Vec::new();
    let mut spaces = 2;
    for (at, c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            spaces += 1;
        } else {
            if spaces >= 2 {
                starts.push(at);
            }
            spaces = 0;
        }
    }
    // The first column starts at the line's start: a right-aligned first
    // header (`  PID  CMD`) must not cut the front off its values.
    if let Some(first) = starts.first_mut() {
        *first = 0;
    }
    let cut = |line: &[char], from: usize, to: Option<usize>| -> String {
        let end = to.unwrap_or(line.len()).min(line.len());
        match from < end {
            true => line[from..end].iter().collect::<String>().trim().to_owned(),
            false => String::new(),
        }
    };
    let columns: Vec<(usize, Option<usize>)> = starts
        .iter()
        .enumerate()
        .map(|(i, &start)| (start, starts.get(i + 1).copied()))
        .collect();
    let names: Vec<String> = columns
        .iter()
        .map(|&(from, to)| cut(&chars, from, to))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    lines
        .enumerate()
        .map(|(at, line)| {
            let line: Vec<char> = line.chars().collect();
            // A cell running into the next column would be cut in two.
            for &(start, _) in columns.iter().skip(1) {
                if start < line.len()
                    && !line[start - 1].is_whitespace()
                    && !line[start].is_whitespace()
                {
                    return Err(format!(
                        "row {} does not line up with the header's columns",
                        at + 1
                    ));
                }
            }
            let cells: Vec<String> = columns
                .iter()
                .map(|&(from, to)| cut(&line, from, to))
                .collect();
            let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
            Ok(row(&names, &cells))
        })
        .collect()
}

fn row(names: &[&str], cells: &[&str]) -> Value {
    let mut row = Map::new();
    for (at, name) in names.iter().enumerate() {
        let cell = cells.get(at).copied().unwrap_or("");
        row.insert((*name).to_owned(), Value::from(cell));
    }
    Value::Object(row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(format: OutputFormat, text: &str) -> Value {
        Value::Object(structured(format, text).unwrap())
    }

    #[test]
    fn documents() {
        assert_eq!(parsed(OutputFormat::Json, "{\"a\": 1}\n"), json!({"a": 1}));
        assert_eq!(
            parsed(OutputFormat::Json, "[1, 2]"),
            json!({"items": [1, 2]})
        );
        assert_eq!(parsed(OutputFormat::Json, "3"), json!({"value": 3}));
        assert!(structured(OutputFormat::Json, "done: 3")
            .unwrap_err()
            .starts_with("not JSON"));
    }

    #[test]
    #[cfg(feature = "yaml")]
    fn yaml_documents() {
        assert_eq!(
            parsed(OutputFormat::Yaml, "name: x\ntags:\n  - a\n  - b\n"),
            json!({"name": "x", "tags": ["a", "b"]})
        );
        assert!(structured(OutputFormat::Yaml, "a: [")
            .unwrap_err()
            .starts_with("not YAML"));
    }

    #[test]
    #[cfg(not(feature = "yaml"))]
    fn yaml_without_the_feature_names_it() {
        let problem = structured(OutputFormat::Yaml, "name: x\n").unwrap_err();
        assert!(problem.contains("`yaml` feature"), "{problem}");
    }

    #[test]
    fn lines() {
        assert_eq!(
            parsed(OutputFormat::Lines, "one\n\n  two  \n"),
            json!({"lines": ["one", "  two"]})
        );
    }

    #[test]
    fn tables() {
        let text = "ID  TITLE          STATUS\n1   Write docs     todo\n12  Ship it        in progress\n3                  done\n";
        assert_eq!(
            parsed(OutputFormat::Table, text),
            json!({"rows": [
                {"ID": "1", "TITLE": "Write docs", "STATUS": "todo"},
                {"ID": "12", "TITLE": "Ship it", "STATUS": "in progress"},
                {"ID": "3", "TITLE": "", "STATUS": "done"},
            ]})
        );
        assert_eq!(
            parsed(OutputFormat::Table, "NAME\tSIZE\na b\t3\n"),
            json!({"rows": [{"NAME": "a b", "SIZE": "3"}]})
        );
        assert!(structured(
            OutputFormat::Table,
            "ID  TITLE\n1   a-title-that-runs-over\n12345 x\n"
        )
        .unwrap_err()
        .contains("row 2 does not line up"));
        assert!(structured(OutputFormat::Table, "\n").is_err());
        // A right-aligned first column keeps its values whole.
        assert_eq!(
            parsed(OutputFormat::Table, "  PID  CMD\n12345  sleep\n    7  sh\n"),
            json!({"rows": [{"PID": "12345", "CMD": "sleep"}, {"PID": "7", "CMD": "sh"}]})
        );
    }
}
