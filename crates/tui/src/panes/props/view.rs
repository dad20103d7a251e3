//! The properties pane as a component: its keys, pastes and clicks, and how it draws: the
//! object's text with its gutter and messages, or a type's summary.

use super::*;

impl PropsPane {
    /// The rows of text shown, `height` of them: numbered and marked lines, cut sideways at the
    /// view's column with markers, or wrapped.
    pub(super) fn text_lines(&self, cx: &Cx, focused: bool, height: usize) -> Vec<Line<'static>> {
        let syntax_line = self.check.syntax.as_ref().map(|e| e.line);
        let warned = |n: usize| self.check.warnings.iter().any(|w| w.line == n);
        let (cursor_row, cursor_col) = self.buffer.cursor();
        let editing = self.mode == Mode::Edit && focused;
        let lines = self.buffer.lines();
        let numbers = gutter(lines.len()) - 1;
        let width = self.text_width();
        let marker = cx.style(Role::Dim);
        let first = if self.wrap {
            self.top
        } else {
            self.view.offset()
        };
        let mut rows = Vec::new();
        for (i, text) in lines.iter().enumerate().skip(first) {
            if rows.len() >= height {
                break;
            }
            let n = i + 1;
            let (mark, mark_style) = if syntax_line == Some(n) {
                ("✗", cx.style(Role::Error).add_modifier(Modifier::BOLD))
            } else if warned(n) {
                ("!", cx.style(Role::Warning).add_modifier(Modifier::BOLD))
            } else {
                (" ", Style::new())
            };
            let number_style = if focused && i == cursor_row && !editing {
                cx.style(Role::Strong)
            } else {
                cx.style(Role::Dim)
            };
            let spans = if editing && i == cursor_row {
                with_cursor(text, cursor_col, cx.theme)
            } else {
                highlight(text, cx.theme)
            };
            let head = vec![
                Span::styled(format!("{n:>numbers$}"), number_style),
                Span::styled(mark, mark_style),
            ];
            if !self.wrap {
                let mut row = head;
                let offset = if i == self.hscroll.0 {
                    self.hscroll.1
                } else {
                    0
                };
                row.extend(text_view::window(spans, offset, width, marker));
                rows.push(Line::from(row));
                continue;
            }
            let shown: String = spans.iter().map(|s| s.content.as_ref()).collect();
            let starts = text_view::row_starts(&shown, width);
            for (part, &at) in starts.iter().enumerate() {
                let mut row = if part == 0 {
                    head.clone()
                } else {
                    vec![Span::styled(format!("{:>numbers$}↳", ""), marker)]
                };
                let end = starts.get(part + 1).copied().unwrap_or(usize::MAX);
                row.extend(text_view::slice(spans.clone(), at, end));
                rows.push(Line::from(row));
            }
        }
        rows.truncate(height);
        rows
    }
}

impl Component for PropsPane {
    fn context(&self) -> Context {
        if self.mode == Mode::Edit && self.target.is_some() {
            Context::Edit
        } else {
            Context::Properties
        }
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        if self.target.is_none() {
            return match command {
                Command::Back => vec![Action::Focus(OBJECTS)],
                _ => Vec::new(),
            };
        }
        if let Some(step) = self.view.step_of(command) {
            self.move_lines(step);
            return Vec::new();
        }
        match command {
            Command::Edit | Command::ViewMode => {
                self.mode = if command == Command::Edit {
                    Mode::Edit
                } else {
                    Mode::View
                };
                self.fit();
                Vec::new()
            }
            Command::Back => vec![Action::Focus(OBJECTS)],
            Command::ExternalEdit => vec![Action::ExternalEdit],
            Command::Undo => self.undo(cx),
            Command::Save => self.begin_save(),
            Command::Wrap => {
                self.wrap = !self.wrap;
                self.fit();
                vec![Action::info(if self.wrap {
                    "long lines wrap"
                } else {
                    "long lines scroll sideways"
                })]
            }
            Command::UndoText | Command::RedoText => {
                let changed = if command == Command::UndoText {
                    self.buffer.undo()
                } else {
                    self.buffer.redo()
                };
                if changed {
                    self.recheck();
                }
                Vec::new()
            }
            Command::ServerDiff | Command::Reload | Command::Keep | Command::Recreate => {
                self.on_server_side(command, cx)
            }
            _ => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        if self.mode == Mode::Edit && self.buffer.key(key) {
            self.recheck();
        }
        self.fit();
        Vec::new()
    }

    fn paste(&mut self, text: &str, cx: &Cx) -> Vec<Action> {
        if self.mode == Mode::Edit && self.target.is_some() {
            if self.buffer.paste(text) {
                self.recheck();
            }
            return Vec::new();
        }
        cx.paste_elsewhere(Context::Properties, Command::Edit, "editing")
    }

    fn mouse(&mut self, mouse: MouseEvent, _cx: &Cx) -> Vec<Action> {
        match self.view.pointer(&mouse, self.area, 0) {
            Some(Pointer::Wheel(step)) if self.wrap => self.move_lines(step),
            Some(Pointer::Wheel(step)) => self.view.scroll(step),
            _ => {}
        }
        Vec::new()
    }

    fn set_area(&mut self, area: Rect) {
        self.area = area;
        self.fit();
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, focused: bool) {
        let title = match (&self.target, &self.heading) {
            (Some(t), _) => {
                let past = cx.doc.and_then(|d| d.past);
                let mode = match past {
                    Some(past) => past.title(),
                    None if self.mode == Mode::Edit => "EDIT".to_owned(),
                    None => "VIEW".to_owned(),
                };
                let dirty = if self.is_dirty() { " ●" } else { "" };
                let saving = if self.save == Save::Idle {
                    ""
                } else {
                    " saving…"
                };
                // The id whole first, then the name (cut first in a narrow pane).
                let name = match cx.name_of(&t.obj) {
                    name if name == t.obj => String::new(),
                    name => format!(" · {name}"),
                };
                format!(
                    " 3 Properties [{mode}]{dirty} {} {}{saving}{name} ",
                    t.kind, t.obj
                )
            }
            (None, Some(summary)) => format!(" 3 Properties · type {} ", summary.kind),
            (None, None) => " 3 Properties ".to_string(),
        };
        let block = pane_block(&title, area.width, focused, cx.theme);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        if self.target.is_none() {
            let lines = match &self.heading {
                Some(summary) => summary_lines(summary, usize::from(inner.width), cx),
                None => vec![Line::styled(
                    "select an object to see its properties",
                    cx.style(Role::Dim),
                )],
            };
            frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
            return;
        }
        let messages = self.messages();
        let banner = self.server.banner(self.context(), cx);
        let [banner_area, text_area, footer_area] = Layout::vertical([
            Constraint::Length(u16::from(banner.is_some()) * 2),
            Constraint::Min(0),
            Constraint::Length(messages.len() as u16),
        ])
        .areas(inner);
        if let Some(banner) = banner {
            frame.render_widget(
                Paragraph::new(Line::styled(banner, cx.style(Role::Warning)))
                    .wrap(Wrap { trim: false }),
                banner_area,
            );
        }
        let lines = self.text_lines(cx, focused, usize::from(text_area.height));
        frame.render_widget(Paragraph::new(lines), text_area);
        let footer: Vec<Line> = messages
            .into_iter()
            .map(|(level, text)| {
                let role = if level == Level::Error {
                    Role::Error
                } else {
                    Role::Warning
                };
                Line::styled(text, cx.style(role))
            })
            .collect();
        frame.render_widget(Paragraph::new(footer), footer_area);
    }
}

/// What the pane shows for a type heading, `width` wide: the counts, the meta of its objects
/// (a row a key), a selector that previews some of them, and the keys that act on them.
pub(super) fn summary_lines(summary: &TypeSummary, width: usize, cx: &Cx) -> Vec<Line<'static>> {
    let dim = cx.style(Role::Dim);
    let mut lines = vec![
        Line::styled(
            format!(
                "{}: {}, {} shown{}",
                summary.kind,
                words::objects(summary.count),
                summary.shown,
                match summary.marked {
                    0 => String::new(),
                    n => format!(", {n} marked"),
                }
            ),
            cx.style(Role::Strong),
        ),
        Line::raw(""),
    ];
    if summary.meta.is_empty() {
        lines.push(Line::styled("no meta on these objects", dim));
    } else {
        lines.push(Line::styled("their meta (value: objects):", dim));
        for (key, values) in summary.listed() {
            let key = format!("  {key}  ");
            let values = match values {
                Listed::Values(values) => values
                    .iter()
                    .map(|(v, n)| format!("{v}: {n}"))
                    .collect::<Vec<_>>()
                    .join(" · "),
                Listed::Distinct(n) => format!("{n} different values"),
            };
            let room = width.saturating_sub(key.chars().count());
            lines.push(Line::from(vec![
                Span::styled(key, cx.style(Role::JsonKey)),
                Span::raw(clip(&values, room)),
            ]));
        }
    }
    lines.push(Line::raw(""));
    if let Some((selector, n)) = summary.example() {
        lines.push(Line::raw(format!(
            "Preview them by meta: {} in the objects opens the selector form; `{selector}` matches {n} of them.",
            cx.key(Context::Objects, Command::Selector),
        )));
    }
    lines.push(Line::styled(
        format!(
            "{} on the heading marks the {} shown (again: unmarks them); {} folds.",
            cx.key(Context::Objects, Command::Mark),
            summary.shown,
            cx.key(Context::Objects, Command::Activate)
        ),
        dim,
    ));
    lines
}
