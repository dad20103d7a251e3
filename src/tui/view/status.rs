//! The status bar: connection, account, requests in flight, and the last error or note.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::App;

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

/// Draws the status bar into `area`.
pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let mut spans = vec![
        Span::styled(
            format!(" {} ", app.mode),
            Style::new().fg(Color::Black).bg(Color::Cyan),
        ),
        Span::raw(" "),
        Span::styled(
            app.account.clone().unwrap_or_else(|| "…".into()),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::raw(" "),
    ];
    if !app.in_flight.is_empty() {
        let frame_index = (app.tick % SPINNER.len() as u64) as usize;
        spans.push(Span::styled(
            format!("{} {} ", SPINNER[frame_index], app.in_flight.len()),
            Style::new().fg(Color::Yellow),
        ));
    }
    if let Some(error) = &app.last_error {
        spans.push(Span::styled(
            format!("✗ {error}"),
            Style::new().fg(Color::Red),
        ));
    } else if let Some(note) = &app.note {
        spans.push(Span::styled(note.clone(), Style::new().fg(Color::Green)));
    } else {
        spans.push(Span::styled(
            "? help · q quit",
            Style::new().fg(Color::DarkGray),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
