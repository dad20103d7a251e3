//! The text of a DOT label, as Graphviz shows it: escapes (`\N` the node's name, `\G` the
//! graph's, `\E` `\T` `\H` an edge's, `\n` `\l` `\r` line breaks, `\x` an x), record labels
//! (`{a|<p> b}`: the fields' text, one a line) and HTML-like labels (the text without the
//! markup, `<br/>` and table cells as line breaks, entities decoded). Lines are trimmed; a
//! multi-line label is one string with `\n` between its lines.

/// What the escapes of a label stand for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Names<'a> {
    /// The graph's name (`\G`).
    pub graph: &'a str,
    /// The node's name (`\N`), or an edge's tail and head (`\T`, `\H`, `\E`).
    pub object: &'a str,
    /// An edge's tail and head, and its operator (`->` or `--`).
    pub edge: Option<(&'a str, &'a str, &'a str)>,
}

/// The text of a quoted or plain label.
pub fn escaped(raw: &str, names: Names<'_>) -> String {
    lines(&break_lines(&substitute(raw, names)))
}

/// The text of a record label: each field's text (ports dropped), in order, one a line.
pub fn record(raw: &str, names: Names<'_>) -> String {
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut chars = substitute(raw, names)
        .chars()
        .collect::<Vec<_>>()
        .into_iter();
    let mut in_port = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('{' | '}' | '|' | '<' | '>' | ' ')) if !in_port => field.push(e),
                Some(e) if !in_port => {
                    field.push('\\');
                    field.push(e);
                }
                _ => {}
            },
            '{' | '}' | '|' => {
                in_port = false;
                fields.push(std::mem::take(&mut field));
            }
            '<' => in_port = true,
            '>' => in_port = false,
            c if !in_port => field.push(c),
            _ => {}
        }
    }
    fields.push(field);
    let texts: Vec<String> = fields
        .iter()
        .map(|f| lines(&break_lines(f)))
        .filter(|f| !f.is_empty())
        .collect();
    texts.join("\n")
}

/// The text of an HTML-like label: tags dropped, `<br/>` and the ends of table cells and rows
/// as line breaks, entities decoded, runs of white space as one space.
pub fn html(raw: &str) -> String {
    let mut text = String::new();
    let mut rest = raw;
    while let Some(at) = rest.find(['<', '&']) {
        push_collapsed(&mut text, &rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('<') {
            let Some(end) = rest.find('>').map(|e| e + 1) else {
                break;
            };
            let tag = rest[1..end.saturating_sub(1)].trim().to_ascii_lowercase();
            let name = tag
                .trim_start_matches('/')
                .split(|c: char| c.is_whitespace() || c == '/')
                .next()
                .unwrap_or("");
            if name == "br" || (tag.starts_with('/') && matches!(name, "td" | "tr" | "table")) {
                text.push('\n');
            }
            rest = &rest[end..];
        } else {
            let (decoded, used) = entity(rest);
            text.push_str(&decoded);
            rest = &rest[used..];
        }
    }
    push_collapsed(&mut text, rest);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

/// Text with its runs of white space as one space.
fn push_collapsed(text: &mut String, piece: &str) {
    for c in piece.chars() {
        if c.is_whitespace() {
            if !text.ends_with([' ', '\n']) && !text.is_empty() {
                text.push(' ');
            }
        } else {
            text.push(c);
        }
    }
}

/// The entity at the start of `s` (`&amp;`, `&#38;`, `&#x26;`) and the bytes it takes; an `&`
/// that starts none stands for itself.
fn entity(s: &str) -> (String, usize) {
    let Some(end) = s.find(';').filter(|&e| e <= 10) else {
        return ("&".into(), 1);
    };
    let name = &s[1..end];
    let code = if let Some(hex) = name.strip_prefix("#x").or(name.strip_prefix("#X")) {
        u32::from_str_radix(hex, 16).ok()
    } else if let Some(decimal) = name.strip_prefix('#') {
        decimal.parse().ok()
    } else {
        NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| c as u32)
    };
    match code.and_then(char::from_u32) {
        Some(c) => (c.to_string(), end + 1),
        None => ("&".into(), 1),
    }
}

/// The named entities labels use most.
const NAMED: [(&str, char); 16] = [
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", ' '),
    ("ndash", '–'),
    ("mdash", '—'),
    ("hellip", '…'),
    ("bull", '•'),
    ("middot", '·'),
    ("rarr", '→'),
    ("larr", '←'),
    ("times", '×'),
    ("deg", '°'),
    ("copy", '©'),
];

/// `\N`, `\G`, `\E`, `\T`, `\H` replaced by the names they stand for (`\L` by nothing);
/// other escapes left for [`break_lines`].
fn substitute(raw: &str, names: Names<'_>) -> String {
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('N') => out.push_str(names.object),
            Some('G') => out.push_str(names.graph),
            Some('T') => out.push_str(names.edge.map_or("", |e| e.0)),
            Some('H') => out.push_str(names.edge.map_or("", |e| e.1)),
            Some('E') => {
                if let Some((tail, head, op)) = names.edge {
                    out.push_str(&format!("{tail}{op}{head}"));
                }
            }
            Some('L') => {}
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// `\n`, `\l`, `\r` as line breaks, `\x` as x.
fn break_lines(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n' | 'l' | 'r') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            },
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// The lines trimmed, empty ones at the ends dropped.
fn lines(s: &str) -> String {
    let lines: Vec<&str> = s.lines().map(str::trim).collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |l| l + 1);
    lines.get(first..last).unwrap_or_default().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str) -> Names<'_> {
        Names {
            graph: "G",
            object: name,
            edge: None,
        }
    }

    #[test]
    fn escapes() {
        assert_eq!(escaped("\\N", node("web")), "web");
        assert_eq!(escaped("a\\nb\\lc\\r", node("x")), "a\nb\nc");
        assert_eq!(escaped("in \\G: \\N", node("n")), "in G: n");
        assert_eq!(escaped("\\\\N \\x", node("n")), "\\N x");
        assert_eq!(escaped("//a:b\\n//a:c", node("x")), "//a:b\n//a:c");
        assert_eq!(escaped("\\N", node("//a:b\\n//a:c")), "//a:b\n//a:c");
        assert_eq!(escaped("  two\nlines  ", node("x")), "two\nlines");
        let edge = Names {
            graph: "G",
            object: "",
            edge: Some(("a", "b", "->")),
        };
        assert_eq!(escaped("\\E from \\T to \\H", edge), "a->b from a to b");
    }

    #[test]
    fn records() {
        assert_eq!(
            record("<f0> left|<f1> mid\\ dle|<f2> right", node("x")),
            "left\nmid dle\nright"
        );
        assert_eq!(record("{a|{b|c}}|d", node("x")), "a\nb\nc\nd");
        assert_eq!(record("\\N|\\{x\\}", node("n")), "n\n{x}");
        assert_eq!(record("{<p>|a}", node("x")), "a");
    }

    #[test]
    fn html_labels() {
        assert_eq!(
            html("<b>Orders</b> service<br/>port 80"),
            "Orders service\nport 80"
        );
        assert_eq!(
            html(
                "<table><tr><td>a</td><td>b &amp; c</td></tr><tr><td>&#955;&lt;</td></tr></table>"
            ),
            "a\nb & c\nλ<"
        );
        assert_eq!(html("x &unknown; &amp"), "x &unknown; &amp");
        assert_eq!(html("a < b"), "a < b");
        assert_eq!(html("<BR ALIGN=\"LEFT\"/>one  \n  two"), "one two");
    }
}
