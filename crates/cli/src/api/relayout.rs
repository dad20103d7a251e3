//! A JSON object laid out again as it streams through, piece by piece: indented the way
//! `serde_json::to_string_pretty` indents (two spaces, `"key": value`, `{}` and `[]` when empty)
//! or compact on one line. Strings, numbers and literals pass through as they are, so nothing is
//! parsed into values and memory does not grow with the text.
//!
//! Only the structure is checked (one object at the top, brackets that match, strings that end,
//! nothing after the end), not the tokens in between: the text comes from a JSON server, and the
//! check is there to stop an answer that is plainly something else.

use std::io::Write;

/// How the JSON is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One member or element a line, indented by two spaces a level.
    Indented,
    /// All on one line, no white space outside strings.
    Compact,
}

/// Why the text could not be laid out.
#[derive(Debug, thiserror::Error)]
pub enum RelayoutError {
    /// The text is not one JSON object.
    #[error("{0}")]
    Malformed(String),
    /// The output could not be written.
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// Lays out the JSON text written to it onto `out`.
pub struct Relayout<W: Write> {
    out: W,
    layout: Layout,
    /// The closing bracket each open object or array expects, innermost last.
    open: Vec<u8>,
    /// An opening bracket was just written: its line break waits to see whether it is empty.
    just_opened: bool,
    in_string: bool,
    /// In a string, after a backslash.
    escaped: bool,
    /// The top-level object has closed.
    closed: bool,
    /// Bytes taken before the current piece, for error positions.
    offset: usize,
}

impl<W: Write> Relayout<W> {
    /// A layout onto `out` (buffer it: this writes small pieces).
    pub fn new(out: W, layout: Layout) -> Relayout<W> {
        Relayout {
            out,
            layout,
            open: Vec::new(),
            just_opened: false,
            in_string: false,
            escaped: false,
            closed: false,
            offset: 0,
        }
    }

    /// Takes the next piece of the text; pieces may split it anywhere.
    pub fn write(&mut self, text: &[u8]) -> Result<(), RelayoutError> {
        let mut at = 0;
        while at < text.len() {
            if self.in_string {
                at = self.copy_string(text, at)?;
                continue;
            }
            let byte = text[at];
            at += 1;
            if !byte.is_ascii_whitespace() {
                self.token(byte, self.offset + at - 1)?;
            }
        }
        self.offset += text.len();
        Ok(())
    }

    /// Checks that the text was one whole object, ends the output with a line break, flushes it
    /// and gives it back.
    pub fn finish(mut self) -> Result<W, RelayoutError> {
        if !self.closed {
            return Err(RelayoutError::Malformed(format!(
                "the JSON ends early, after {} bytes",
                self.offset
            )));
        }
        self.out.write_all(b"\n")?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// Copies string bytes from `at` up to and including the closing quote; returns where the
    /// string ended (or the end of the piece).
    fn copy_string(&mut self, text: &[u8], from: usize) -> Result<usize, RelayoutError> {
        let mut at = from;
        while at < text.len() {
            let byte = text[at];
            at += 1;
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
            } else if byte == b'"' {
                self.in_string = false;
                break;
            }
        }
        self.out.write_all(&text[from..at])?;
        Ok(at)
    }

    /// One byte of structure or of a scalar, at `position` in the whole text.
    fn token(&mut self, byte: u8, position: usize) -> Result<(), RelayoutError> {
        if self.closed || (self.open.is_empty() && byte != b'{') {
            return Err(self.unexpected(byte, position));
        }
        if self.just_opened {
            self.just_opened = false;
            if self.open.last() == Some(&byte) {
                return self.close(byte, false);
            }
            self.line_break()?;
        }
        match byte {
            b'{' | b'[' => {
                self.out.write_all(&[byte])?;
                self.open.push(if byte == b'{' { b'}' } else { b']' });
                self.just_opened = self.layout == Layout::Indented;
            }
            b'}' | b']' if self.open.last() == Some(&byte) => self.close(byte, true)?,
            b'}' | b']' => return Err(self.unexpected(byte, position)),
            b',' => {
                self.out.write_all(b",")?;
                self.line_break()?;
            }
            b':' if self.layout == Layout::Indented => self.out.write_all(b": ")?,
            b'"' => {
                self.out.write_all(b"\"")?;
                self.in_string = true;
            }
            _ => self.out.write_all(&[byte])?,
        }
        Ok(())
    }

    /// The error for a byte that has no place where it stands.
    fn unexpected(&self, byte: u8, position: usize) -> RelayoutError {
        let shown = if byte.is_ascii_graphic() {
            format!("`{}`", byte as char)
        } else {
            format!("byte 0x{byte:02x}")
        };
        let expected = if self.closed {
            "nothing after the end of the object"
        } else if self.open.is_empty() {
            "a JSON object"
        } else {
            "the structure to match"
        };
        RelayoutError::Malformed(format!(
            "unexpected {shown} at byte {position} (expected {expected})"
        ))
    }

    /// Closes the innermost object or array, on a line of its own unless it is empty.
    fn close(&mut self, bracket: u8, own_line: bool) -> Result<(), RelayoutError> {
        self.open.pop();
        if own_line {
            self.line_break()?;
        }
        self.out.write_all(&[bracket])?;
        self.closed = self.open.is_empty();
        Ok(())
    }

    /// A new line indented to the current depth (nothing when compact).
    fn line_break(&mut self) -> std::io::Result<()> {
        const SPACES: &[u8] = &[b' '; 64];
        if self.layout == Layout::Compact {
            return Ok(());
        }
        self.out.write_all(b"\n")?;
        let mut indent = self.open.len() * 2;
        while indent > 0 {
            let run = indent.min(SPACES.len());
            self.out.write_all(&SPACES[..run])?;
            indent -= run;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// The text laid out when written in pieces of `piece` bytes.
    fn laid_out(text: &str, layout: Layout, piece: usize) -> Result<String, String> {
        let mut relayout = Relayout::new(Vec::new(), layout);
        for part in text.as_bytes().chunks(piece.max(1)) {
            relayout.write(part).map_err(|e| e.to_string())?;
        }
        let out = relayout.finish().map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn sample() -> Value {
        json!({
            "o1": {"type": "label", "data": {"text": "a \"quoted\" {brace} [x], y: z\\", "e": {}, "l": []}},
            "o2": {"type": "component", "data": {
                "position": {"x": -1.5, "y": 2e10},
                "meta": {"ok": true, "none": null, "list": [1, [2, {}], {"k": "v"}], "unicode": "é ✓ \u{1}"}
            }},
            "": {"type": "", "data": {"": ""}}
        })
    }

    #[test]
    fn layouts_match_serde_json_whatever_the_pieces() {
        let value = sample();
        let pretty = serde_json::to_string_pretty(&value).unwrap() + "\n";
        let compact = serde_json::to_string(&value).unwrap() + "\n";
        for source in [&pretty, &compact] {
            for piece in 1..=source.len() {
                assert_eq!(
                    laid_out(source, Layout::Indented, piece).as_ref(),
                    Ok(&pretty),
                    "{piece}"
                );
                assert_eq!(
                    laid_out(source, Layout::Compact, piece).as_ref(),
                    Ok(&compact),
                    "{piece}"
                );
            }
        }
        assert_eq!(laid_out(" {} ", Layout::Indented, 1), Ok("{}\n".into()));
    }

    #[test]
    fn what_is_not_one_object_is_refused() {
        let refused = |text: &str| laid_out(text, Layout::Indented, 3).unwrap_err();
        assert_eq!(
            refused("[1]"),
            "unexpected `[` at byte 0 (expected a JSON object)"
        );
        assert_eq!(
            refused("  <html>"),
            "unexpected `<` at byte 2 (expected a JSON object)"
        );
        assert_eq!(
            refused(r#"{"a": [1}"#),
            "unexpected `}` at byte 8 (expected the structure to match)"
        );
        assert_eq!(
            refused("{} x"),
            "unexpected `x` at byte 3 (expected nothing after the end of the object)"
        );
        assert_eq!(refused(""), "the JSON ends early, after 0 bytes");
        assert_eq!(refused(r#"{"a": "}"#), "the JSON ends early, after 8 bytes");
        assert_eq!(refused(r#"{"a": {}"#), "the JSON ends early, after 8 bytes");
    }
}
