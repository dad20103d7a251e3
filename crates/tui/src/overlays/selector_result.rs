//! The selector update's answer: the count, a mismatch with the preview, and the updated ids,
//! each a jump to the object in the tree.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::keys::{Command, Context};
use crate::overlays::selector_form::typed_line;
use crate::theme::Role;
use crate::vocab::action::{Action, Component, Cx};
use crate::vocab::calls::{Applied, ObjectsCall};
use crate::widgets::list::ListCursor;
use crate::widgets::pieces::{hint_line, overlay_box, selected_line};

/// Width of the box.
const WIDTH: u16 = 100;
/// How many ids show at once.
const ROWS: usize = 14;

/// The answer of an apply.
#[derive(Debug)]
pub struct SelectorResult {
    applied: Applied,
    cursor: ListCursor,
}

impl SelectorResult {
    /// The result of `applied`.
    pub fn new(applied: Applied) -> SelectorResult {
        let mut cursor = ListCursor::default();
        cursor.set_rows(ROWS);
        cursor.set_len(applied.updated.updated_object_ids.len());
        SelectorResult { applied, cursor }
    }
}

impl Component for SelectorResult {
    fn context(&self) -> Context {
        Context::Result
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        if let Some(step) = self.cursor.step_of(command) {
            self.cursor.step(step);
            return Vec::new();
        }
        let ids = &self.applied.updated.updated_object_ids;
        match command {
            Command::Jump => match ids.get(self.cursor.selected()) {
                Some(obj) => vec![
                    Action::Close,
                    Action::to_pane(ObjectsCall::Jump(obj.clone())),
                ],
                None => Vec::new(),
            },
            Command::BackToForm => vec![Action::Close, Action::OpenForm],
            Command::Close => vec![Action::Close],
            _ => Vec::new(),
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let inner = usize::from(WIDTH.min(area.width)).saturating_sub(2);
        let strong = cx.style(Role::Strong);
        let mut lines = vec![Line::from(vec![
            Span::styled("updatedObjectCount: ", strong),
            Span::styled(
                self.applied.updated.updated_object_count.to_string(),
                cx.style(Role::Success).patch(strong),
            ),
        ])];
        if let Some(mismatch) = self.applied.mismatch() {
            lines.push(Line::styled(
                format!("! {mismatch}"),
                cx.style(Role::Warning),
            ));
        }
        lines.push(Line::styled(
            format!(
                "updatedObjectIds ({} jumps to one):",
                cx.key(Context::Result, Command::Jump)
            ),
            cx.style(Role::Dim),
        ));
        let ids = &self.applied.updated.updated_object_ids;
        let names = cx.names();
        for i in self.cursor.visible() {
            let line = typed_line(&names.of(&ids[i]), inner, cx);
            lines.push(if i == self.cursor.selected() {
                selected_line(line, inner, cx.style(Role::Selected))
            } else {
                line
            });
        }
        let shown_to = self.cursor.visible().end;
        if ids.len() > shown_to {
            lines.push(Line::styled(
                format!("  … {} more", ids.len() - shown_to),
                cx.style(Role::Dim),
            ));
        }
        lines.push(Line::raw(""));
        lines.push(hint_line(
            cx.keys.hint(
                Context::Result,
                &[
                    (Command::Jump, "jump to the object"),
                    (Command::BackToForm, "back to the form"),
                    (Command::Close, "close"),
                ],
            ),
            cx.theme,
        ));
        let footer = lines.split_off(lines.len() - 2);
        let height = (lines.len() + footer.len()) as u16 + 2;
        overlay_box(
            frame,
            area,
            " Selector update ",
            (lines, footer),
            (WIDTH, height),
            cx.theme,
        );
    }
}
