//! The pickers of a new object: its type (a menu), then for a component its componentId from
//! the catalogue shipped in `assets/`, narrowed fuzzily as you type (the matched letters
//! highlighted); an id not in the catalogue is offered as the last row and created after one
//! question.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::keys::{Command, Context};
use crate::overlays::search::{Outcome, Search};
use crate::text::text_view::clip;
use crate::text::words;
use crate::theme::Role;
use crate::vocab::action::{Action, Ask, Choice, Component, Cx, Overlay};
use crate::vocab::calls::{Body, ObjectsCall};
use crate::widgets::list::ListCursor;
use crate::widgets::pieces::{highlighted, input_spans, overlay_box, selected_line};
use diagtui_model::{ObjectType, Props};

/// The component-id catalogue shipped in `assets/`.
const CATALOGUE: &str = include_str!("../../../../assets/component-ids.txt");

/// The catalogue's ids.
fn catalogue() -> impl Iterator<Item = &'static str> {
    CATALOGUE.lines().map(str::trim).filter(|l| !l.is_empty())
}

/// The action creating a component with `id`.
fn create_component(id: &str) -> Action {
    let mut props = Props::new();
    props.insert("componentId".into(), id.into());
    Action::to_pane(ObjectsCall::Create(ObjectType::Component, props))
}

/// Rows the componentId list shows.
const ROWS: usize = 12;

/// A row of a picker: `› ` and reversed when selected.
fn pick_line(spans: Vec<Span<'static>>, selected: bool, width: usize, cx: &Cx) -> Line<'static> {
    let mut all = vec![Span::raw(if selected { "› " } else { "  " })];
    all.extend(spans);
    let line = Line::from(all);
    if selected {
        selected_line(line, width, cx.style(Role::Selected))
    } else {
        line
    }
}

/// The type of a new object.
#[derive(Debug)]
pub struct TypePicker {
    cursor: ListCursor,
}

impl Default for TypePicker {
    fn default() -> TypePicker {
        let mut cursor = ListCursor::default();
        cursor.set_rows(ObjectType::ALL.len());
        cursor.set_len(ObjectType::ALL.len());
        TypePicker { cursor }
    }
}

impl Component for TypePicker {
    fn context(&self) -> Context {
        Context::Menu
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        if let Some(step) = self.cursor.step_of(command) {
            self.cursor.step(step);
            return Vec::new();
        }
        match command {
            Command::Pick => match ObjectType::ALL[self.cursor.selected()] {
                ObjectType::Component => vec![
                    Action::Close,
                    Action::Open(Overlay::new(ComponentPicker::default())),
                ],
                kind => vec![
                    Action::Close,
                    Action::to_pane(ObjectsCall::Create(kind, Props::new())),
                ],
            },
            Command::Cancel => vec![Action::Close],
            _ => Vec::new(),
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let lines = ObjectType::ALL
            .iter()
            .enumerate()
            .map(|(i, t)| {
                pick_line(
                    vec![Span::raw(t.as_str())],
                    i == self.cursor.selected(),
                    28,
                    cx,
                )
            })
            .collect();
        let footer = vec![Line::styled(
            cx.keys.hint(
                Context::Menu,
                &[(Command::Pick, "pick"), (Command::Cancel, "cancel")],
            ),
            cx.style(Role::Dim),
        )];
        overlay_box(
            frame,
            area,
            " New object: type ",
            (lines, footer),
            (30, 10),
            cx.theme,
        );
    }
}

/// The componentId of a new component.
#[derive(Debug)]
pub struct ComponentPicker {
    search: Search,
}

impl Default for ComponentPicker {
    fn default() -> ComponentPicker {
        ComponentPicker {
            search: Search::new(catalogue().map(str::to_string).collect(), ROWS).offering_typed(),
        }
    }
}

impl Component for ComponentPicker {
    fn context(&self) -> Context {
        Context::Search
    }

    fn command(&mut self, command: Command, _cx: &Cx) -> Vec<Action> {
        match self.search.command(command) {
            Some(Outcome::Picked(index)) => {
                let id = catalogue().nth(index).unwrap_or_default();
                vec![Action::Close, create_component(id)]
            }
            Some(Outcome::Typed) => {
                let id = self.search.input().text().trim();
                if id.contains(char::is_whitespace) {
                    return vec![Action::error("a componentId has no spaces")];
                }
                vec![
                    Action::Close,
                    Action::Ask(Ask::new(
                        "New component",
                        Body::Text(format!("{id} is not in the catalogue: create anyway?")),
                        vec![
                            Choice::new(Command::Yes, "create it", vec![create_component(id)]),
                            Choice::new(Command::No, "cancel", Vec::new()),
                        ],
                    )),
                ]
            }
            Some(Outcome::Cancelled) => vec![Action::Close],
            None => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent, _cx: &Cx) -> Vec<Action> {
        self.search.key(key);
        Vec::new()
    }

    fn paste(&mut self, text: &str, _cx: &Cx) -> Vec<Action> {
        self.search.paste(text);
        Vec::new()
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let width = 54;
        let mut field = vec![Span::styled("componentId: ", cx.style(Role::Dim))];
        field.extend(input_spans(self.search.input(), width - 13, cx.theme));
        let mut lines = vec![
            Line::from(field),
            Line::styled(
                words::count(self.search.counts().0, "match", "matches"),
                cx.style(Role::Dim),
            ),
        ];
        lines.extend(self.search.rows().map(|row| {
            pick_line(
                highlighted(row.text, row.positions, width - 2, cx.theme),
                row.selected,
                width,
                cx,
            )
        }));
        if self.search.typed_row() {
            let typed = format!(
                "+ {}: not in the catalogue",
                self.search.input().text().trim()
            );
            lines.push(pick_line(
                vec![Span::styled(
                    clip(&typed, width - 2),
                    cx.style(Role::Warning),
                )],
                self.search.typed_selected(),
                width,
                cx,
            ));
        }
        let footer = vec![Line::styled(
            cx.keys.hint(
                Context::Search,
                &[(Command::Pick, "pick"), (Command::Cancel, "cancel")],
            ),
            cx.style(Role::Dim),
        )];
        overlay_box(
            frame,
            area,
            " New component ",
            (lines, footer),
            (56, ROWS as u16 + 5),
            cx.theme,
        );
    }
}
