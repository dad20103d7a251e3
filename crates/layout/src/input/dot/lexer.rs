//! DOT's tokens, as Graphviz's scanner makes them: ids (plain, numerals, quoted strings with
//! `+` concatenation and backslash-newline continuations, HTML strings), the edge operators
//! and punctuation, each with the line it starts on. Comments (`//`, `/* */`, lines starting
//! with `#`) and white space (CRLF too) are skipped.

/// What kind of id a token is: it decides how a label is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    /// Letters, digits and `_` (not starting with a digit), or a numeral.
    Plain,
    /// A double-quoted string (its escapes other than `\"` kept for the label reader).
    Quoted,
    /// An HTML string `<...>` (its text is markup).
    Html,
}

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// An id, with its kind.
    Id(String, IdKind),
    /// `->`.
    Arrow,
    /// `--`.
    Line,
    /// `{`.
    Open,
    /// `}`.
    Close,
    /// `[`.
    OpenAttrs,
    /// `]`.
    CloseAttrs,
    /// `=`.
    Equals,
    /// `;`.
    Semicolon,
    /// `,`.
    Comma,
    /// `:`.
    Colon,
}

impl Tok {
    /// How the token is named in a message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Id(text, IdKind::Html) => format!("<{}>", shorten(text)),
            Tok::Id(text, IdKind::Quoted) => format!("\"{}\"", shorten(text)),
            Tok::Id(text, IdKind::Plain) => format!("`{}`", shorten(text)),
            Tok::Arrow => "`->`".into(),
            Tok::Line => "`--`".into(),
            Tok::Open => "`{`".into(),
            Tok::Close => "`}`".into(),
            Tok::OpenAttrs => "`[`".into(),
            Tok::CloseAttrs => "`]`".into(),
            Tok::Equals => "`=`".into(),
            Tok::Semicolon => "`;`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Colon => "`:`".into(),
        }
    }
}

/// At most 30 characters of a token's text, for messages.
fn shorten(text: &str) -> String {
    if text.chars().count() <= 30 {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(30).collect::<String>())
    }
}

/// A token and the line it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its line.
    pub line: usize,
}

/// Why the text could not be split into tokens: the line and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    /// The line (1-based).
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

/// Splits DOT text into tokens.
pub fn tokens(text: &str) -> Result<Vec<Token>, LexError> {
    let mut lexer = Lexer {
        chars: text.chars().collect(),
        at: 0,
        line: 1,
        out: Vec::new(),
    };
    lexer.run()?;
    Ok(lexer.out)
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
    out: Vec<Token>,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    /// Takes one character, counting lines.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn push(&mut self, tok: Tok, line: usize) {
        self.out.push(Token { tok, line });
    }

    fn error(&self, line: usize, message: impl Into<String>) -> LexError {
        LexError {
            line,
            message: message.into(),
        }
    }

    /// Whether the scanner stands at the start of a line (only white space before it).
    fn at_line_start(&self) -> bool {
        self.chars[..self.at]
            .iter()
            .rev()
            .take_while(|&&c| c != '\n')
            .all(|c| c.is_whitespace())
    }

    fn run(&mut self) -> Result<(), LexError> {
        while let Some(c) = self.peek(0) {
            let line = self.line;
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '#' if self.at_line_start() => self.skip_line(),
                '/' if self.peek(1) == Some('/') => self.skip_line(),
                '/' if self.peek(1) == Some('*') => self.skip_block()?,
                '"' => {
                    let text = self.quoted()?;
                    self.concatenate(text, line)?;
                }
                '<' => {
                    let text = self.html()?;
                    self.push(Tok::Id(text, IdKind::Html), line);
                }
                '-' if self.peek(1) == Some('>') => {
                    self.at += 2;
                    self.push(Tok::Arrow, line);
                }
                '-' if self.peek(1) == Some('-') => {
                    self.at += 2;
                    self.push(Tok::Line, line);
                }
                '-' | '.' | '0'..='9' => self.numeral(line)?,
                c if is_letter(c) => {
                    let text = self.take_while(|c| is_letter(c) || c.is_ascii_digit());
                    self.push(Tok::Id(text, IdKind::Plain), line);
                }
                '{' | '}' | '[' | ']' | '=' | ';' | ',' | ':' => {
                    self.bump();
                    let tok = match c {
                        '{' => Tok::Open,
                        '}' => Tok::Close,
                        '[' => Tok::OpenAttrs,
                        ']' => Tok::CloseAttrs,
                        '=' => Tok::Equals,
                        ';' => Tok::Semicolon,
                        ',' => Tok::Comma,
                        _ => Tok::Colon,
                    };
                    self.push(tok, line);
                }
                '\\' if matches!(self.peek(1), Some('\n' | '\r')) => {
                    // A line continuation between tokens joins nothing.
                    self.bump();
                }
                other => {
                    return Err(self.error(line, format!("unexpected character `{other}`")));
                }
            }
        }
        Ok(())
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut text = String::new();
        while let Some(c) = self.peek(0).filter(|&c| keep(c)) {
            text.push(c);
            self.bump();
        }
        text
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                return;
            }
            self.bump();
        }
    }

    fn skip_block(&mut self) -> Result<(), LexError> {
        let line = self.line;
        self.at += 2;
        loop {
            match self.bump() {
                Some('*') if self.peek(0) == Some('/') => {
                    self.bump();
                    return Ok(());
                }
                Some(_) => {}
                None => return Err(self.error(line, "a comment `/*` is not closed with `*/`")),
            }
        }
    }

    /// A numeral: `-`? then digits with at most one `.`. A letter right after it starts
    /// another token, as in Graphviz (which warns of it).
    fn numeral(&mut self, line: usize) -> Result<(), LexError> {
        let mut text = String::new();
        if self.peek(0) == Some('-') {
            text.push('-');
            self.bump();
        }
        let mut dot = false;
        while let Some(c) = self.peek(0) {
            if c.is_ascii_digit() {
                text.push(c);
            } else if c == '.' && !dot {
                dot = true;
                text.push(c);
            } else {
                break;
            }
            self.bump();
        }
        if !text.chars().any(|c| c.is_ascii_digit()) {
            return Err(self.error(
                line,
                format!("unexpected `{text}` (an id, a number or an edge operator was expected)"),
            ));
        }
        self.push(Tok::Id(text, IdKind::Plain), line);
        Ok(())
    }

    /// A double-quoted string without its quotes: `\"` becomes `"`, a backslash before a line
    /// break joins the lines, other backslashes stay for the label reader.
    fn quoted(&mut self) -> Result<String, LexError> {
        let line = self.line;
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('"') => return Ok(text),
                Some('\\') => match self.peek(0) {
                    Some('"') => {
                        self.bump();
                        text.push('"');
                    }
                    Some('\n') => {
                        self.bump();
                    }
                    Some('\r') if self.peek(1) == Some('\n') => {
                        self.bump();
                        self.bump();
                    }
                    _ => text.push('\\'),
                },
                Some('\r') if self.peek(0) == Some('\n') => {}
                Some(c) => text.push(c),
                None => {
                    return Err(self.error(line, "a string opened with `\"` is not closed"));
                }
            }
        }
    }

    /// `"a" + "b"`: quoted strings joined by `+` are one id.
    fn concatenate(&mut self, mut text: String, line: usize) -> Result<(), LexError> {
        loop {
            let save = (self.at, self.line);
            self.skip_blank();
            if self.peek(0) != Some('+') {
                (self.at, self.line) = save;
                break;
            }
            self.bump();
            self.skip_blank();
            if self.peek(0) != Some('"') {
                return Err(self.error(self.line, "`+` must be followed by a quoted string"));
            }
            text.push_str(&self.quoted()?);
        }
        self.push(Tok::Id(text, IdKind::Quoted), line);
        Ok(())
    }

    /// White space and comments (between `"a"` and `+`).
    fn skip_blank(&mut self) {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => self.skip_line(),
                (Some('/'), Some('*')) => {
                    if self.skip_block().is_err() {
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// An HTML string: from `<` to its matching `>`, without the outer pair.
    fn html(&mut self) -> Result<String, LexError> {
        let line = self.line;
        self.bump();
        let mut depth = 1;
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('<') => {
                    depth += 1;
                    text.push('<');
                }
                Some('>') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(text);
                    }
                    text.push('>');
                }
                Some(c) => text.push(c),
                None => {
                    return Err(self.error(line, "an HTML string opened with `<` is not closed"));
                }
            }
        }
    }
}

/// A character that may start a plain id: a letter, `_`, or any character beyond ASCII.
fn is_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || !c.is_ascii()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        tokens(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    fn id(text: &str, kind: IdKind) -> Tok {
        Tok::Id(text.into(), kind)
    }

    #[test]
    fn ids_of_every_kind() {
        assert_eq!(
            toks("a_1 -3.5 .5 \"q \\\"x\\\" \\n\" <<b>h</b>> é"),
            vec![
                id("a_1", IdKind::Plain),
                id("-3.5", IdKind::Plain),
                id(".5", IdKind::Plain),
                id("q \"x\" \\n", IdKind::Quoted),
                id("<b>h</b>", IdKind::Html),
                id("é", IdKind::Plain),
            ]
        );
    }

    #[test]
    fn operators_and_punctuation() {
        assert_eq!(
            toks("a->b--c{}[]=;,:"),
            vec![
                id("a", IdKind::Plain),
                Tok::Arrow,
                id("b", IdKind::Plain),
                Tok::Line,
                id("c", IdKind::Plain),
                Tok::Open,
                Tok::Close,
                Tok::OpenAttrs,
                Tok::CloseAttrs,
                Tok::Equals,
                Tok::Semicolon,
                Tok::Comma,
                Tok::Colon,
            ]
        );
    }

    #[test]
    fn comments_crlf_and_lines() {
        let t = tokens("// one\r\n# two\r\n/* three\r\n */ a /* x */ b\r\n  c\n").unwrap();
        let lines: Vec<(Tok, usize)> = t.into_iter().map(|t| (t.tok, t.line)).collect();
        assert_eq!(lines[0], (id("a", IdKind::Plain), 4));
        assert_eq!(lines[1], (id("b", IdKind::Plain), 4));
        assert_eq!(lines[2], (id("c", IdKind::Plain), 5));
        assert!(
            tokens("a # b").is_err(),
            "`#` only starts a comment at a line's start"
        );
    }

    #[test]
    fn concatenation_and_continuation() {
        assert_eq!(
            toks("\"ab\\\ncd\" + \"ef\"\r\n + /* c */ \"g\" x"),
            vec![id("abcdefg", IdKind::Quoted), id("x", IdKind::Plain)]
        );
        assert_eq!(toks("\"a\\\r\nb\""), vec![id("ab", IdKind::Quoted)]);
    }

    #[test]
    fn a_number_runs_into_a_letter_as_two_tokens() {
        assert_eq!(
            toks("1a"),
            vec![id("1", IdKind::Plain), id("a", IdKind::Plain)]
        );
    }

    #[test]
    fn unclosed_things_are_refused_at_their_line() {
        for (text, line) in [
            ("a\n\"open\n", 2),
            ("a\n\n<b\n", 3),
            ("/* a\n", 1),
            ("a\n$", 2),
            ("\"a\" + b", 1),
            ("- a", 1),
        ] {
            let e = tokens(text).unwrap_err();
            assert_eq!(e.line, line, "{text}: {}", e.message);
        }
    }
}
