//! The object tree as a component: its keys, pastes and clicks, and how it draws: the rows, the
//! marks, what changed elsewhere, the selector preview's matches.

use super::*;

impl Component for ObjectsPane {
    fn context(&self) -> Context {
        if self.filter.typing() {
            Context::Filter
        } else {
            Context::Objects
        }
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        if let Some(step) = self.cursor.step_of(command) {
            let target = self.cursor.target(step);
            return self.go_to(target, cx);
        }
        if let Some(actions) = self.filter_command(command, cx) {
            return actions;
        }
        match command {
            Command::Back
                if cx
                    .doc
                    .is_some_and(|d| d.model().is_none() && d.content.is_loading()) =>
            {
                vec![Action::CancelOpen]
            }
            Command::Back => match cx.doc.map(|d| d.marks.len()) {
                Some(n) if n > 0 => vec![
                    Action::Marks(MarksChange::Clear),
                    Action::info(format!("cleared {n} marks")),
                ],
                _ if !self.filter.text().is_empty() => {
                    self.filter.command(Command::ClearFilter);
                    self.refilter(cx)
                }
                _ => vec![Action::Focus(DOCS)],
            },
            Command::Add if cx.doc.is_some() => {
                vec![Action::Open(Overlay::new(TypePicker::default()))]
            }
            Command::Selector if cx.doc.is_some() => vec![Action::OpenForm],
            Command::Selector => vec![Action::error("open a document first")],
            Command::BulkEdit => match cx.doc {
                Some(doc) if !doc.marks.is_empty() => {
                    vec![Action::OpenBulkEdit(self.hidden(doc))]
                }
                _ => vec![Action::error(format!(
                    "mark objects first ({} marks one, {} marks what the filter shows)",
                    cx.key(Context::Objects, Command::Mark),
                    cx.key(Context::Objects, Command::MarkShown)
                ))],
            },
            Command::ExternalEdit => vec![Action::ExternalEdit],
            Command::Connections => match cx.scene {
                Some(scene) => ConnectionsView::open(self.selected_id(), scene, OBJECTS),
                None => vec![Action::info("the connections are still being worked out")],
            },
            Command::History => match cx.doc_id() {
                Some(doc) => vec![Action::Open(Overlay::new(WritesView::new(doc)))],
                None => vec![Action::error("open a document first")],
            },
            _ => match cx.doc.and_then(|d| d.model()) {
                Some(model) => self.on_model(command, model, cx),
                None => Vec::new(),
            },
        }
    }

    fn key(&mut self, key: KeyEvent, cx: &Cx) -> Vec<Action> {
        self.filter_key(key, cx)
    }

    fn paste(&mut self, text: &str, cx: &Cx) -> Vec<Action> {
        self.filter_paste(text, cx)
    }

    fn mouse(&mut self, mouse: MouseEvent, cx: &Cx) -> Vec<Action> {
        let header = u16::from(self.filter.shown());
        match self.cursor.pointer(&mouse, self.area, header) {
            Some(Pointer::Wheel(step)) => self.go_to(self.cursor.target(step), cx),
            Some(Pointer::Click(row)) => self.go_to(row, cx),
            None => Vec::new(),
        }
    }

    fn set_area(&mut self, area: Rect) {
        self.area = area;
        self.fit();
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, focused: bool) {
        let model = cx.doc.and_then(|d| d.model());
        let count = model.map_or(0, ObjectModel::len);
        let title = title(cx.doc, count);
        let block = pane_block(&title, area.width, focused, cx.theme);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let [filter_area, list_area] = Layout::vertical([
            Constraint::Length(u16::from(self.filter.shown())),
            Constraint::Min(0),
        ])
        .areas(inner);
        if self.filter.shown() {
            frame.render_widget(
                Paragraph::new(filter_line(
                    &self.filter,
                    usize::from(filter_area.width),
                    cx.theme,
                )),
                filter_area,
            );
        }
        let dim = cx.style(Role::Dim);
        let lines: Vec<Line> = match (cx.doc, model) {
            (None, _) => vec![Line::styled(
                format!(
                    "open a document ({} in the documents pane)",
                    cx.key(Context::Documents, Command::Open)
                ),
                dim,
            )],
            (Some(doc), None) => match doc.content.error() {
                Some(error) => load_error_lines("the objects", error, cx),
                None => vec![Line::styled(
                    format!(
                        "loading… ({} stops)",
                        cx.key(Context::Objects, Command::Back)
                    ),
                    dim,
                )],
            },
            (Some(_), Some(_)) if self.rows.is_empty() && self.filter.text().is_empty() => {
                vec![Line::styled(
                    format!(
                        "no objects ({} adds one)",
                        cx.key(Context::Objects, Command::Add)
                    ),
                    dim,
                )]
            }
            (Some(_), Some(_)) if self.rows.is_empty() => {
                vec![Line::styled("nothing matches the filter", dim)]
            }
            (Some(doc), Some(model)) => {
                self.row_lines(doc, model, usize::from(list_area.width), focused, cx)
            }
        };
        // Placeholders wrap; rows are cut to the width already.
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), list_area);
    }
}

impl ObjectsPane {
    /// The tree's visible rows, `width` columns wide: the groups with their counts, the
    /// objects marked, previewed or changed elsewhere, the selected one highlighted.
    fn row_lines(
        &self,
        doc: &OpenDoc,
        model: &ObjectModel,
        width: usize,
        focused: bool,
        cx: &Cx,
    ) -> Vec<Line<'static>> {
        let names = cx.names();
        let selected = if focused {
            cx.style(Role::Selected)
        } else {
            cx.style(Role::SelectedUnfocused)
        };
        self.cursor
            .visible()
            .map(|i| {
                let line = match self.rows[i] {
                    TreeRow::Group(g, shown) => {
                        let group = &model.groups()[g];
                        let arrow = if self.folded.contains(&group.kind) {
                            "▸"
                        } else {
                            "▾"
                        };
                        let count = if shown == group.members.len() {
                            shown.to_string()
                        } else {
                            format!("{shown}/{}", group.members.len())
                        };
                        Line::styled(
                            clip(&format!("{arrow} {} ({count})", group.kind), width),
                            cx.style(Role::Heading),
                        )
                    }
                    TreeRow::Object(o) => {
                        let id = model.id(o);
                        let marked = doc.marks.contains(o);
                        let mut line = names.at(model, o).row(width, marked, cx.theme);
                        if doc.preview.contains(o) {
                            line = previewed_line(line, marked, cx);
                        }
                        if cx.recently_changed(id) {
                            changed_line(line, marked, cx)
                        } else {
                            line
                        }
                    }
                };
                if i == self.cursor.selected() {
                    selected_line(line, width, selected)
                } else {
                    line
                }
            })
            .collect()
    }
}

/// The pane's title: the open document (`doc`), its `count` of objects, its marks, or the
/// version shown.
fn title(doc: Option<&OpenDoc>, count: usize) -> String {
    match doc {
        Some(doc) if let Some(past) = doc.past => format!(
            " 2 Objects · {} · {} ({count}){} ",
            past.title(),
            doc.summary.title,
            past.changed_note()
        ),
        Some(doc) if !doc.marks.is_empty() => format!(
            " 2 Objects · {} marked · {} ({count}) ",
            doc.marks.len(),
            doc.summary.title,
        ),
        Some(doc) => format!(" 2 Objects · {} ({count}) ", doc.summary.title),
        None => " 2 Objects ".to_string(),
    }
}

/// A row changed elsewhere a moment ago: marked `↻` (unless marked by the user) and its text in
/// the changed style.
pub(super) fn changed_line(mut line: Line<'static>, marked: bool, cx: &Cx) -> Line<'static> {
    let style = cx.style(Role::Changed);
    for (i, span) in line.spans.iter_mut().enumerate() {
        if i == 0 && !marked {
            *span = Span::styled("↻ ", style);
        } else if i == 1 {
            span.style = style;
        }
    }
    line
}

/// A row of the selector preview's matches: its mark `◇` (`◈` when the user marked it too)
/// and its text in the preview's style; the user's marks are left as they are.
pub(super) fn previewed_line(mut line: Line<'static>, marked: bool, cx: &Cx) -> Line<'static> {
    let style = cx.style(Role::Previewed);
    for (i, span) in line.spans.iter_mut().enumerate() {
        if i == 0 {
            *span = Span::styled(if marked { "◈ " } else { "◇ " }, style);
        } else if i == 1 {
            span.style = span.style.patch(style);
        }
    }
    line
}
