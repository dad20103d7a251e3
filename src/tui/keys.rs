//! Every key, by context, as the help overlay lists them. The README's key table says the same.

use super::app::Pane;

/// A key and what it does.
pub type KeyHelp = (&'static str, &'static str);

/// Keys that work in every pane.
pub const GLOBAL: &[KeyHelp] = &[
    ("Tab / Shift-Tab", "next / previous pane"),
    ("1 2 3", "documents, objects, properties pane"),
    ("↑↓ j k PgUp PgDn g G", "move"),
    ("/", "filter the list (↑↓ move, Enter keeps, Esc clears)"),
    ("Esc", "back out"),
    ("Ctrl-S", "save the properties (shows the diff first)"),
    ("R", "refresh everything (retry after an error)"),
    ("L", "request log (Esc, q or L closes)"),
    ("?", "this help"),
    ("q / Ctrl-C", "quit (asks when there are unsaved edits)"),
    ("mouse", "click selects and focuses, wheel scrolls"),
];

/// Keys of the documents pane.
pub const DOCS: &[KeyHelp] = &[
    ("Enter / → / l", "open the document"),
    ("n", "new document"),
    ("r", "rename"),
    ("c", "clone"),
    ("s", "share with an e-mail"),
    ("x", "export the content to a JSON file"),
    ("i", "import a JSON file as the content (report, then asks)"),
    ("E", "empty (asks)"),
    ("D", "delete (asks)"),
];

/// Keys of the objects pane.
pub const OBJECTS: &[KeyHelp] = &[
    ("Enter", "fold a type / edit the object"),
    ("← h / → l", "fold / unfold the type"),
    ("/", "filter by text, type, id or key=value in meta"),
    ("a", "add an object (type, then component id)"),
    ("d", "delete the object, or every marked one (asks)"),
    ("Space / V", "mark or unmark / mark every object shown"),
    ("Esc", "clear the marks, then the filter, then back"),
    ("b", "bulk edit the marked objects (diff, then asks)"),
    ("w", "selector form: preview and update by meta"),
    ("y / Y", "copy the id / the JSON (OSC 52)"),
    ("e", "edit the JSON in $EDITOR"),
];

/// Keys of the properties pane.
pub const PROPS: &[KeyHelp] = &[
    ("i / Enter", "edit (view mode)"),
    ("Esc", "back to view mode / to the objects"),
    ("e", "edit in $VISUAL / $EDITOR"),
    ("u", "undo the last save"),
    ("Ctrl-S", "save: diff, re-read, send the changed properties"),
];

/// The keys of `pane`, then the global ones.
pub fn for_pane(pane: Pane) -> [(&'static str, &'static [KeyHelp]); 2] {
    let (title, keys) = match pane {
        Pane::Docs => ("Documents", DOCS),
        Pane::Objects => ("Objects", OBJECTS),
        Pane::Props => ("Properties", PROPS),
    };
    [(title, keys), ("Everywhere", GLOBAL)]
}
