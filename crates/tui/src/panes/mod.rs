//! The panes: documents, objects, properties, and the map in the properties' place, held in
//! [`Panes`], where App finds each by its [`Pane`]. The two lists share their filter's handling
//! ([`Filtered`]).
//!
//! May import `vocab`, `overlays` (the questions they ask), `writes`, `requests`, `document`,
//! `transfer` (export and import jobs), `widgets`, `keys`, `text` and `theme`; never `app` or
//! `runtime`.

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

use std::any::Any;

use crossterm::event::KeyEvent;

use crate::document::RequestId;
use crate::keys::{Command, Context};
use crate::requests::call::Request;
use crate::vocab::action::{Action, Component, Cx};
use crate::vocab::calls::Pane;
use crate::widgets::input::{Filter, FilterChange};

/// A pane's own replies and calls, each of a type of its own: the registry hands a reply of
/// type `Reply` (`Answered::pane`) and a call of type `Call` (`Action::to_pane`) to it.
pub trait TypedPane: Component {
    /// The replies to its requests.
    type Reply: 'static;
    /// The calls App forwards to it (a prompt's text, a question's answer).
    type Call: 'static;

    /// The reply to request `id` (`request`).
    fn on_reply(
        &mut self,
        reply: Self::Reply,
        id: RequestId,
        request: Request,
        cx: &Cx,
    ) -> Vec<Action>;

    /// A call App forwards.
    fn call(&mut self, call: Self::Call, cx: &Cx) -> Vec<Action>;
}

/// A pane's reply as the registry hands it on: the reply, and the request it answers.
pub struct Replied {
    /// The reply, of the pane's `Reply` type.
    pub reply: Box<dyn Any + Send>,
    /// The request's id.
    pub id: RequestId,
    /// The request.
    pub request: Request,
}

/// A pane as the registry holds it: it says whether a reply or a call is of its types, and
/// takes it.
pub trait PaneComponent: Component {
    /// Whether `value` is one of its replies or calls.
    fn takes(&self, value: &dyn Any) -> bool;

    /// A reply of its `Reply` type (another is dropped).
    fn reply_boxed(&mut self, replied: Replied, cx: &Cx) -> Vec<Action>;

    /// A call of its `Call` type (another is dropped).
    fn call_boxed(&mut self, call: Box<dyn Any>, cx: &Cx) -> Vec<Action>;
}

impl<T: TypedPane> PaneComponent for T {
    fn takes(&self, value: &dyn Any) -> bool {
        value.is::<T::Reply>() || value.is::<T::Call>()
    }

    fn reply_boxed(&mut self, replied: Replied, cx: &Cx) -> Vec<Action> {
        let Replied { reply, id, request } = replied;
        let reply = unboxed::<T::Reply>(reply);
        reply.map_or_else(Vec::new, |reply| self.on_reply(reply, id, request, cx))
    }

    fn call_boxed(&mut self, call: Box<dyn Any>, cx: &Cx) -> Vec<Action> {
        unboxed::<T::Call>(call).map_or_else(Vec::new, |call| self.call(call, cx))
    }
}

/// `value` as a `T`, if it is one.
fn unboxed<T: 'static>(value: Box<dyn Any>) -> Option<T> {
    value.downcast().ok().map(|value| *value)
}

/// The panes: the registry. App reaches the one a [`Pane`] names through [`Panes::get`] to
/// hand it keys, clicks, its area and the frame to draw in, and the one whose types a reply or
/// a call has through [`Panes::taker`], with no arm per pane; what only one pane does (the
/// documents' list, the properties' edit) App asks of its field.
#[derive(Debug)]
pub struct Panes {
    /// The documents.
    pub docs: DocsPane,
    /// The object tree.
    pub objects: ObjectsPane,
    /// The properties.
    pub props: PropsPane,
    /// The map.
    pub map: MapPane,
}

impl Panes {
    /// The panes with nothing loaded yet.
    pub fn new() -> Panes {
        Panes {
            docs: DocsPane::new(),
            objects: ObjectsPane::default(),
            props: PropsPane::default(),
            map: MapPane::default(),
        }
    }

    /// Pane `pane`.
    pub fn get(&self, pane: Pane) -> &dyn PaneComponent {
        match pane {
            Pane::Docs => &self.docs,
            Pane::Objects => &self.objects,
            Pane::Props => &self.props,
            Pane::Map => &self.map,
        }
    }

    /// Pane `pane`, to change.
    pub fn get_mut(&mut self, pane: Pane) -> &mut dyn PaneComponent {
        match pane {
            Pane::Docs => &mut self.docs,
            Pane::Objects => &mut self.objects,
            Pane::Props => &mut self.props,
            Pane::Map => &mut self.map,
        }
    }

    /// The pane whose reply or call `value` is, by its type.
    pub fn taker(&self, value: &dyn Any) -> Option<Pane> {
        (Pane::ALL.into_iter()).find(|pane| self.get(*pane).takes(value))
    }

    /// The object whose unsaved edits the properties pane holds, as `pane` sees it (`Cx`'s
    /// `unsaved`): the properties pane's own edits are not unsaved elsewhere to it.
    pub fn unsaved_for(&self, pane: Pane) -> Option<String> {
        match pane {
            Pane::Props => None,
            _ => self.props.unsaved().map(str::to_owned),
        }
    }
}

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
