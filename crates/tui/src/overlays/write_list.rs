//! The write history of the open document (`U` in the objects pane): every write of this
//! session, newest first, with what it touched and whether it was undone, and `◂ now` where the
//! document is (after the newest write not wholly undone); `Enter` undoes the
//! highlighted one (see `writes/undo.rs`: it shows what it will do and asks first).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::keys::{Command, Context};
use crate::session::record::{FOLDERS, Undone, Write};
use crate::text::text_view::clip;
use crate::theme::Role;
use crate::vocab::action::{Action, Component, Cx};
use crate::widgets::list::ListCursor;
use crate::widgets::pieces::{cursor_rows, hint_line, overlay_box};
use crate::writes::undo;

/// Width of the box.
const WIDTH: u16 = 100;
/// Rows listed at once.
const ROWS: usize = 14;

/// The write history.
#[derive(Debug)]
pub struct WritesView {
    doc: String,
    cursor: ListCursor,
}

impl WritesView {
    /// The history of document `doc`.
    pub fn new(doc: &str) -> WritesView {
        let mut cursor = ListCursor::default();
        cursor.set_rows(ROWS);
        WritesView {
            doc: doc.to_string(),
            cursor,
        }
    }

    fn writes<'a>(&self, cx: &Cx<'a>) -> Vec<&'a Write> {
        cx.writes.of_doc(&self.doc).collect()
    }
}

/// Where the document is now: after the newest write not wholly undone, marked so.
const NOW: &str = "  ◂ now";

/// A write's row: number, name, what it touched, how much is undone, and `◂ now` on the write
/// the document is at (`now`).
fn write_line(write: &Write, width: usize, now: bool, cx: &Cx) -> Line<'static> {
    let (state, style) = match write.undone() {
        Undone::No => (String::new(), ratatui::style::Style::new()),
        Undone::Partly => ("  (partly undone)".to_owned(), cx.style(Role::Dim)),
        Undone::All => ("  (undone)".to_owned(), cx.style(Role::Dim)),
    };
    let state = if now { state + NOW } else { state };
    let head = format!("{:>3}  {:<16}", write.id, write.name());
    let room = width.saturating_sub(head.chars().count() + state.chars().count());
    Line::from(vec![
        Span::styled(head, cx.style(Role::Strong).patch(style)),
        Span::styled(clip(&write.summary(&cx.names()), room), style),
        Span::styled(state, cx.style(Role::Dim)),
    ])
}

impl Component for WritesView {
    fn context(&self) -> Context {
        Context::History
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        let writes = self.writes(cx);
        self.cursor.set_len(writes.len());
        if let Some(step) = self.cursor.step_of(command) {
            self.cursor.step(step);
            return Vec::new();
        }
        match command {
            Command::Undo => match writes.get(self.cursor.selected()) {
                Some(write) => undo::ask_write(write.id, cx),
                None => Vec::new(),
            },
            Command::Close => vec![Action::Close],
            _ => Vec::new(),
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let inner = usize::from(WIDTH.min(area.width)).saturating_sub(2);
        let writes = self.writes(cx);
        let mut cursor = self.cursor;
        cursor.set_len(writes.len());
        let folders = self.doc == FOLDERS;
        let mut lines = vec![Line::styled(
            if folders {
                "The folder writes of this session, newest first:"
            } else {
                "The writes of this session to this document, newest first:"
            },
            cx.style(Role::Strong),
        )];
        if writes.is_empty() {
            lines.push(Line::styled(
                if folders {
                    "none yet: new folders, renames, deletes and moves show here"
                } else {
                    "none yet: saves, bulk edits, selector applies, deletes and imports show here"
                },
                cx.style(Role::Dim),
            ));
        }
        // The newest write not wholly undone is the state the document is in; none: as before
        // them all.
        let now = writes.iter().position(|w| w.undone() != Undone::All);
        lines.extend(cursor_rows(
            &cursor,
            inner,
            |i| write_line(writes[i], inner, now == Some(i), cx),
            "older",
            cx,
        ));
        if now.is_none() && !writes.is_empty() {
            lines.push(Line::styled(
                format!("as before these writes{NOW}"),
                cx.style(Role::Strong),
            ));
        }
        lines.push(Line::raw(""));
        lines.push(hint_line(
            cx.keys.hint(
                Context::History,
                &[(Command::Undo, "undo it (asks)"), (Command::Close, "close")],
            ),
            cx.theme,
        ));
        let footer = lines.split_off(lines.len() - 2);
        let height = (lines.len() + footer.len()) as u16 + 2;
        overlay_box(
            frame,
            area,
            " Write history ",
            (lines, footer),
            (WIDTH, height),
            cx.theme,
        );
    }
}
