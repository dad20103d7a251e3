//! Confirmation of destructive commands: asked on a terminal, `--yes` otherwise.

use std::io::{BufRead, IsTerminal, Write};

use super::Failure;

/// The `--yes` flag of a destructive command.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Yes {
    /// Do it without asking (required when stdin or stderr is not a terminal).
    #[arg(short, long)]
    pub yes: bool,
}

impl Yes {
    /// Goes ahead when `--yes` was given or the person at the terminal says yes to `question`.
    /// Without a terminal to ask, refuses with a usage error.
    pub(crate) fn confirm(self, question: &str) -> Result<(), Failure> {
        if self.yes {
            return Ok(());
        }
        if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
            return Err(Failure::Usage(format!(
                "{question}: refusing without --yes (no terminal to ask)"
            )));
        }
        eprint!("{question}? [y/N] ");
        std::io::stderr().flush().ok();
        let mut answer = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut answer)
            .map_err(|e| Failure::Other(anyhow::anyhow!("cannot read the answer: {e}")))?;
        if matches!(answer.trim().to_lowercase().as_str(), "y" | "yes") {
            Ok(())
        } else {
            Err(Failure::Cancelled)
        }
    }
}
