//! Why an input was refused: the entry and the field at fault, when there are ones.

use std::fmt;

/// One reason an input is refused. The whole input is refused for it: nothing is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutError {
    /// The entry at fault (its id), if the problem lies in one.
    pub entry: Option<String>,
    /// The field (or setting, or line) at fault, if any.
    pub field: Option<String>,
    /// What is wrong, for people.
    pub message: String,
}

impl LayoutError {
    /// A problem with one field of one entry.
    pub fn field(entry: &str, field: &str, message: impl Into<String>) -> LayoutError {
        LayoutError {
            entry: Some(entry.to_owned()),
            field: Some(field.to_owned()),
            message: message.into(),
        }
    }

    /// A problem with a whole entry.
    pub fn entry(entry: &str, message: impl Into<String>) -> LayoutError {
        LayoutError {
            entry: Some(entry.to_owned()),
            field: None,
            message: message.into(),
        }
    }

    /// A problem with a setting (a query parameter) or a part of the input that is no entry.
    pub fn setting(name: &str, message: impl Into<String>) -> LayoutError {
        LayoutError {
            entry: None,
            field: Some(name.to_owned()),
            message: message.into(),
        }
    }

    /// A problem with the input as a whole.
    pub fn input(message: impl Into<String>) -> LayoutError {
        LayoutError {
            entry: None,
            field: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.entry, &self.field) {
            (Some(entry), Some(field)) => write!(f, "entry \"{entry}\", field {field}: "),
            (Some(entry), None) => write!(f, "entry \"{entry}\": "),
            (None, Some(field)) => write!(f, "{field}: "),
            (None, None) => Ok(()),
        }?;
        f.write_str(&self.message)
    }
}

impl std::error::Error for LayoutError {}

/// A result of this crate.
pub type LayoutResult<T> = Result<T, LayoutError>;
