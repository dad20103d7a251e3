//! The panes: documents, objects, properties, and the map in the properties' place. The two lists share their filter's
//! handling ([`Filtered`]).
//!
//! May import `app::{action, component, layout, notification}`, `overlays` (the questions they
//! ask), `writes`, `requests`, `document`, `runtime::transfer` (export and import jobs),
//! `widgets`, `keys` and `theme`; never `app::update` or the runtime's loop.

mod doc_embeds;
mod docs;
mod elsewhere;
pub mod map;
mod objects;
mod props;

pub use docs::DocsPane;
pub use map::MapPane;
pub use objects::{ObjectsPane, ask_to_drop_edits};
pub use props::PropsPane;

use crossterm::event::KeyEvent;

use crate::keys::{Command, Context};
use crate::vocab::action::{Action, Cx};
use crate::widgets::input::{Filter, FilterChange};

/// A list pane with a filter: the filter's commands, keys and pastes work alike in both.
trait Filtered {
    /// The filter.
    fn filter(&mut self) -> &mut Filter;

    /// Fits the rows shown to the pane (the filter line came or went).
    fn fit(&mut self);

    /// Filters the list again (the filter's text changed).
    fn refilter(&mut self, cx: &Cx) -> Vec<Action>;

    /// The key context whose `filter` command starts typing.
    fn list_context(&self) -> Context;

    /// A filter command's actions, or `None` when `command` is not one.
    fn filter_command(&mut self, command: Command, cx: &Cx) -> Option<Vec<Action>> {
        Some(match self.filter().command(command)? {
            FilterChange::Shown => {
                self.fit();
                Vec::new()
            }
            FilterChange::Text => self.refilter(cx),
        })
    }

    /// A key no command is bound to: it types into the filter while the filter is typed.
    fn filter_key(&mut self, key: KeyEvent, cx: &Cx) -> Vec<Action> {
        if self.filter().key(key) {
            self.refilter(cx)
        } else {
            Vec::new()
        }
    }

    /// A paste goes into the filter while it is typed; else it says how to start it.
    fn filter_paste(&mut self, text: &str, cx: &Cx) -> Vec<Action> {
        if self.filter().paste(text) {
            return self.refilter(cx);
        }
        cx.paste_elsewhere(self.list_context(), Command::Filter, "the filter")
    }
}
