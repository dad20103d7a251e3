//! CSV bodies: a header row of field names, then one row per entry. Cells may be quoted
//! (`"a, b"`, a doubled `""` inside is a quote); an empty cell sets nothing.

use serde_json::{Map, Value};

use super::RawEntry;
use crate::error::{LayoutError, LayoutResult};

/// Reads a CSV body into raw entries; every value is text.
pub fn parse_csv(body: &[u8]) -> LayoutResult<Vec<RawEntry>> {
    let text = std::str::from_utf8(body)
        .map_err(|e| LayoutError::input(format!("the body is not valid UTF-8: {e}")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = records(text)?.into_iter();
    let header: Vec<String> = rows
        .next()
        .ok_or_else(|| LayoutError::input("the CSV has no header row"))?
        .1
        .into_iter()
        .map(|name| name.trim().to_owned())
        .collect();
    let Some(id_column) = header.iter().position(|name| name == "id") else {
        return Err(LayoutError::setting(
            "id",
            "the CSV header has no id column",
        ));
    };
    let mut entries = Vec::new();
    for (line, cells) in rows {
        if cells.iter().all(|cell| cell.trim().is_empty()) {
            continue;
        }
        if cells.len() > header.len() {
            return Err(LayoutError::setting(
                &format!("line {line}"),
                format!(
                    "{} cells, but the header names {}",
                    cells.len(),
                    header.len()
                ),
            ));
        }
        let id = cells.get(id_column).map_or("", |id| id.trim());
        if id.is_empty() {
            return Err(LayoutError::setting(
                &format!("line {line}"),
                "the id cell is empty",
            ));
        }
        let mut fields = Map::new();
        for (name, cell) in header.iter().zip(&cells) {
            let cell = cell.trim();
            if name != "id" && !name.is_empty() && !cell.is_empty() {
                fields.insert(name.clone(), Value::String(cell.to_owned()));
            }
        }
        entries.push(RawEntry {
            id: id.to_owned(),
            fields,
            textual: true,
        });
    }
    Ok(entries)
}

/// The records of a CSV text, each with the line number it starts on (1-based).
fn records(text: &str) -> LayoutResult<Vec<(usize, Vec<String>)>> {
    let mut records = Vec::new();
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut start = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            ('"', true) => quoted = false,
            ('"', false) if cell.trim().is_empty() => {
                cell.clear();
                quoted = true;
            }
            (',', false) => cells.push(std::mem::take(&mut cell)),
            ('\r', false) if chars.peek() == Some(&'\n') => {}
            ('\n', false) => {
                cells.push(std::mem::take(&mut cell));
                records.push((start, std::mem::take(&mut cells)));
                line += 1;
                start = line;
            }
            ('\n', true) => {
                line += 1;
                cell.push(c);
            }
            _ => cell.push(c),
        }
    }
    if quoted {
        return Err(LayoutError::setting(
            &format!("line {start}"),
            "a quoted cell is not closed",
        ));
    }
    if !cell.is_empty() || !cells.is_empty() {
        cells.push(cell);
        records.push((start, cells));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_lists_and_empty_cells() {
        let body = "id,type,groups,label\r\nweb,component,\"vpc, \"\"dmz\"\"\",\n\ndb , component ,,Main DB\n";
        let entries = parse_csv(body.as_bytes()).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].id, "web");
        assert_eq!(entries[0].fields["groups"], "vpc, \"dmz\"");
        assert!(!entries[0].fields.contains_key("label"));
        assert_eq!(entries[1].id, "db");
        assert_eq!(entries[1].fields["type"], "component");
        assert_eq!(entries[1].fields["label"], "Main DB");
    }

    #[test]
    fn refusals_name_the_line() {
        let e = parse_csv(b"type\ncomponent\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("id"));
        let e = parse_csv(b"id,type\na,component,extra\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("line 2"));
        let e = parse_csv(b"id,type\n,component\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("line 2"));
        let e = parse_csv(b"id,type\na,\"component\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("line 2"));
    }
}
