//! The selector form as a component: its keys and pastes, and how it draws: the rows of
//! conditions, the properties to merge, the preview's count.

use super::*;

impl SelectorForm {
    /// The form, `inner` columns wide: rows, type-ahead, props, the preview (at most `shown` of
    /// its matches) or error, then the keys ([`FOOTER_LINES`] lines).
    pub(super) fn lines(&self, cx: &Cx, inner: usize, shown: usize) -> Vec<Line<'static>> {
        // The operator's meaning gets what the fields leave (the value field always shows).
        let meaning = inner.saturating_sub(ROW_FIELDS).min(MEANING);
        let mut lines = vec![Line::styled(
            "Objects whose meta match every row:",
            cx.style(Role::Strong),
        )];
        let meta_index = self.meta_index(cx);
        for (i, row) in self.rows.iter().enumerate() {
            lines.extend(self.row_lines(i, row, meaning, meta_index, cx));
        }
        lines.push(Line::raw(""));
        let props_focused = self.focus == FormFocus::Props;
        lines.push(Line::styled(
            "Props given to every match:",
            if props_focused {
                cx.style(Role::FocusBorder)
            } else {
                cx.style(Role::Strong)
            },
        ));
        lines.extend(field_lines(&self.props, props_focused, cx.theme));
        lines.push(nested_line(
            self.props.nested(),
            cx.key(Context::Form, Command::Nested),
            cx,
        ));
        lines.push(Line::raw(""));
        if self.busy() {
            lines.push(Line::styled("running…", cx.style(Role::Warning)));
        }
        if let Some(error) = &self.error {
            lines.push(Line::styled(format!("✗ {error}"), cx.style(Role::Error)));
        }
        lines.extend(self.preview_lines(inner, shown, cx));
        lines.push(Line::raw(""));
        lines.extend(footer_lines(cx));
        lines
    }

    /// Row `i` of conditions, and the suggestions for its key or value while it has the focus.
    fn row_lines(
        &self,
        i: usize,
        row: &FormRow,
        meaning: usize,
        meta_index: Option<&MetaIndex>,
        cx: &Cx,
    ) -> Vec<Line<'static>> {
        let dim = cx.style(Role::Dim);
        let mut lines = Vec::new();
        let at = |f: Field| self.focus == FormFocus::Row(i, f);
        let op_style = if at(Field::Op) {
            cx.style(Role::FieldFocused)
        } else {
            cx.style(Role::Warning)
                .add_modifier(ratatui::style::Modifier::BOLD)
        };
        let mut spans = vec![Span::styled(format!("{:>2} key ", i + 1), dim)];
        spans.extend(field(&row.key, at(Field::Key), 18, cx));
        spans.extend([
            Span::raw(" "),
            Span::styled(format!(" {} ", row.op), op_style),
            Span::styled(
                format!(" {:<meaning$}", clip(row.op.meaning(), meaning)),
                dim,
            ),
            Span::styled(" │ value ", dim),
        ]);
        spans.extend(field(&row.value, at(Field::Value), 18, cx));
        lines.push(Line::from(spans));
        let suggestions = if matches!(self.focus, FormFocus::Row(r, _) if r == i) {
            self.suggestions(meta_index)
        } else {
            Vec::new()
        };
        if !suggestions.is_empty() {
            let mut spans = vec![Span::styled("    ↳ ", dim)];
            for (n, s) in suggestions.iter().take(SUGGESTIONS).enumerate() {
                let style = if self.suggestion == Some(n) {
                    cx.style(Role::Selected)
                } else {
                    cx.style(Role::Key)
                };
                spans.push(Span::styled(clip(s, 20), style));
                spans.push(Span::raw("  "));
            }
            if suggestions.len() > SUGGESTIONS {
                spans.push(Span::styled(
                    format!("+{} more ", suggestions.len() - SUGGESTIONS),
                    dim,
                ));
            }
            let pick = cx.keys.hint(
                Context::FormField,
                &[(Command::NextSuggestion, "next"), (Command::Take, "takes")],
            );
            spans.push(Span::styled(format!("({pick})"), dim));
            lines.push(Line::from(spans));
        }
        lines
    }

    /// The preview's count and at most `shown` of its matches, `inner` columns wide.
    fn preview_lines(&self, inner: usize, shown: usize, cx: &Cx) -> Vec<Line<'static>> {
        let dim = cx.style(Role::Dim);
        let mut lines = Vec::new();
        if let Some(preview) = self.preview.value() {
            let n = preview.matches.len();
            let mut head = vec![Span::styled(
                format!("Preview: {}", words::objects_match(n)),
                cx.style(Role::Success)
                    .add_modifier(ratatui::style::Modifier::BOLD),
            )];
            if !self.preview_is_current() {
                head.push(Span::styled(
                    format!(
                        "  (the rows changed since; {} runs it again)",
                        cx.key(Context::Form, Command::Preview)
                    ),
                    cx.style(Role::Warning),
                ));
            }
            lines.push(Line::from(head));
            lines.extend(
                preview
                    .matches
                    .iter()
                    .take(shown)
                    .map(|(id, object)| typed_line(&cx.names().of_object(id, object), inner, cx)),
            );
            if n > shown {
                lines.push(Line::styled(
                    format!("  … and {} more (◇ in the tree)", n - shown),
                    dim,
                ));
            }
        }
        lines
    }
}

/// The form's two lines of keys.
fn footer_lines(cx: &Cx) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    lines.push(hint_line(
        cx.keys.hint(
            Context::Form,
            &[
                (Command::NextField, "next field"),
                (Command::PrevField, "previous"),
                (Command::AddRow, "add row"),
                (Command::RemoveRow, "remove row"),
                (Command::Erase, "clear"),
            ],
        ),
        cx.theme,
    ));
    lines.push(hint_line(
        format!(
            "{} · {}",
            cx.keys.hint(
                Context::FormOperator,
                &[(Command::NextOperator, "operator, or type it")],
            ),
            cx.keys.hint(
                Context::Form,
                &[
                    (Command::Recall, "recall"),
                    (Command::Preview, "preview"),
                    (Command::MarkMatches, "mark the matches"),
                    (Command::Apply, "apply"),
                    (Command::Close, "close (kept)"),
                ],
            )
        ),
        cx.theme,
    ));
    lines
}

impl Component for SelectorForm {
    fn context(&self) -> Context {
        match self.focus {
            FormFocus::Props => Context::Form,
            FormFocus::Row(_, Field::Op) => Context::FormOperator,
            FormFocus::Row(..) => Context::FormField,
        }
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        match command {
            Command::Close if self.suggestion.is_some() => self.suggestion = None,
            Command::Close => return vec![Action::Close],
            Command::Preview => return self.preview(false, cx),
            Command::Apply => return self.apply(cx),
            Command::Recall => return self.recall(cx),
            Command::MarkMatches => return self.mark_matches(cx),
            Command::Nested => {
                let nested = self.props.toggle_nested();
                return vec![Action::info(format!("nested: {}", nested.name()))];
            }
            Command::AddRow => {
                let at = match self.focus {
                    FormFocus::Row(i, _) => i + 1,
                    FormFocus::Props => self.rows.len(),
                };
                self.rows.insert(at, FormRow::default());
                self.focus = FormFocus::Row(at, Field::Key);
                self.suggestion = None;
            }
            Command::RemoveRow => {
                let at = match self.focus {
                    FormFocus::Row(i, _) => i,
                    FormFocus::Props => self.rows.len() - 1,
                };
                if self.rows.len() > 1 {
                    self.rows.remove(at);
                    self.focus = FormFocus::Row(at.min(self.rows.len() - 1), Field::Key);
                } else {
                    self.rows[0] = FormRow::default();
                    self.focus = FormFocus::Row(0, Field::Key);
                }
                self.suggestion = None;
            }
            Command::NextField => self.move_focus(1),
            Command::PrevField => self.move_focus(-1),
            Command::UndoText | Command::RedoText => {
                let undo = command == Command::UndoText;
                match self.focus {
                    FormFocus::Props if undo => self.props.undo(),
                    FormFocus::Props => self.props.redo(),
                    _ => {
                        if let Some(input) = self.focused_input() {
                            if undo {
                                input.undo();
                            } else {
                                input.redo();
                            }
                        }
                        self.suggestion = None;
                    }
                }
            }
            Command::Erase => match self.focus {
                FormFocus::Props => self.props.clear(),
                _ => {
                    if let Some(input) = self.focused_input() {
                        input.clear();
                    }
                    self.suggestion = None;
                }
            },
            Command::NextOperator | Command::PrevOperator => {
                if let FormFocus::Row(i, Field::Op) = self.focus {
                    let step = if command == Command::NextOperator {
                        1
                    } else {
                        -1
                    };
                    self.rows[i].cycle_operator(step);
                }
            }
            Command::NextSuggestion | Command::PrevSuggestion => {
                let count = self.suggestions(self.meta_index(cx)).len();
                if count > 0 {
                    let down = command == Command::NextSuggestion;
                    self.suggestion = Some(match (self.suggestion, down) {
                        (None, true) => 0,
                        (None, false) => count - 1,
                        (Some(at), true) => (at + 1).min(count - 1),
                        (Some(at), false) => at.saturating_sub(1),
                    });
                }
            }
            Command::Take => {
                let suggestions = self.suggestions(self.meta_index(cx));
                if let Some(pick) = self.suggestion.and_then(|at| suggestions.get(at)).cloned()
                    && let Some(input) = self.focused_input()
                {
                    *input = LineInput::new(pick);
                }
                self.move_focus(1);
            }
            _ => {}
        }
        Vec::new()
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        match self.focus {
            FormFocus::Props => self.props.input(key),
            FormFocus::Row(i, Field::Op) => {
                if let KeyCode::Char(c) = key.code
                    && !key.modifiers.contains(KeyModifiers::CONTROL)
                {
                    self.rows[i].type_operator(c);
                }
            }
            FormFocus::Row(..) => {
                if let Some(input) = self.focused_input()
                    && input.handle(key)
                {
                    self.suggestion = None;
                }
            }
        }
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        match self.focus {
            FormFocus::Props => self.props.paste(text),
            FormFocus::Row(i, Field::Op) => match Operator::parse(text.trim()) {
                Some(op) => self.rows[i].op = op,
                None => {
                    let names: Vec<&str> = Operator::ALL.iter().map(|o| o.as_str()).collect();
                    return vec![Action::info(format!(
                        "the operator field takes one of {}",
                        names.join(" ")
                    ))];
                }
            },
            _ => {
                if let Some(input) = self.focused_input() {
                    input.paste(text);
                    self.suggestion = None;
                }
            }
        }
        Vec::new()
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let inner = WIDTH.min(area.width).saturating_sub(2);
        // The preview lists as many matches as the screen leaves room for (the rest are ◇ in
        // the tree), so the keys below it always show.
        let lines = self.lines(cx, usize::from(inner), PREVIEW_ROWS);
        let over = (wrapped_rows(&lines, inner) + 2).saturating_sub(usize::from(area.height));
        let mut lines = match over {
            0 => lines,
            over => self.lines(cx, usize::from(inner), PREVIEW_ROWS.saturating_sub(over)),
        };
        let footer = lines.split_off(lines.len() - FOOTER_LINES);
        let height = (lines.len() + footer.len()) as u16 + 2;
        overlay_box(
            frame,
            area,
            " Selector ",
            (lines, footer),
            (WIDTH, height),
            cx.theme,
        );
    }
}

/// A one-line field padded to `width` columns, with the cursor when focused (the text scrolls
/// to keep it in view).
pub(super) fn field(input: &LineInput, focused: bool, width: usize, cx: &Cx) -> Vec<Span<'static>> {
    let style = if focused {
        cx.style(Role::FieldFocused)
    } else {
        cx.style(Role::Field)
    };
    let spans = if focused {
        input_spans(input, width, cx.theme)
    } else {
        vec![Span::raw(clip(input.text(), width))]
    };
    selected_line(Line::from(spans), width, style).spans
}
