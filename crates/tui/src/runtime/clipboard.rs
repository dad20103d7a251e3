//! Copy to the clipboard with OSC 52 (crossterm's `CopyToClipboard`), which terminals honour
//! over SSH too.

use std::io::Write;

use crossterm::clipboard::CopyToClipboard;

/// Asks the terminal on `out` to put `text` on the clipboard.
pub fn copy(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    crossterm::execute!(out, CopyToClipboard::to_clipboard_from(text))
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_base64_in_an_osc_52_sequence() {
        let mut out = Vec::new();
        super::copy(&mut out, "hi").unwrap();
        assert_eq!(out, b"\x1b]52;c;aGk=\x1b\\");
    }
}
