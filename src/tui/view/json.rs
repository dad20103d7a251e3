//! JSON syntax highlighting of one line (the editor keeps one line per row).

use ratatui::style::{Color, Style};
use ratatui::text::Span;

/// Splits a line of JSON into styled spans: keys, strings, numbers, literals, punctuation.
pub fn highlight(line: &str) -> Vec<Span<'static>> {
    let chars: Vec<char> = line.chars().collect();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let style = match chars[i] {
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i = (i + 1).min(chars.len());
                let rest: String = chars[i..].iter().collect();
                if rest.trim_start().starts_with(':') {
                    Style::new().fg(Color::Cyan)
                } else {
                    Style::new().fg(Color::Green)
                }
            }
            c if c == '-' || c.is_ascii_digit() => {
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric() || "+-.".contains(chars[i]))
                {
                    i += 1;
                }
                Style::new().fg(Color::Magenta)
            }
            c if c.is_ascii_alphabetic() => {
                while i < chars.len() && chars[i].is_ascii_alphabetic() {
                    i += 1;
                }
                Style::new().fg(Color::Yellow)
            }
            _ => {
                i += 1;
                Style::new()
            }
        };
        spans.push(Span::styled(
            chars[start..i].iter().collect::<String>(),
            style,
        ));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_strings_numbers_and_literals_get_their_colours() {
        let spans = highlight(r#"  "text": "a \"b\"", "n": -1.5e3, "ok": true"#);
        let texts: Vec<_> = spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(texts.contains(&"\"text\""));
        assert!(texts.contains(&r#""a \"b\"""#));
        assert!(texts.contains(&"-1.5e3"));
        assert!(texts.contains(&"true"));
        let key = spans.iter().find(|s| s.content == "\"text\"").unwrap();
        assert_eq!(key.style.fg, Some(Color::Cyan));
    }
}
