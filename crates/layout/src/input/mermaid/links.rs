//! Link operators, as Mermaid's lexer reads them: `-->`, `---`, `-.->`, `==>`, `~~~`, the
//! circle and cross ends (`--o`, `--x`, `o--o`, `x--x`), both ends (`<-->`), the long forms
//! (`---->`, `-...->`, `====>`), whose extra length is the least number of layers the edge
//! spans, an edge id before it (`e1@-->`), and its text (`-->|text|`, `-- text -->`,
//! `-. text .->`, `== text ==>`).

use super::text::{Kind, Label};

/// What an end of a link is drawn with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Head {
    /// Nothing: the line just ends.
    None,
    /// An arrowhead.
    Arrow,
    /// A small circle (`--o`).
    Circle,
    /// A cross (`--x`).
    Cross,
}

/// How a link's line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stroke {
    /// A plain line (`--`).
    Normal,
    /// A thick line (`==`).
    Thick,
    /// A dotted line (`-.-`).
    Dotted,
    /// No line at all (`~~~`): laid out, not drawn.
    Invisible,
}

/// A link operator as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Link {
    /// The head at its start (the left side).
    pub start: Head,
    /// The head at its end (the right side).
    pub end: Head,
    /// Its line.
    pub stroke: Stroke,
    /// Mermaid's length: 1 for `-->`, one more for each extra dash, dot or `=`.
    pub length: usize,
    /// Its text, if it has one.
    pub text: Option<Label>,
    /// Its id, when written before it (`e1@-->`).
    pub id: Option<String>,
}

/// Reads a link operator (with its id and text) at the start of `s`: the link and the number
/// of bytes read, `Ok(None)` when no link starts there, `Err` when one starts and is broken.
pub(super) fn link(s: &str) -> Result<Option<(Link, usize)>, String> {
    let (id, at) = match edge_id(s) {
        Some((id, len)) => (Some(id), len),
        None => (None, 0),
    };
    let Some((mut link, len)) = operator(&s[at..])? else {
        return Ok(None);
    };
    link.id = id;
    let mut read = at + len;
    // `-->|text|`: the text after the operator, between pipes.
    let after = &s[read..];
    let gap = after.len() - after.trim_start_matches([' ', '\t']).len();
    if let Some(inner) = after[gap..].strip_prefix('|') {
        let (label, len) =
            delimited(inner, "|").ok_or("the link's text `|…|` is not closed with a second `|`")?;
        link.text = Some(label);
        read += gap + 1 + len;
    }
    Ok(Some((link, read)))
}

/// An edge id written before its operator: `e1@` followed by a link.
fn edge_id(s: &str) -> Option<(String, usize)> {
    let word_end = s.find(|c: char| c.is_whitespace() || c == '"')?;
    let at = s[..word_end].find('@')?;
    if at == 0 {
        return None;
    }
    let after = &s[at + 1..];
    if after.starts_with('{') || operator(after).ok().flatten().is_none() {
        return None;
    }
    Some((s[..at].to_owned(), at + 1))
}

/// The operator at the start of `s`, with a text between its two halves if it has one.
fn operator(s: &str) -> Result<Option<(Link, usize)>, String> {
    if let Some(len) = whole(s) {
        return Ok(Some((destruct(&s[..len], None), len)));
    }
    // `-- text -->`, `== text ==>`, `-. text .->`: an opening half, text, a closing half.
    let Some((open_len, family)) = opening(s) else {
        return Ok(None);
    };
    let body = &s[open_len..];
    let body_start = body.len() - body.trim_start().len();
    let body = &body[body_start..];
    let (text, text_len) = if body.starts_with('"') {
        let (label, len) = quoted(body).ok_or("a quoted link text is not closed")?;
        (label, len)
    } else {
        let end = closing_at(body, family).ok_or_else(|| {
            format!(
                "the link `{}` with text is not closed (`-- text -->`, `== text ==>`, `-. text .->`)",
                s[..open_len].trim()
            )
        })?;
        (Label::text(body[..end].trim()), end)
    };
    let rest = &body[text_len..];
    let gap = rest.len() - rest.trim_start().len();
    let close_len = whole(&rest[gap..])
        .filter(|_| closing_at(&rest[gap..], family) == Some(0))
        .ok_or("the link's text is not followed by the rest of its link")?;
    let close = &rest[gap..gap + close_len];
    let mut link = destruct(close, Some(s[..open_len].trim()));
    link.text = Some(text).filter(|t| !t.raw.is_empty());
    Ok(Some((
        link,
        open_len + body_start + text_len + gap + close_len,
    )))
}

/// The family of a link: the character its line is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Dash,
    Thick,
    Dot,
}

/// The length of a whole operator (no text inside) at the start of `s`.
fn whole(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let lead = usize::from(matches!(b.first(), Some(b'x' | b'o' | b'<')));
    let run = |from: usize, c: u8| b[from..].iter().take_while(|&&x| x == c).count();
    // `~~~`, longer for more length.
    let tildes = run(0, b'~');
    if tildes >= 3 {
        return Some(tildes);
    }
    for line in [b'-', b'='] {
        let n = run(lead, line);
        if n >= 2 {
            let tip = matches!(b.get(lead + n), Some(b'x' | b'o' | b'>'));
            if tip {
                return Some(lead + n + 1);
            }
            if n >= 3 {
                return Some(lead + n);
            }
        }
    }
    // Dotted: `-?\.+-[xo>]?`.
    let mut at = lead;
    if b.get(at) == Some(&b'-') {
        at += 1;
    }
    let dots = run(at, b'.');
    if dots >= 1 && b.get(at + dots) == Some(&b'-') {
        at += dots + 1;
        if matches!(b.get(at), Some(b'x' | b'o' | b'>')) {
            at += 1;
        }
        return Some(at);
    }
    None
}

/// An opening half (`--`, `==`, `-.`, each maybe after `<`, `x` or `o`) followed by white space
/// or a quote, with its length and family.
fn opening(s: &str) -> Option<(usize, Family)> {
    let lead = usize::from(s.starts_with(['x', 'o', '<']));
    let body = &s[lead..];
    let family = if body.starts_with("--") {
        Family::Dash
    } else if body.starts_with("==") {
        Family::Thick
    } else if body.starts_with("-.") {
        Family::Dot
    } else {
        return None;
    };
    Some((lead + 2, family))
}

/// Where the closing half of a `family` link starts in `body` (its text before it).
fn closing_at(body: &str, family: Family) -> Option<usize> {
    let mut from = 0;
    loop {
        let at = from
            + match family {
                Family::Dash => body[from..].find("--")?,
                Family::Thick => body[from..].find("==")?,
                Family::Dot => body[from..].find('.')?,
            };
        // `-. text -.->`: the closing half of a dotted link may start with its dash.
        let start = if family == Family::Dot && at > 0 && body.as_bytes()[at - 1] == b'-' {
            at - 1
        } else {
            at
        };
        if whole(&body[start..]).is_some() {
            return Some(start);
        }
        from = at + 1;
    }
}

/// The kind of a whole operator, read as Mermaid's `destructLink` reads it; `open` is the
/// opening half of a link with text.
fn destruct(op: &str, open: Option<&str>) -> Link {
    let op = op.trim();
    let last = op.chars().last().unwrap_or('-');
    let first = op.chars().next().unwrap_or('-');
    let mut line = &op[..op.len() - last.len_utf8()];
    let mut end = Head::None;
    let mut start = Head::None;
    let tip = match last {
        'x' => Some(Head::Cross),
        'o' => Some(Head::Circle),
        '>' => Some(Head::Arrow),
        _ => None,
    };
    if let Some(head) = tip {
        end = head;
        let pair = match head {
            Head::Arrow => '<',
            Head::Cross => 'x',
            _ => 'o',
        };
        if first == pair {
            start = head;
            line = &line[1..];
        }
    }
    let mut stroke = if line.starts_with('=') {
        Stroke::Thick
    } else if line.starts_with('~') {
        Stroke::Invisible
    } else {
        Stroke::Normal
    };
    let mut length = line.chars().count().saturating_sub(1);
    let dots = line.matches('.').count();
    if dots > 0 {
        stroke = Stroke::Dotted;
        length = dots;
    }
    if let Some(open) = open {
        start = match open.chars().next() {
            Some('<') => Head::Arrow,
            Some('x') => Head::Cross,
            Some('o') => Head::Circle,
            _ => start,
        };
    }
    Link {
        start,
        end,
        stroke,
        length: length.max(1),
        text: None,
        id: None,
    }
}

/// A label inside `close` delimiters at the start of `s` (a quoted or markdown string, or bare
/// text), and the length read through the closing delimiter.
pub(super) fn delimited(s: &str, close: &str) -> Option<(Label, usize)> {
    let lead = s.len() - s.trim_start().len();
    let body = &s[lead..];
    if body.starts_with('"') {
        let (label, len) = quoted(body)?;
        let rest = &body[len..];
        let gap = rest.len() - rest.trim_start().len();
        if rest[gap..].starts_with(close) {
            return Some((label, lead + len + gap + close.len()));
        }
    }
    let end = s.find(close)?;
    Some((Label::text(s[..end].trim()), end + close.len()))
}

/// A quoted string (`"…"`) or a markdown string (`` "`…`" ``) at the start of `s`, and the
/// length read.
pub(super) fn quoted(s: &str) -> Option<(Label, usize)> {
    if let Some(inner) = s.strip_prefix("\"`") {
        let end = inner.find("`\"")?;
        let label = Label {
            raw: inner[..end].to_owned(),
            kind: Kind::Markdown,
        };
        return Some((label, 2 + end + 2));
    }
    let inner = s.strip_prefix('"')?;
    let end = inner.find('"')?;
    let label = Label {
        raw: inner[..end].to_owned(),
        kind: Kind::Quoted,
    };
    Some((label, 1 + end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> (Head, Head, Stroke, usize, Option<String>, usize) {
        let (l, len) = link(s).unwrap().unwrap_or_else(|| panic!("no link in {s}"));
        (
            l.start,
            l.end,
            l.stroke,
            l.length,
            l.text.map(|t| t.raw),
            len,
        )
    }

    #[test]
    fn every_operator() {
        use Head::*;
        use Stroke::*;
        for (op, start, end, stroke, length) in [
            ("-->", None, Arrow, Normal, 1),
            ("---", None, None, Normal, 1),
            ("-.->", None, Arrow, Dotted, 1),
            ("-.-", None, None, Dotted, 1),
            ("==>", None, Arrow, Thick, 1),
            ("===", None, None, Thick, 1),
            ("~~~", None, None, Invisible, 1),
            ("--o", None, Circle, Normal, 1),
            ("--x", None, Cross, Normal, 1),
            ("<-->", Arrow, Arrow, Normal, 1),
            ("o--o", Circle, Circle, Normal, 1),
            ("x--x", Cross, Cross, Normal, 1),
            ("<==>", Arrow, Arrow, Thick, 1),
            ("<-.->", Arrow, Arrow, Dotted, 1),
            ("---->", None, Arrow, Normal, 3),
            ("----", None, None, Normal, 2),
            ("-...->", None, Arrow, Dotted, 3),
            ("====>", None, Arrow, Thick, 3),
            ("~~~~", None, None, Invisible, 2),
        ] {
            let got = read(&format!("{op} B"));
            assert_eq!(
                got,
                (start, end, stroke, length, Option::None, op.len()),
                "{op}"
            );
        }
    }

    #[test]
    fn text_in_every_form() {
        let t = |s: &str| read(s).4.unwrap();
        assert_eq!(t("-->|Yes| C"), "Yes");
        assert_eq!(t("---->|No| E"), "No");
        assert_eq!(t("-- Yes --> C"), "Yes");
        assert_eq!(t("-- No ----> E"), "No");
        assert_eq!(read("-- No ----> E").3, 3);
        assert_eq!(t("-. maybe .-> C"), "maybe");
        assert_eq!(t("== heavy ==> C"), "heavy");
        assert_eq!(t("-- \"parentRef\" --> LS1"), "parentRef");
        assert_eq!(t("== \"Input\" ==> tx"), "Input");
        assert_eq!(
            t("-- Two line<br/>edge comment --> ro"),
            "Two line<br/>edge comment"
        );
        assert_eq!(t("--> |\"Checks /^\\s*graph/\"| D"), "Checks /^\\s*graph/");
        assert_eq!(t("-->|\"`**md**`\"| D"), "**md**");
        assert_eq!(t("-- a-b --> C"), "a-b");
        let (l, _) = link("<-- both --> C").unwrap().unwrap();
        assert_eq!((l.start, l.end), (Head::Arrow, Head::Arrow));
    }

    #[test]
    fn edge_ids() {
        let (l, len) = link("e1@--> B").unwrap().unwrap();
        assert_eq!((l.id.as_deref(), len), (Some("e1"), 6));
        assert!(link("A@{ shape: rect }").unwrap().is_none());
    }

    #[test]
    fn broken_and_absent_links() {
        assert!(link("-- never closed").is_err());
        assert!(link("-->|open").is_err());
        assert!(link("B").unwrap().is_none());
        assert!(link("-B").unwrap().is_none());
    }
}
