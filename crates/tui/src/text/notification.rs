//! A message for the user: what the status bar shows and the log keeps, at its level.

use crate::theme::Role;

/// How much a notification matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// What just happened.
    Info,
    /// Something to look at.
    Warning,
    /// Something failed.
    Error,
}

impl Level {
    /// How a message of this level looks: its mark (none for an information) and its style.
    pub fn look(self) -> (&'static str, Role) {
        match self {
            Level::Error => ("✗", Role::Error),
            Level::Warning => ("!", Role::Warning),
            Level::Info => ("", Role::Success),
        }
    }
}

/// A message for the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    /// How much it matters.
    pub level: Level,
    /// What it says.
    pub text: String,
}

impl Notification {
    /// What just happened.
    pub fn info(text: impl Into<String>) -> Notification {
        Notification {
            level: Level::Info,
            text: text.into(),
        }
    }

    /// Something to look at.
    pub fn warning(text: impl Into<String>) -> Notification {
        Notification {
            level: Level::Warning,
            text: text.into(),
        }
    }

    /// Something failed.
    pub fn error(text: impl Into<String>) -> Notification {
        Notification {
            level: Level::Error,
            text: text.into(),
        }
    }
}
