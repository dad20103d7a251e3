//! The names of the key table: the contexts keys are looked up in, and the commands they run.
//! Both are written in `config.toml` by these names (`[keys.objects]`, `delete = "x"`).

/// Where a key is pressed. A context inherits the keys of its parents (looked up after its own);
/// in a context that takes text, a key it does not bind types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Context {
    /// Everywhere, text fields and overlays included.
    Always,
    /// The panes, outside their text fields.
    Global,
    /// Every list and scrolled view.
    Move,
    /// The documents pane.
    Documents,
    /// The objects pane.
    Objects,
    /// The properties pane in view mode.
    Properties,
    /// The properties pane in edit mode.
    Edit,
    /// A list's filter while it is typed.
    Filter,
    /// A question: confirmations, the save and bulk diffs, the import report.
    Confirm,
    /// A one-line prompt.
    Prompt,
    /// The object changed on the server while it was edited.
    Conflict,
    /// A menu (the type of a new object).
    Menu,
    /// A search list typed into: the palette, the componentId picker.
    Search,
    /// The selector form, any field.
    Form,
    /// The selector form's key and value fields.
    FormField,
    /// The selector form's operator field.
    FormOperator,
    /// The selector update's answer.
    Result,
    /// The bulk edit of the marked objects.
    BulkEdit,
    /// The request log.
    Log,
    /// The help.
    Help,
    /// The write history of the open document.
    History,
    /// The map of the open document.
    Map,
    /// The objects connected to a component.
    Connections,
    /// The open document's history from the server.
    Versions,
}

impl Context {
    /// Every context, in the order help and `diagtui keys` list them.
    pub const ALL: [Context; 24] = [
        Context::Always,
        Context::Global,
        Context::Move,
        Context::Documents,
        Context::Objects,
        Context::Properties,
        Context::Edit,
        Context::Filter,
        Context::Confirm,
        Context::Prompt,
        Context::Conflict,
        Context::Menu,
        Context::Search,
        Context::Form,
        Context::FormField,
        Context::FormOperator,
        Context::Result,
        Context::BulkEdit,
        Context::Log,
        Context::Help,
        Context::History,
        Context::Map,
        Context::Connections,
        Context::Versions,
    ];

    /// Its place in [`Context::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name in `config.toml` (`[keys.NAME]`).
    pub fn name(self) -> &'static str {
        match self {
            Context::Always => "always",
            Context::Global => "global",
            Context::Move => "move",
            Context::Documents => "documents",
            Context::Objects => "objects",
            Context::Properties => "properties",
            Context::Edit => "edit",
            Context::Filter => "filter",
            Context::Confirm => "confirm",
            Context::Prompt => "prompt",
            Context::Conflict => "conflict",
            Context::Menu => "menu",
            Context::Search => "search",
            Context::Form => "form",
            Context::FormField => "form_field",
            Context::FormOperator => "form_operator",
            Context::Result => "result",
            Context::BulkEdit => "bulk_edit",
            Context::Log => "log",
            Context::Help => "help",
            Context::History => "history",
            Context::Map => "map",
            Context::Connections => "connections",
            Context::Versions => "versions",
        }
    }

    /// The context of a config name.
    pub fn named(name: &str) -> Option<Context> {
        Context::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Where it applies, in words (help headings, `diagtui keys`, docs/keys.md).
    pub fn title(self) -> &'static str {
        match self {
            Context::Always => "anywhere, text fields included",
            Context::Global => "in the panes",
            Context::Move => "lists and views",
            Context::Documents => "documents pane",
            Context::Objects => "objects pane",
            Context::Properties => "properties, view mode",
            Context::Edit => "properties, edit mode",
            Context::Filter => "a filter being typed",
            Context::Confirm => "a question",
            Context::Prompt => "a prompt",
            Context::Conflict => "a save conflict",
            Context::Menu => "the type menu",
            Context::Search => "palette, componentId picker",
            Context::Form => "selector form",
            Context::FormField => "selector form, key or value",
            Context::FormOperator => "selector form, operator",
            Context::Result => "selector update result",
            Context::BulkEdit => "bulk edit",
            Context::Log => "request log",
            Context::Help => "help",
            Context::History => "write history",
            Context::Map => "the map",
            Context::Connections => "connections of a component",
            Context::Versions => "document history",
        }
    }

    /// The contexts whose keys it inherits, nearest first.
    pub fn parents(self) -> &'static [Context] {
        match self {
            Context::Always => &[],
            Context::Global => &[Context::Always],
            Context::Move => &[],
            Context::Documents | Context::Objects | Context::Properties => {
                &[Context::Global, Context::Move]
            }
            // The map pans with the movement keys, so it does not inherit the lists' ones.
            Context::Map => &[Context::Global],
            Context::Menu
            | Context::Result
            | Context::Log
            | Context::Help
            | Context::History
            | Context::Connections
            | Context::Versions
            | Context::Confirm
            | Context::Conflict => &[Context::Always, Context::Move],
            Context::FormField | Context::FormOperator => &[Context::Form],
            Context::Edit
            | Context::Filter
            | Context::Prompt
            | Context::Search
            | Context::Form
            | Context::BulkEdit => &[Context::Always],
        }
    }

    /// Whether a key it does not bind types into a text field.
    pub fn takes_text(self) -> bool {
        matches!(
            self,
            Context::Edit
                | Context::Filter
                | Context::Prompt
                | Context::Search
                | Context::Form
                | Context::FormField
                | Context::FormOperator
                | Context::BulkEdit
        )
    }

    /// This context and every one it inherits, each once, nearest first.
    pub fn lineage(self) -> Vec<Context> {
        let mut out = vec![self];
        let mut at = 0;
        while at < out.len() {
            for parent in out[at].parents() {
                if !out.contains(parent) {
                    out.push(*parent);
                }
            }
            at += 1;
        }
        out
    }
}

/// Declares [`Command`] with its config names, written once.
macro_rules! commands {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// What a key does: the action column of the key table. Which component carries it out
        /// depends on the context it was found in.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Command {
            $($(#[$doc])* $variant,)*
        }

        impl Command {
            /// Every command.
            pub const ALL: &[Command] = &[$(Command::$variant,)*];

            /// Its name in `config.toml`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Command::$variant => $name,)*
                }
            }
        }
    };
}

commands! {
    /// Quit from anywhere.
    ForceQuit => "force_quit",
    /// Quit.
    Quit => "quit",
    /// The help.
    Help => "help",
    /// The command palette.
    Palette => "palette",
    /// The request log.
    Log => "log",
    /// Reload everything.
    Refresh => "refresh",
    /// Focus the next pane.
    NextPane => "next_pane",
    /// Focus the previous pane.
    PrevPane => "prev_pane",
    /// Focus the documents pane.
    FocusDocuments => "focus_documents",
    /// Focus the objects pane.
    FocusObjects => "focus_objects",
    /// Focus the properties pane.
    FocusProperties => "focus_properties",
    /// Zoom the focused pane.
    Zoom => "zoom",
    /// Save the properties.
    Save => "save",
    /// Move down a row.
    Down => "down",
    /// Move up a row.
    Up => "up",
    /// Move down a page.
    PageDown => "page_down",
    /// Move up a page.
    PageUp => "page_up",
    /// Scroll the details under a list down a line.
    ScrollDown => "scroll_down",
    /// Scroll the details under a list up a line.
    ScrollUp => "scroll_up",
    /// Move to the top.
    Top => "top",
    /// Move to the bottom.
    Bottom => "bottom",
    /// Open the document.
    Open => "open",
    /// Type the list's filter.
    Filter => "filter",
    /// Clear the list's filter.
    ClearFilter => "clear_filter",
    /// A new document.
    New => "new",
    /// A new folder.
    NewFolder => "new_folder",
    /// Move documents to another folder.
    MoveToFolder => "move_to_folder",
    /// Rename the document.
    Rename => "rename",
    /// Clone the document.
    Clone => "clone",
    /// Share the document.
    Share => "share",
    /// Export the content to a file.
    Export => "export",
    /// Import a file as the content.
    Import => "import",
    /// Remove every object of the document.
    Empty => "empty",
    /// Delete the selection.
    Delete => "delete",
    /// Fold a heading or edit an object.
    Activate => "activate",
    /// Fold the type.
    Fold => "fold",
    /// Unfold the type.
    Unfold => "unfold",
    /// Add an object.
    Add => "add",
    /// Mark or unmark the object.
    Mark => "mark",
    /// Mark what the filter shows.
    MarkShown => "mark_shown",
    /// Step back.
    Back => "back",
    /// Bulk edit the marked objects.
    BulkEdit => "bulk_edit",
    /// The selector form.
    Selector => "selector",
    /// Copy the id.
    CopyId => "copy_id",
    /// Copy the JSON.
    CopyJson => "copy_json",
    /// Copy an embed's URL.
    CopyEmbedUrl => "copy_embed_url",
    /// Edit in `$EDITOR`.
    ExternalEdit => "external_edit",
    /// Start editing.
    Edit => "edit",
    /// Undo a write.
    Undo => "undo",
    /// Undo the last edit of a text.
    UndoText => "undo_text",
    /// Redo what undo took back of a text.
    RedoText => "redo_text",
    /// Soft wrap, or not.
    Wrap => "wrap",
    /// The write history.
    History => "write_history",
    /// Back to view mode.
    ViewMode => "view_mode",
    /// Keep the filter.
    Keep => "keep",
    /// Cancel.
    Cancel => "cancel",
    /// Erase the text field.
    Erase => "erase",
    /// Yes.
    Yes => "yes",
    /// No.
    No => "no",
    /// Take the prompt's text.
    Submit => "submit",
    /// Save over the server's change.
    Overwrite => "overwrite",
    /// Take the server's version.
    Reload => "reload",
    /// Take the highlighted entry.
    Pick => "pick",
    /// Highlight a question's next answer.
    NextChoice => "next_choice",
    /// Highlight a question's previous answer.
    PrevChoice => "prev_choice",
    /// Run the selector read.
    Preview => "preview",
    /// Run the selector update.
    Apply => "apply",
    /// Mark the selector preview's matches.
    MarkMatches => "mark_matches",
    /// Switch how a bulk change gives a nested value: merge or replace.
    Nested => "nested",
    /// Add a row to the form.
    AddRow => "add_row",
    /// Remove a row of the form.
    RemoveRow => "remove_row",
    /// Recall a remembered selector.
    Recall => "recall",
    /// The next field.
    NextField => "next_field",
    /// The previous field.
    PrevField => "prev_field",
    /// Close.
    Close => "close",
    /// Highlight the next suggestion.
    NextSuggestion => "next_suggestion",
    /// Highlight the previous suggestion.
    PrevSuggestion => "prev_suggestion",
    /// Take the highlighted suggestion.
    Take => "take",
    /// The next operator.
    NextOperator => "next_operator",
    /// The previous operator.
    PrevOperator => "prev_operator",
    /// Jump to the object.
    Jump => "jump",
    /// Back to the selector form.
    BackToForm => "back_to_form",
    /// Show the bulk diff.
    ShowDiff => "show_diff",
    /// Show the map in place of the properties, and back.
    ToggleMap => "map",
    /// Move the map's view left.
    PanLeft => "pan_left",
    /// Move the map's view right.
    PanRight => "pan_right",
    /// Move the map's view up.
    PanUp => "pan_up",
    /// Move the map's view down.
    PanDown => "pan_down",
    /// Zoom the map in.
    ZoomIn => "zoom_in",
    /// Zoom the map out.
    ZoomOut => "zoom_out",
    /// Fit the whole diagram in the map.
    Fit => "fit",
    /// Select the object under the map's centre cross.
    SelectCentre => "select_centre",
    /// Select the next object by position.
    NextObject => "next_object",
    /// Select the previous object by position.
    PrevObject => "prev_object",
    /// List the objects connected to the component.
    Connections => "connections",
    /// Switch the map's picture between 2D and 3D.
    SwitchView => "switch_view",
    /// Show the diff between the server's version of the edited object and the edit.
    ServerDiff => "server_diff",
    /// Create the edited object again (it was deleted on the server).
    Recreate => "recreate",
    /// The open document's history from the server.
    Versions => "history",
    /// Show the open document as it is now (leave the past view).
    Present => "present",
    /// Restore the document to the highlighted version.
    Restore => "restore",
    /// Make the new document from a file of entries instead.
    FromFile => "from_file",
    /// Complete the file name typed.
    Complete => "complete",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_context_is_at_its_index_and_inherits_what_its_parents_do() {
        for (i, context) in Context::ALL.into_iter().enumerate() {
            assert_eq!(context.index(), i);
            assert_eq!(Context::named(context.name()), Some(context));
        }
        assert_eq!(
            Context::Objects.lineage(),
            [
                Context::Objects,
                Context::Global,
                Context::Move,
                Context::Always
            ]
        );
    }
}
