//! The object being edited changed, or went, on the server while its edits are unsaved: the
//! properties pane's banner says so and offers the diff, a reload, keeping on editing, or (when
//! it was deleted) creating it again. The buffer is never touched without the user's key.

use crate::keys::{Command, Context};
use crate::vocab::action::Cx;
use diagtui_model::{DiagramObject, Props};

/// What happened to the object on the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Elsewhere {
    /// It changed: the server's version now.
    Changed(DiagramObject),
    /// It was deleted.
    Deleted,
}

/// What the server did to the edited object, as last seen, and what the user chose to ignore.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerSide {
    now: Option<Elsewhere>,
    /// What "keep editing" was pressed on: no banner while the server stays so.
    ignored: Option<Elsewhere>,
}

impl ServerSide {
    /// Compares the server's version (`None`: gone) with what the edit started from.
    pub fn compare(&mut self, original: &Props, server: Option<&DiagramObject>) {
        self.now = match server {
            None => Some(Elsewhere::Deleted),
            Some(object) if object.data != *original => Some(Elsewhere::Changed(object.clone())),
            Some(_) => None,
        };
    }

    /// The edit was saved, the object now holding `original`: a change the server showed
    /// that is this very save (its change event can come before its answer) is no change made
    /// elsewhere.
    pub fn saved(&mut self, original: &Props) {
        if matches!(&self.now, Some(Elsewhere::Changed(object)) if object.data == *original) {
            self.now = None;
        }
    }

    /// What the banner is about, if it shows.
    pub fn shown(&self) -> Option<&Elsewhere> {
        self.now
            .as_ref()
            .filter(|now| Some(*now) != self.ignored.as_ref())
    }

    /// "Keep editing": no banner until the server changes again.
    pub fn ignore(&mut self) {
        self.ignored.clone_from(&self.now);
    }

    /// The banner's text, naming the keys of `context` (the pane's: view or edit mode, whose
    /// keys differ since letters type in edit mode) as the key table has them.
    pub fn banner(&self, context: Context, cx: &Cx) -> Option<String> {
        let key = |command| cx.key(context, command);
        Some(match self.shown()? {
            Elsewhere::Changed(_) => format!(
                "! changed on the server: {} diff · {} reload (drops your edit) · {} keep editing",
                key(Command::ServerDiff),
                key(Command::Reload),
                key(Command::Keep)
            ),
            Elsewhere::Deleted => format!(
                "! deleted on the server; your edit is kept: {} create it again · {} keep editing",
                key(Command::Recreate),
                key(Command::Keep)
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(text: &str) -> DiagramObject {
        DiagramObject {
            kind: "label".into(),
            data: json!({"text": text}).as_object().unwrap().clone(),
        }
    }

    #[test]
    fn the_banner_shows_a_change_until_ignored_and_again_for_the_next() {
        let original = object("a").data;
        let mut side = ServerSide::default();
        side.compare(&original, Some(&object("a")));
        assert_eq!(side.shown(), None, "unchanged");
        side.compare(&original, Some(&object("b")));
        assert_eq!(side.shown(), Some(&Elsewhere::Changed(object("b"))));
        side.ignore();
        assert_eq!(side.shown(), None);
        side.compare(&original, Some(&object("b")));
        assert_eq!(side.shown(), None, "the same change stays ignored");
        side.compare(&original, Some(&object("c")));
        assert_eq!(side.shown(), Some(&Elsewhere::Changed(object("c"))));
        side.compare(&original, None);
        assert_eq!(side.shown(), Some(&Elsewhere::Deleted));
    }
}
