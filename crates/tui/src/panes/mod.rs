//! The panes: documents, objects, properties, and the map in the properties' place, held in
//! the registry ([`Panes`]), where App finds each by its [`Pane`]. The two lists share their
//! filter's handling ([`Filtered`]).
//!
//! A pane is its file here, with its [`TypedPane`] impl (its name, column, key contexts, and
//! the types of its replies and calls), and its line in [`registry!`]'s list below; the
//! registry gives it its area, keys, clicks, frame, replies and calls, and its place in `Tab`'s
//! round, with no arm per pane. Then its keys (`keys/`).
//!
//! May import `vocab`, `overlays` (the questions they ask), `writes`, `requests`, `document`,
//! `transfer` (export and import jobs), `widgets`, `keys`, `text` and `theme`; never `app` or
//! `runtime`.

mod doc_embeds;
mod elsewhere;

pub use objects::ask_to_drop_edits;

use std::any::Any;

use crossterm::event::KeyEvent;
use ratatui::layout::Rect;

use crate::document::RequestId;
use crate::keys::{Command, Context};
use crate::requests::call::Request;
use crate::vocab::action::{Action, Component, Cx};
use crate::vocab::calls::Pane;
use crate::vocab::layout::{Column, Screen};
use crate::widgets::input::{Filter, FilterChange};

/// A pane as the registry holds it: what it is called, where it sits, which keys are its, and
/// its own replies and calls, each of a type of its own: the registry hands a reply of type
/// `Reply` (`Answered::pane`) and a call of type `Call` (`Action::to_pane`) to it.
pub trait TypedPane: Component + Default {
    /// Its name (`Docs`): the log's, and its [`Pane`]'s.
    const NAME: &'static str;
    /// The column it sits in: the first pane registered in a column is shown there, another
    /// in its place while App shows it (the map).
    const COLUMN: Column;
    /// The key contexts of its keys: the palette goes to it to run their commands.
    const CONTEXTS: &'static [Context];

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

    /// The pane with nothing loaded yet.
    fn fresh() -> Self {
        Self::default()
    }
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

/// The registry: one line a pane (`field: Type => CONSTANT`), in `Tab`'s order within each
/// column. Each line declares the pane's module (its file, named as its field), makes its
/// [`Pane`] constant from its `NAME`, and gives [`Panes`] its field.
macro_rules! registry {
    ($($field:ident: $pane:ident => $id:ident),* $(,)?) => {
        $(
            mod $field;
            pub use $field::$pane;
            #[doc = concat!("The ", stringify!($field), " pane (`", stringify!($pane), "`).")]
            pub const $id: Pane = Pane::named(<$pane as TypedPane>::NAME);
        )*

        /// The panes: the registry. App reaches the one a [`Pane`] names through
        /// [`Panes::get`] to hand it keys, clicks, its area and the frame to draw in, and the
        /// one whose types a reply or a call has through [`Panes::taker`], with no arm per
        /// pane; what only one pane does (the documents' list, the properties' edit) App asks
        /// of its field.
        #[derive(Debug)]
        pub struct Panes {
            $(
                #[doc = concat!("The ", stringify!($field), " pane.")]
                pub $field: $pane,
            )*
        }

        impl Panes {
            /// Every pane, in the registry's order.
            pub const ALL: &[Pane] = &[$($id),*];

            /// The panes with nothing loaded yet.
            pub fn new() -> Panes {
                Panes { $($field: <$pane as TypedPane>::fresh()),* }
            }

            /// Every pane with its column and its key contexts.
            const PLACES: &[(Pane, Column, &[Context])] =
                &[$(($id, <$pane>::COLUMN, <$pane>::CONTEXTS)),*];

            /// Pane `pane` (a [`Pane`] not in the registry is a fault of the code).
            pub fn get(&self, pane: Pane) -> &dyn PaneComponent {
                $(if pane == $id {
                    return &self.$field;
                })*
                panic!("no pane {} in the registry", pane.name())
            }

            /// Pane `pane`, to change.
            pub fn get_mut(&mut self, pane: Pane) -> &mut dyn PaneComponent {
                $(if pane == $id {
                    return &mut self.$field;
                })*
                panic!("no pane {} in the registry", pane.name())
            }
        }
    };
}

registry! {
    docs: DocsPane => DOCS,
    objects: ObjectsPane => OBJECTS,
    props: PropsPane => PROPS,
    map: MapPane => MAP,
}

impl Panes {
    /// The pane whose reply or call `value` is, by its type.
    pub fn taker(&self, value: &dyn Any) -> Option<Pane> {
        (Panes::ALL.iter().copied()).find(|pane| self.get(*pane).takes(value))
    }

    /// The pane whose keys `context` holds, for the contexts the palette can go to.
    pub fn of_context(context: Context) -> Option<Pane> {
        Panes::PLACES
            .iter()
            .find(|(_, _, contexts)| contexts.contains(&context))
            .map(|(pane, _, _)| *pane)
    }

    /// The column `pane` sits in.
    pub fn column(pane: Pane) -> Column {
        Panes::PLACES
            .iter()
            .find_map(|(id, column, _)| (*id == pane).then_some(*column))
            .unwrap_or_else(|| panic!("no pane {} in the registry", pane.name()))
    }

    /// The panes that sit in `column`, the one shown there first.
    pub fn in_column(column: Column) -> impl Iterator<Item = Pane> {
        Panes::PLACES
            .iter()
            .filter_map(move |(pane, at, _)| (*at == column).then_some(*pane))
    }

    /// The pane `column` shows unless another of its panes is shown in its place.
    fn first_in(column: Column) -> Pane {
        (Panes::in_column(column).next())
            .unwrap_or_else(|| panic!("no pane in the {column:?} column"))
    }

    /// Where `pane` is drawn on `screen` while `shown` are the panes shown in the columns:
    /// its column if it is the one shown there, else nothing (an empty rectangle at the
    /// column's corner).
    pub fn area(pane: Pane, screen: &Screen, shown: &Shown) -> Rect {
        let column = Panes::column(pane);
        let rect = screen.column(column);
        if shown.in_column(column) == pane {
            rect
        } else {
            Rect::new(rect.x, rect.y, 0, 0)
        }
    }

    /// The object whose unsaved edits the properties pane holds, as `pane` sees it (`Cx`'s
    /// `unsaved`): the properties pane's own edits are not unsaved elsewhere to it.
    pub fn unsaved_for(&self, pane: Pane) -> Option<String> {
        match pane {
            PROPS => None,
            _ => self.props.unsaved().map(str::to_owned),
        }
    }
}

/// The pane shown in each column: the first registered there, unless another of its panes
/// is shown in its place (the map, in the properties').
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown([Pane; Column::ALL.len()]);

impl Default for Shown {
    fn default() -> Shown {
        Shown(Column::ALL.map(Panes::first_in))
    }
}

impl Shown {
    /// The pane shown in `column`.
    pub fn in_column(&self, column: Column) -> Pane {
        self.0[column.index()]
    }

    /// Whether `pane` is shown.
    pub fn has(&self, pane: Pane) -> bool {
        self.in_column(Panes::column(pane)) == pane
    }

    /// Shows `pane` in its column (`true`), or the column's first pane in its place.
    pub fn show(&mut self, pane: Pane, show: bool) {
        let column = Panes::column(pane);
        self.0[column.index()] = match show {
            true => pane,
            false => Panes::first_in(column),
        };
    }

    /// The pane shown where `pane` sits.
    pub fn placed(&self, pane: Pane) -> Pane {
        self.in_column(Panes::column(pane))
    }

    /// The pane `steps` columns right of `pane` (round past the last; negative: left), as
    /// `Tab` and `Shift-Tab` move.
    pub fn beside(&self, pane: Pane, steps: isize) -> Pane {
        self.in_column(Panes::column(pane).step(steps))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::layout::{self, Arrangement};

    #[test]
    fn each_pane_sits_in_its_column_and_has_its_keys() {
        assert_eq!(Panes::column(DOCS), Column::Left);
        assert_eq!(Panes::column(MAP), Column::Right);
        assert_eq!(Panes::of_context(Context::Edit), Some(PROPS));
        assert_eq!(Panes::of_context(Context::Map), Some(MAP));
        assert_eq!(Panes::of_context(Context::Prompt), None);
        let right: Vec<Pane> = Panes::in_column(Column::Right).collect();
        assert_eq!(
            right,
            [PROPS, MAP],
            "the properties first: shown there at the start"
        );
        let names: Vec<&str> = Panes::ALL.iter().map(|pane| pane.name()).collect();
        assert_eq!(names, ["Docs", "Objects", "Props", "Map"]);
    }

    #[test]
    fn no_two_panes_share_a_name_or_a_key_context() {
        // A pane is found by its name, and the palette goes to the pane of a context.
        for (i, (pane, _, contexts)) in Panes::PLACES.iter().enumerate() {
            for (other, _, others) in &Panes::PLACES[i + 1..] {
                assert_ne!(pane.name(), other.name());
                assert!(
                    contexts.iter().all(|c| !others.contains(c)),
                    "{}",
                    pane.name()
                );
            }
        }
        for column in Column::ALL {
            assert!(
                Panes::in_column(column).next().is_some(),
                "{column:?} shows a pane"
            );
        }
    }

    #[test]
    fn tab_goes_round_the_columns_to_the_pane_shown_in_each() {
        let mut shown = Shown::default();
        assert_eq!(shown.beside(DOCS, 1), OBJECTS);
        assert_eq!(shown.beside(OBJECTS, 1), PROPS);
        assert_eq!(shown.beside(PROPS, 1), DOCS);
        assert_eq!(shown.beside(DOCS, -1), PROPS);
        shown.show(MAP, true);
        assert_eq!(shown.beside(OBJECTS, 1), MAP);
        assert_eq!(shown.beside(MAP, -1), OBJECTS);
        assert_eq!(
            shown.placed(PROPS),
            MAP,
            "the properties' place holds the map"
        );
        shown.show(MAP, false);
        assert_eq!((shown.placed(MAP), shown.has(MAP)), (PROPS, false));
    }

    #[test]
    fn the_map_takes_the_place_of_the_properties_and_zooms_to_the_whole_screen() {
        let area = Rect::new(0, 0, 80, 24);
        let arrangement = |focus, zoomed| Arrangement {
            focus,
            zoomed,
            doc_open: true,
            status_rows: 1,
        };
        let mut shown = Shown::default();
        let plain = layout::screen(area, arrangement(Column::Middle, false));
        let props = Panes::area(PROPS, &plain, &shown);
        assert_eq!(Panes::area(MAP, &plain, &shown).width, 0);
        shown.show(MAP, true);
        let with_map = layout::screen(area, arrangement(Column::Right, false));
        assert_eq!(Panes::area(MAP, &with_map, &shown), props);
        assert_eq!(Panes::area(PROPS, &with_map, &shown).width, 0);
        let objects = Panes::area(OBJECTS, &with_map, &shown);
        assert_eq!(objects, Panes::area(OBJECTS, &plain, &shown));
        let zoomed = layout::screen(area, arrangement(Column::Right, true));
        let map = Panes::area(MAP, &zoomed, &shown);
        assert_eq!((map.width, map.height), (80, 22));
        assert_eq!(Panes::area(OBJECTS, &zoomed, &shown).width, 0);
    }
}
