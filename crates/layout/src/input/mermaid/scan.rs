//! A cursor over the whole flowchart text that knows its line: statements, labels and links
//! may run over several lines, and every refusal and note names where it happened.

/// A position in the text, and the lines' starts to name its line.
pub(super) struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    line_starts: Vec<usize>,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`.
    pub fn new(text: &'a str) -> Scanner<'a> {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        Scanner {
            text,
            pos: 0,
            line_starts,
        }
    }

    /// The text not read yet.
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// The line (1-based) of the position.
    pub fn line(&self) -> usize {
        self.line_starts.partition_point(|&start| start <= self.pos)
    }

    /// The position, to come back to with [`Scanner::reset`].
    pub fn mark(&self) -> usize {
        self.pos
    }

    /// Comes back to a position [`Scanner::mark`] gave.
    pub fn reset(&mut self, mark: usize) {
        self.pos = mark;
    }

    /// Moves on by `len` bytes.
    pub fn advance(&mut self, len: usize) {
        self.pos = (self.pos + len).min(self.text.len());
    }

    /// Skips spaces and tabs (not line ends).
    pub fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.advance(rest.len() - rest.trim_start_matches([' ', '\t']).len());
    }

    /// Skips all white space, line ends among it.
    pub fn skip_blank(&mut self) {
        let rest = self.rest();
        self.advance(rest.len() - rest.trim_start().len());
    }

    /// Takes `token` if it comes next (no white space skipped).
    pub fn eat(&mut self, token: &str) -> bool {
        let found = self.rest().starts_with(token);
        if found {
            self.advance(token.len());
        }
        found
    }

    /// Whether a statement ends here (after spaces): the text's end, a line end or a `;`.
    pub fn at_statement_end(&self) -> bool {
        let rest = self.rest().trim_start_matches([' ', '\t', '\r']);
        rest.is_empty() || rest.starts_with(['\n', ';'])
    }

    /// Takes the rest of the line (without its end).
    pub fn rest_of_line(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest.find('\n').unwrap_or(rest.len());
        self.advance(end);
        &rest[..end]
    }

    /// Takes the rest of the statement: to the line end or the next `;`.
    pub fn rest_of_statement(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest.find(['\n', ';']).unwrap_or(rest.len());
        self.advance(end);
        &rest[..end]
    }

    /// Whether the next word (letters, digits, `_`) is `word`, followed by something that
    /// cannot continue an id.
    pub fn at_keyword(&self, word: &str) -> bool {
        self.rest().strip_prefix(word).is_some_and(|after| {
            after
                .chars()
                .next()
                .is_none_or(|c| !(is_id_char(c) || c == '-' || c == '.'))
        })
    }

    /// A node id as Mermaid's lexer reads one: letters, digits and `_!#$%'*+?\/` with `:`
    /// (not `:::`), `-` (not starting a link: `->`, `--`, `-.`), `=` (not `==`) and `.`
    /// inside.
    pub fn id(&mut self) -> Option<String> {
        let rest = self.rest();
        let bytes = rest.as_bytes();
        let mut end = 0;
        for (at, c) in rest.char_indices() {
            let next = bytes.get(at + 1).copied();
            let ok = match c {
                ':' => !rest[at..].starts_with(":::") && at > 0,
                '-' => !matches!(next, Some(b'>' | b'-' | b'.')),
                '=' => next != Some(b'='),
                '.' => at > 0,
                c => is_id_char(c),
            };
            if !ok {
                break;
            }
            end = at + c.len_utf8();
        }
        if end == 0 {
            return None;
        }
        self.advance(end);
        Some(rest[..end].to_owned())
    }
}

/// The characters an id is made of (besides `:`, `-`, `=` and `.` inside it).
fn is_id_char(c: char) -> bool {
    c.is_alphanumeric() || "_!#$%'*+?\\/`".contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_stop_where_links_start() {
        for (text, id) in [
            ("A-->B", "A"),
            ("CLI::parse-->x", "CLI::parse"),
            ("my-node.v2 --> x", "my-node.v2"),
            ("a-.->b", "a"),
            ("a==>b", "a"),
            ("a:::cls", "a"),
            ("Ao--oB", "Ao"),
            ("Начало[x]", "Начало"),
            ("e1@-->", "e1"),
        ] {
            assert_eq!(Scanner::new(text).id().as_deref(), Some(id), "{text}");
        }
        assert_eq!(Scanner::new("-->").id(), None);
    }

    #[test]
    fn lines_are_counted() {
        let mut s = Scanner::new("a\nb\n\nc");
        assert_eq!(s.line(), 1);
        s.advance(2);
        assert_eq!(s.line(), 2);
        s.advance(3);
        assert_eq!(s.line(), 4);
    }

    #[test]
    fn keywords_are_whole_words() {
        assert!(Scanner::new("end").at_keyword("end"));
        assert!(Scanner::new("end\n").at_keyword("end"));
        assert!(!Scanner::new("endpoint").at_keyword("end"));
        assert!(!Scanner::new("end-x").at_keyword("end"));
        assert!(Scanner::new("style a fill:#fff").at_keyword("style"));
    }
}
