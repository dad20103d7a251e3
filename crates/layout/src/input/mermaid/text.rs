//! Labels: the text of a node, an edge or a subgraph title reduced to plain lines. Markdown
//! strings lose their markers, HTML tags are dropped (`<br>` breaks the line), entity codes
//! (`#quot;`, `#9829;`, `&nbsp;`, `&amp;`) become their characters, `fa:fa-icon` names are
//! taken out of the text, and the lines are joined with `\n`.

/// How a label was written, which decides how its text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Bare text between the brackets or pipes.
    Text,
    /// A quoted string `"…"`.
    Quoted,
    /// A markdown string `` "`…`" ``.
    Markdown,
}

/// A label as written: its raw text and how it was quoted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Label {
    /// The text between the delimiters, as written.
    pub raw: String,
    /// How it was quoted.
    pub kind: Kind,
}

impl Label {
    /// A label of bare text.
    pub fn text(raw: &str) -> Label {
        Label {
            raw: raw.to_owned(),
            kind: Kind::Text,
        }
    }
}

/// A label's plain text and the icons taken out of it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Plain {
    /// The lines of the label, joined with `\n`.
    pub text: String,
    /// `fa:` icon names found in it (`fa:fa-car`), which are not drawn.
    pub icons: Vec<String>,
}

/// The plain text of `label`.
pub(super) fn plain(label: &Label) -> Plain {
    let mut icons = Vec::new();
    let broken = break_lines(&label.raw);
    let lines: Vec<String> = broken
        .split('\n')
        .map(|line| {
            let mut line = strip_tags(line);
            if label.kind == Kind::Markdown {
                line = strip_markdown(&line);
            }
            let line = decode_entities(&line);
            let line = take_icons(&line, &mut icons);
            line.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .filter(|line| !line.is_empty())
        .collect();
    let mut text = lines.join("\n");
    if text.is_empty()
        && let Some(icon) = icons.first()
    {
        text = icon.clone();
    }
    Plain { text, icons }
}

/// The most characters a line of a node's or an edge's text holds before Mermaid wraps it:
/// Mermaid draws those texts at most `flowchart.wrappingWidth` wide (200 px), breaking longer
/// lines at spaces, which in its default 16 px font is about this many characters.
pub(super) const WRAP_CHARS: usize = 26;

/// `text` with each line longer than `width` characters broken at spaces, as Mermaid wraps
/// a node's or an edge's text; a word longer than `width` keeps a line of its own, whole.
pub(super) fn wrapped(text: &str, width: usize) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        let mut current = String::new();
        for word in line.split(' ') {
            let fits = current.chars().count() + 1 + word.chars().count() <= width;
            if current.is_empty() || !fits {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                current.push_str(word);
            } else {
                current.push(' ');
                current.push_str(word);
            }
        }
        out.push(current);
    }
    out.join("\n")
}

/// Line breaks as written: raw new lines, `<br>` in any of its forms, and a literal `\n`.
fn break_lines(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(len) = br_tag(rest)
        {
            out.push('\n');
            rest = &rest[len..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("\\n") {
            out.push('\n');
            rest = after;
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The length of a `<br>`, `<br/>` or `<br />` tag (any case) at the start of `s`.
fn br_tag(s: &str) -> Option<usize> {
    let after = s.get(1..3)?;
    if !after.eq_ignore_ascii_case("br") {
        return None;
    }
    let tail = &s[3..];
    let close = tail.find('>')?;
    tail[..close]
        .chars()
        .all(|c| c == '/' || c.is_whitespace())
        .then_some(3 + close + 1)
}

/// `line` without its HTML tags (`<small>`, `</b>`, `<span style=…>`): a `<` opens a tag
/// only when a letter, `/` or `!` follows it and a `>` closes it on the line.
fn strip_tags(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        let opens = c == '<'
            && rest[1..]
                .chars()
                .next()
                .is_some_and(|n| n.is_ascii_alphabetic() || n == '/' || n == '!');
        if opens && let Some(close) = rest.find('>') {
            rest = &rest[close + 1..];
            out.push(' ');
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A markdown line without its emphasis markers (`**`, `__`, `*`, `_` around words) and
/// code backticks.
fn strip_markdown(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    for (i, &c) in chars.iter().enumerate() {
        let marker = match c {
            '*' | '`' => true,
            // `_` marks emphasis at a word's edge, not inside snake_case.
            '_' => {
                let before = i.checked_sub(1).and_then(|j| chars.get(j));
                let after = chars.get(i + 1);
                let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric());
                !(word(before) && word(after))
            }
            _ => false,
        };
        if !marker {
            out.push(c);
        }
    }
    out
}

/// Mermaid's entity codes (`#quot;`, `#9829;`, `#x2665;`) and HTML's (`&amp;`, `&#35;`,
/// `&nbsp` with or without its `;`) as the characters they stand for.
fn decode_entities(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if (c == '#' || c == '&')
            && let Some((decoded, len)) = entity(&rest[1..], c == '&')
        {
            out.push(decoded);
            rest = &rest[1 + len..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The entity after its `#` or `&`: the character and the length read (with the `;`).
/// HTML's few legacy names (`&nbsp`, `&amp`, `&lt`, `&gt`, `&quot`) may omit the `;`.
fn entity(s: &str, html: bool) -> Option<(char, usize)> {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
        .unwrap_or(s.len());
    let name = &s[..end];
    let closed = s[end..].starts_with(';');
    let numeric = name.strip_prefix('#').filter(|_| html).unwrap_or(name);
    let from_number = if let Some(hex) = numeric
        .strip_prefix('x')
        .or_else(|| numeric.strip_prefix('X'))
    {
        u32::from_str_radix(hex, 16).ok()
    } else if numeric.chars().all(|c| c.is_ascii_digit()) && !numeric.is_empty() {
        numeric.parse().ok()
    } else {
        None
    };
    if closed && let Some(c) = from_number.and_then(char::from_u32) {
        return Some((c, end + 1));
    }
    let named = match name {
        "nbsp" => ' ',
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "hearts" => '♥',
        "copy" => '©',
        "reg" => '®',
        "deg" => '°',
        "middot" => '·',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "rarr" => '→',
        "larr" => '←',
        _ => return None,
    };
    let legacy = html && matches!(name, "nbsp" | "amp" | "lt" | "gt" | "quot");
    if closed {
        Some((named, end + 1))
    } else if legacy {
        Some((named, end))
    } else {
        None
    }
}

/// `line` without its `fa:fa-name` icons (also `fab:`, `fas:`, `far:`, `fal:`), whose names
/// go to `icons`.
fn take_icons(line: &str, icons: &mut Vec<String>) -> String {
    line.split(' ')
        .filter(|word| {
            let icon = ["fa:fa-", "fab:fa-", "fas:fa-", "far:fa-", "fal:fa-"]
                .iter()
                .find_map(|p| word.strip_prefix(p))
                .filter(|name| {
                    !name.is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                });
            if let Some(name) = icon {
                icons.push(name.to_owned());
            }
            icon.is_none()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(raw: &str) -> String {
        plain(&Label::text(raw)).text
    }

    #[test]
    fn line_breaks_in_every_form() {
        assert_eq!(
            text("Rounded<br>square<BR/>shape<br />x"),
            "Rounded\nsquare\nshape\nx"
        );
        assert_eq!(text("OTEL\n             SDK"), "OTEL\nSDK");
        assert_eq!(text("a\\nb"), "a\nb");
        assert_eq!(text("Two line<br/>edge comment"), "Two line\nedge comment");
    }

    #[test]
    fn tags_and_entities_become_text() {
        assert_eq!(
            text("<b>bold</b> and <small>small</small>"),
            "bold and small"
        );
        assert_eq!(
            text("A #quot;quote#quot; #9829; &amp; b"),
            "A \"quote\" ♥ & b"
        );
        assert_eq!(text("&nbsp"), "");
        assert_eq!(text("x&nbsp;y &#35; &lt;tag&gt;"), "x y # <tag>");
        assert_eq!(text("a < b > c"), "a < b > c");
        assert_eq!(text("#1 issue & #no"), "#1 issue & #no");
    }

    #[test]
    fn markdown_loses_its_markers_only_in_markdown() {
        let md = Label {
            raw: "The **cat**\n  in the _hat_ and snake_case `code`".into(),
            kind: Kind::Markdown,
        };
        assert_eq!(plain(&md).text, "The cat\nin the hat and snake_case code");
        assert_eq!(text("Pop _pA_ **x**"), "Pop _pA_ **x**");
    }

    #[test]
    fn long_lines_wrap_at_spaces_as_mermaid_wraps_them() {
        assert_eq!(
            wrapped("addVertex(id, textObj, type, style,\nclasses", WRAP_CHARS),
            "addVertex(id, textObj,\ntype, style,\nclasses"
        );
        assert_eq!(wrapped("short", 26), "short");
        assert_eq!(wrapped("exactly ten", 11), "exactly ten");
        assert_eq!(
            wrapped("a verylongwordthatfitsnowhere b", 6),
            "a\nverylongwordthatfitsnowhere\nb"
        );
        assert_eq!(wrapped("", 26), "");
    }

    #[test]
    fn icons_are_taken_out_and_named() {
        let p = plain(&Label::text("fa:fa-car Car"));
        assert_eq!((p.text.as_str(), p.icons), ("Car", vec!["car".to_owned()]));
        assert_eq!(text("fa:fa-twitter"), "twitter");
    }
}
