//! The open document shown as it was at an earlier version (`Enter` in the history overlay):
//! read-only, its content read at that version, the objects changed since marked.

/// Which version the open document shows instead of its content now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Past {
    /// The version shown.
    pub version: u64,
    /// How many of its objects changed since (changed or deleted; marked in the tree and on
    /// the map), once the server said.
    pub changed: Option<usize>,
}

impl Past {
    /// The view of `version`, what changed since still to come.
    pub fn at(version: u64) -> Past {
        Past {
            version,
            changed: None,
        }
    }

    /// How a pane's title says what it shows, first: `version 12 read-only`.
    pub fn title(&self) -> String {
        format!("version {} read-only", self.version)
    }

    /// What a pane's title says last: ` · ◇ 3 changed since` (nothing until the server said).
    pub fn changed_note(&self) -> String {
        self.changed
            .map(|n| format!(" · ◇ {n} changed since"))
            .unwrap_or_default()
    }
}
