//! What connects to a component (`>` in the objects pane and on the map): the objects at the
//! far end of each line attached to it, with the line's direction, then the areas around it.
//! `Enter` selects the highlighted one in the tree (and on the map). It reads the scene App
//! keeps, so it follows the document while open.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::keys::{Command, Context};
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::vocab::action::{Action, Component, Cx, Overlay};
use crate::vocab::calls::{ObjectsCall, Pane};
use crate::widgets::list::ListCursor;
use crate::widgets::pieces::{cursor_rows, hint_line, overlay_box};
use diagtui_scene::{Connection, Direction, Scene, Shape, Via};

/// Width of the box.
const WIDTH: u16 = 90;
/// Rows listed at once.
const ROWS: usize = 14;

/// The connections of one component.
#[derive(Debug)]
pub struct ConnectionsView {
    component: String,
    /// The pane it was opened from, which gets the focus back after a jump.
    from: Pane,
    cursor: ListCursor,
}

impl ConnectionsView {
    /// The connections of component `id`, opened from pane `from`.
    pub fn new(id: &str, from: Pane) -> ConnectionsView {
        let mut cursor = ListCursor::default();
        cursor.set_rows(ROWS);
        ConnectionsView {
            component: id.to_owned(),
            from,
            cursor,
        }
    }

    /// The actions that open it on component `id` from pane `from`: a note instead when `id`
    /// is no placed component.
    pub fn open(id: Option<&str>, scene: &Scene, from: Pane) -> Vec<Action> {
        match id.and_then(|id| scene.get(id)) {
            Some(p) if matches!(p.shape, Shape::Component(_)) => vec![Action::Open(Overlay::new(
                ConnectionsView::new(&p.id, from),
            ))],
            _ => vec![Action::info(
                "select a component to list what connects to it",
            )],
        }
    }

    fn connections<'a>(&self, cx: &Cx<'a>) -> Vec<Connection<'a>> {
        cx.scene
            .map(|scene| scene.connections(&self.component))
            .unwrap_or_default()
    }
}

/// How a connection reads: which way, then the object at the other end by its name (its id
/// dimmed where there is room); a free end by the line group's name.
fn connection_line(connection: &Connection, width: usize, cx: &Cx) -> Line<'static> {
    let names = cx.names();
    let object = connection.object;
    let (lead, name) = match connection.via {
        Via::Line {
            line_group,
            direction,
        } => {
            let arrow = match direction {
                Direction::Outgoing => "→",
                Direction::Incoming => "←",
                Direction::Both => "↔",
                Direction::Undirected => "—",
            };
            if object.id == line_group.id {
                (format!("{arrow} a free end of "), names.of(&line_group.id))
            } else {
                (
                    format!("{arrow} {} ", object.kind().as_str()),
                    names.of(&object.id),
                )
            }
        }
        Via::EnclosingArea => ("□ inside area ".to_owned(), names.of(&object.id)),
    };
    let lead = clip(&lead, width);
    let mut line = name.line(width.saturating_sub(lead.chars().count()), cx.theme);
    line.spans.insert(0, Span::raw(lead));
    line
}

impl Component for ConnectionsView {
    fn context(&self) -> Context {
        Context::Connections
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        let connections = self.connections(cx);
        self.cursor.set_len(connections.len());
        if let Some(step) = self.cursor.step_of(command) {
            self.cursor.step(step);
            return Vec::new();
        }
        match command {
            Command::Jump => match connections.get(self.cursor.selected()) {
                Some(connection) => vec![
                    Action::Close,
                    Action::to_pane(ObjectsCall::Jump(connection.object.id.clone())),
                    Action::Focus(self.from),
                ],
                None => Vec::new(),
            },
            Command::Close => vec![Action::Close],
            _ => Vec::new(),
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let inner = usize::from(WIDTH.min(area.width)).saturating_sub(2);
        let connections = self.connections(cx);
        let mut cursor = self.cursor;
        cursor.set_len(connections.len());
        let title = cx.name_of(&self.component);
        let mut lines = vec![Line::from(vec![
            Span::styled(title, cx.style(Role::Strong)),
            Span::raw(format!(
                " has {}:",
                words::count(connections.len(), "connection", "connections")
            )),
        ])];
        lines.extend(cursor_rows(
            &cursor,
            inner,
            |i| connection_line(&connections[i], inner, cx),
            "more",
            cx,
        ));
        lines.push(Line::raw(""));
        lines.push(hint_line(
            cx.keys.hint(
                Context::Connections,
                &[(Command::Jump, "select it"), (Command::Close, "close")],
            ),
            cx.theme,
        ));
        let footer = lines.split_off(lines.len() - 2);
        let height = (lines.len() + footer.len()) as u16 + 2;
        overlay_box(
            frame,
            area,
            " Connections ",
            (lines, footer),
            (WIDTH, height),
            cx.theme,
        );
    }
}
