//! The documents pane as a component: its keys, pastes and clicks, and how it draws: the list,
//! its filter, the selected document's details.

use super::*;

impl DocsPane {
    /// The list's visible rows, `width` columns wide: the folders, the documents (open,
    /// marked, changed elsewhere, their titles told apart), the selected one highlighted.
    fn row_lines(&self, width: usize, focused: bool, cx: &Cx) -> Vec<Line<'static>> {
        let selected = if focused {
            cx.style(Role::Selected)
        } else {
            cx.style(Role::SelectedUnfocused)
        };
        self.cursor
            .visible()
            .map(|i| match &self.rows[i] {
                DocRow::Folder {
                    folder,
                    title,
                    count,
                } => {
                    let sign = if self.folded.contains(folder) && self.filter.text().is_empty() {
                        "▸"
                    } else {
                        "▾"
                    };
                    let line = Line::styled(
                        clip(&format!("{sign} {title} ({count})"), width),
                        cx.style(Role::Heading),
                    );
                    if i == self.cursor.selected() {
                        selected_line(line, width, selected)
                    } else {
                        line
                    }
                }
                DocRow::Doc(d, positions) => {
                    let doc = &self.docs()[*d];
                    let open = cx.doc_id() == Some(doc.id.as_str());
                    let marked = self.marked.contains(&doc.id);
                    let mut spans = vec![match (marked, open, cx.recently_changed(&doc.id)) {
                        (true, _, _) => Span::styled("◆ ", cx.style(Role::Marked)),
                        (false, true, _) => Span::raw("● "),
                        (false, false, true) => Span::styled("↻ ", cx.style(Role::Changed)),
                        (false, false, false) => Span::raw("  "),
                    }];
                    let fitted = titles::fit(
                        &doc.title,
                        self.docs().iter().map(|d| d.title.as_str()),
                        width.saturating_sub(2),
                    );
                    spans.extend(highlighted(
                        &fitted.text,
                        &fitted.moved(positions),
                        width.saturating_sub(2),
                        cx.theme,
                    ));
                    let line = Line::from(spans);
                    if i == self.cursor.selected() {
                        selected_line(line, width, selected)
                    } else {
                        line
                    }
                }
            })
            .collect()
    }

    /// The details' height: the layout's, and a line per embed shown when there is room.
    pub(super) fn details_height(&self) -> u16 {
        match layout::details_height(self.area) {
            0 => 0,
            height => {
                let doc = self.selected_doc().map(|d| d.id.as_str());
                height + self.embeds.rows(doc)
            }
        }
    }

    pub(super) fn details_lines(&self, width: usize, cx: &Cx) -> Vec<Line<'static>> {
        let label = cx.style(Role::Dim);
        let row = |name: &str, value: String| {
            Line::from(vec![
                Span::styled(format!("{name:<8}"), label),
                Span::raw(clip(&value, width.saturating_sub(8))),
            ])
        };
        if let Some(error) = self.details.error() {
            return vec![Line::styled(
                clip(&format!("details: {error}"), width),
                cx.style(Role::Error),
            )];
        }
        if self.on_heading() {
            return self.heading_lines(width, cx);
        }
        let Some(selected) = self.selected_doc() else {
            return Vec::new();
        };
        let Some(d) = self.details.value().filter(|d| d.id == selected.id) else {
            return vec![Line::styled("details loading…", label)];
        };
        let count = self
            .counts
            .get(&d.id)
            .copied()
            .or(d.object_count)
            .map_or_else(|| "open it to count".to_string(), |n| n.to_string());
        let short = |t: &str| t.replace('T', " ").chars().take(19).collect::<String>();
        vec![
            Line::styled(clip(&"─".repeat(width), width), label),
            row("created", short(&d.created)),
            row("changed", short(&d.last_change)),
            row("owner", d.user.email.clone()),
            row("folder", d.folder.title.clone()),
            row("objects", count),
        ]
        .into_iter()
        .chain(self.embeds.lines(&d.id, width, cx))
        .collect()
    }
}

impl Component for DocsPane {
    fn context(&self) -> Context {
        if self.filter.typing() {
            Context::Filter
        } else {
            Context::Documents
        }
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        if let Some(step) = self.cursor.step_of(command) {
            return self.step(step, cx);
        }
        if command == Command::ClearFilter && !self.marked.is_empty() {
            self.marked.clear();
            return vec![Action::info("marks cleared")];
        }
        if let Some(actions) = self.filter_command(command, cx) {
            return actions;
        }
        if let Some(actions) = self.folder_command(command, cx) {
            return actions;
        }
        match self.selected_doc().cloned() {
            Some(doc) => self.on_selected(command, doc, cx),
            None => Vec::new(),
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
            Some(Pointer::Wheel(step)) => self.step(step, cx),
            Some(Pointer::Click(index)) if index < self.rows.len() => {
                let step = index as isize - self.cursor.selected() as isize;
                self.step(step, cx)
            }
            _ => Vec::new(),
        }
    }

    fn set_area(&mut self, area: Rect) {
        self.area = area;
        self.fit();
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, focused: bool) {
        let title = match self.marked.len() {
            0 => format!(" 1 Documents ({}) ", self.docs().len()),
            marked => format!(" 1 Documents ({}) · {marked} marked ", self.docs().len()),
        };
        let block = pane_block(&title, area.width, focused, cx.theme);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let [filter_area, list_area, details_area] = Layout::vertical([
            Constraint::Length(u16::from(self.filter.shown())),
            Constraint::Min(1),
            Constraint::Length(self.details_height()),
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
        let width = usize::from(list_area.width);
        let dim = cx.style(Role::Dim);
        let lines: Vec<Line> = if let Some(error) = self.list.error() {
            load_error_lines("documents", error, cx)
        } else if self.list.value().is_none() {
            vec![Line::styled("loading…", dim)]
        } else if self.rows.is_empty() && self.filter.text().is_empty() {
            let new = cx.key(Context::Documents, Command::New);
            vec![Line::styled(
                format!("no documents ({new} creates one)"),
                dim,
            )]
        } else if self.rows.is_empty() {
            vec![Line::styled("nothing matches the filter", dim)]
        } else {
            self.row_lines(width, focused, cx)
        };
        // Placeholders wrap; rows are cut to the width already.
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), list_area);
        frame.render_widget(Paragraph::new(self.details_lines(width, cx)), details_area);
    }
}
