//! The pure view: `view(&App, &mut Frame)` reads the state and draws it, nothing else.

mod bulk;
mod docs;
mod json;
mod objects;
mod overlay;
mod props;
mod selector_form;
mod status;

use ratatui::Frame;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders};

use super::app::{App, Pane};
use super::input::Filter;
use super::layout;

/// Draws the whole screen.
pub fn view(app: &App, frame: &mut Frame) {
    let screen = layout::screen(frame.area());
    docs::draw(app, frame, screen.docs);
    objects::draw(app, frame, screen.objects);
    props::draw(app, frame, screen.props);
    status::draw(app, frame, screen.status);
    if let Some(overlay) = &app.overlay {
        overlay::draw(app, overlay, frame);
    }
}

/// The bordered block of a pane, highlighted when it has the focus.
fn pane_block(app: &App, pane: Pane, title: String) -> Block<'static> {
    let focused = app.focus == pane && app.overlay.is_none();
    let style = if focused {
        Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(Color::DarkGray)
    };
    Block::new()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        })
        .border_style(style)
        .title(title)
}

/// A list's filter line: `/text`, with a cursor while it is typed.
fn filter_line(filter: &Filter) -> Line<'static> {
    let cursor = if filter.editing() { "▏" } else { "" };
    Line::from(vec![
        Span::styled("/", Style::new().fg(Color::Yellow)),
        Span::raw(format!("{}{cursor}", filter.text())),
    ])
}

/// What a pane shows when its list could not be loaded: `what`, why, and how to retry.
fn load_error_lines(what: &str, error: &str) -> Vec<Line<'static>> {
    vec![
        Line::styled(
            format!("Could not load {what}:"),
            Style::new().fg(Color::Red),
        ),
        Line::raw(error.to_string()),
        Line::styled(
            "Press R to retry.",
            Style::new().add_modifier(Modifier::BOLD),
        ),
    ]
}

/// The style of the selected row: reversed in the focused pane, underlined elsewhere.
fn selected_style(focused: bool) -> Style {
    if focused {
        Style::new().add_modifier(Modifier::REVERSED)
    } else {
        Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }
}

/// Cuts `text` to at most `width` characters, ending with `…` when cut.
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}
