//! The actions on the selector form and the bulk edit: opening them (as they were left, when
//! kept aside), showing the apply's answer, the apply confirmed or previewed again, and the
//! answers to a bulk change's question, forwarded to its owner.

use crate::app::update::{App, cx};
use crate::overlays::{BulkEdit, SelectorForm, SelectorResult};
use crate::requests::purpose::BulkOwner;
use crate::vocab::action::{Action, Cx, Overlay};
use crate::vocab::calls::{Applied, BulkCall};

impl App {
    /// `w`: opens the selector form on the open document (as it was left, if on the same one).
    pub(super) fn open_form(&mut self) -> Vec<Action> {
        let Some(doc) = self.doc.as_ref() else {
            return Vec::new();
        };
        let form = self
            .kept_form
            .take()
            .filter(|f| f.doc() == doc.id())
            .unwrap_or_else(|| Box::new(SelectorForm::new(doc.id())));
        vec![Action::Open(Overlay::boxed(form))]
    }

    /// `b`: opens the bulk edit of the marked objects; `hidden`, the marked ones the tree hides.
    pub(super) fn open_bulk_edit(&mut self, hidden: Vec<String>) -> Vec<Action> {
        let mut bulk = self.kept_bulk.take().unwrap_or_default();
        bulk.set_hidden(hidden);
        vec![Action::Open(Overlay::boxed(bulk))]
    }

    /// Shows the selector update's answer in place of the form.
    pub(super) fn show_selector_result(&mut self, applied: Applied) -> Vec<Action> {
        let mut actions = Vec::new();
        match self.overlays.last() {
            Some(top) if top.is::<SelectorForm>() => actions.push(Action::Close),
            None => {}
            Some(_) => return Vec::new(),
        }
        actions.push(Action::Open(Overlay::new(SelectorResult::new(applied))));
        actions
    }

    /// The selector apply was confirmed.
    pub(super) fn apply_selector(&mut self) -> Vec<Action> {
        let cx = cx!(self, self.panes.props.unsaved());
        find_form(&mut self.overlays, &mut self.kept_form)
            .map(|form| form.apply_confirmed(&cx))
            .unwrap_or_default()
    }

    /// The selector apply was refused (the matches changed): preview again, then ask.
    pub(super) fn preview_selector_again(&mut self) -> Vec<Action> {
        let cx = cx!(self, self.panes.props.unsaved());
        find_form(&mut self.overlays, &mut self.kept_form)
            .map(|form| form.apply(&cx))
            .unwrap_or_default()
    }

    /// An answer to a bulk change's question, for its owner.
    pub(super) fn bulk_call(&mut self, owner: BulkOwner, call: BulkCall) -> Vec<Action> {
        // The bulk edit closes (its text kept) once its change is under way.
        let closes = owner == BulkOwner::BulkEdit
            && call == BulkCall::Confirm
            && self.overlays.last().is_some_and(Overlay::is::<BulkEdit>);
        let cx = cx!(self, self.panes.props.unsaved());
        let mut actions = match owner {
            BulkOwner::Form => find_form(&mut self.overlays, &mut self.kept_form)
                .map(|form| form.bulk_call(call, &cx))
                .unwrap_or_default(),
            BulkOwner::BulkEdit => {
                find_bulk(&mut self.overlays, &mut self.kept_bulk).call(call, &cx)
            }
        };
        if closes {
            actions.insert(0, Action::Close);
        }
        actions
    }
}

/// The selector form, open (anywhere in the stack) or kept aside.
pub(super) fn find_form<'a>(
    overlays: &'a mut [Overlay],
    kept: &'a mut Option<Box<SelectorForm>>,
) -> Option<&'a mut SelectorForm> {
    let open = overlays
        .iter_mut()
        .find_map(Overlay::get_mut::<SelectorForm>);
    match open {
        Some(form) => Some(form),
        None => kept.as_deref_mut(),
    }
}

/// The bulk edit, open or kept aside (a fresh one if there was none).
pub(super) fn find_bulk<'a>(
    overlays: &'a mut [Overlay],
    kept: &'a mut Option<Box<BulkEdit>>,
) -> &'a mut BulkEdit {
    let open = overlays.iter_mut().find_map(Overlay::get_mut::<BulkEdit>);
    match open {
        Some(bulk) => bulk,
        None => kept.get_or_insert_with(Box::default),
    }
}
