//! Copy to the clipboard with OSC 52, which terminals honour over SSH too.

use std::io::Write;

use base64::Engine;

/// The escape sequence that asks the terminal to put `text` on the clipboard.
pub fn osc52(text: &str) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\x1b]52;c;{encoded}\x07")
}

/// Writes the OSC 52 sequence for `text` to `out`.
pub fn copy(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(osc52(text).as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    #[test]
    fn encodes_as_base64_in_an_osc_52_sequence() {
        assert_eq!(super::osc52("hi"), "\x1b]52;c;aGk=\x07");
    }
}
