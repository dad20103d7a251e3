//! Taking the terminal and giving it back: raw mode, the alternate screen, the mouse and
//! bracketed paste (a paste arrives as one event, never as keys); restored on every exit path,
//! panics included; handed over to `$VISUAL`/`$EDITOR` (on a private temporary file, removed
//! afterwards) and taken back.

use std::io::{self, Stdout, Write};
use std::process::Command;
use std::time::Duration;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, event, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use tempfile::NamedTempFile;

/// The terminal the app draws on.
pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Owns the terminal while the app runs; restores it when dropped.
pub struct Guard {
    /// The terminal.
    pub terminal: Term,
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Takes the terminal and installs a panic hook that gives it back before the panic report.
pub fn enter() -> io::Result<Guard> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    take()?;
    Ok(Guard {
        terminal: Terminal::new(CrosstermBackend::new(io::stdout()))?,
    })
}

fn take() -> io::Result<()> {
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste,
        cursor::Hide
    )
}

/// Gives the terminal back as it was. Safe to call more than once.
pub fn restore() {
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
}

/// The editor command: `$VISUAL`, else `$EDITOR`, else `vi`.
fn editor_command() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "vi".into())
}

/// A temporary file holding `text` for the editor: readable by its owner only (0600), in the
/// temp dir, removed when dropped.
pub fn editor_file(text: &str) -> io::Result<NamedTempFile> {
    let mut file = tempfile::Builder::new()
        .prefix("diagtui-")
        .suffix(".json")
        .tempfile()?;
    file.write_all(text.as_bytes())?;
    file.flush()?;
    Ok(file)
}

/// Hands the terminal to the editor on a private temporary file holding `text`; returns the
/// file's text when the editor exits, or why it could not be run. The terminal is taken back
/// either way, keys typed meanwhile are discarded, and the file is removed.
pub fn edit_externally(guard: &mut Guard, text: &str) -> Result<String, String> {
    let file = editor_file(text).map_err(|e| format!("cannot write the temporary file: {e}"))?;
    let path = file.path();
    restore();
    let command = editor_command();
    // Through the shell, so an editor given with arguments (`code --wait`) works.
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{command} \"$1\""))
        .arg("sh")
        .arg(path)
        .status();
    let taken = take();
    while event::poll(Duration::ZERO).unwrap_or(false) {
        let _ = event::read();
    }
    let _ = guard.terminal.clear();
    match (taken, status) {
        (Err(e), _) => Err(format!("cannot take the terminal back: {e}")),
        (_, Err(e)) => Err(format!("cannot run {command}: {e}")),
        (_, Ok(status)) if !status.success() => Err(format!("{command} exited with {status}")),
        _ => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_editor_file_is_private_and_removed_afterwards() {
        let file = editor_file("{\"text\": \"secret\"}").unwrap();
        let path = file.path().to_path_buf();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"text\": \"secret\"}"
        );
        drop(file);
        assert!(!path.exists());
    }
}
