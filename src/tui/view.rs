//! The pure view: `view(&App, &mut Frame)` reads the state and draws it, nothing else. Each
//! component draws itself; this lays them out and adds the status bar and the footer.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::action::Pane;
use super::app::App;
use super::component::{Component, Cx};
use super::status::look;
use super::theme::Role;
use super::widgets::clip;

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

/// Draws the whole screen.
pub fn view(app: &App, frame: &mut Frame) {
    let area = frame.area();
    let screen = app.screen(area);
    let cx = Cx {
        keys: &app.keys,
        theme: &app.theme,
        doc: app.doc.as_ref(),
        unsaved: app.props.unsaved(),
        requests: &app.requests,
        history: &app.history,
        writes: &app.writes,
        scene: app.scene.scene(),
        liveness: &app.liveness,
        now: app.tick,
    };
    let panes: [(Pane, &dyn Component); 4] = [
        (Pane::Docs, &app.docs),
        (Pane::Objects, &app.objects),
        (Pane::Props, &app.props),
        (Pane::Map, &app.map),
    ];
    for (pane, component) in panes {
        let rect = screen.pane(pane);
        if rect.width > 0 && rect.height > 0 {
            let focused = app.focus == pane && app.overlays.is_empty();
            component.draw(frame, rect, &cx, focused);
        }
    }
    status(app, frame, screen.status);
    footer(app, frame, screen.footer);
    let top = app.overlays.len().saturating_sub(1);
    for (i, overlay) in app.overlays.iter().enumerate() {
        overlay.component().draw(frame, area, &cx, i == top);
    }
}

/// The status bar: connection, account, requests in flight, when the next try to reach a server
/// that stopped answering is, and the last message.
fn status(app: &App, frame: &mut Frame, area: Rect) {
    let theme = &app.theme;
    let mut spans = vec![
        Span::styled(format!(" {} ", app.mode), theme.of(Role::Badge)),
        Span::raw(" "),
        Span::styled(
            app.account.clone().unwrap_or_else(|| "…".into()),
            theme.of(Role::Strong),
        ),
        Span::raw(" "),
    ];
    let in_flight = app.requests.in_flight();
    if in_flight > 0 {
        let frame_index = (app.tick % SPINNER.len() as u64) as usize;
        spans.push(Span::styled(
            format!("{} {in_flight} ", SPINNER[frame_index]),
            theme.of(Role::Spinner),
        ));
    }
    if let Some(offline) = app.liveness.status(app.tick) {
        spans.push(Span::styled(
            format!("! {offline} "),
            theme.of(Role::Warning),
        ));
    }
    if let Some(message) = app.status.current() {
        let (mark, role) = look(message.level);
        let text = match mark {
            "" => message.text.clone(),
            mark => format!("{mark} {}", message.text),
        };
        let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        let room = usize::from(area.width).saturating_sub(used);
        spans.push(Span::styled(clip(&text, room), theme.of(role)));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The footer: the most useful keys of what has the focus, as the key table has them.
fn footer(app: &App, frame: &mut Frame, area: Rect) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    let mut used = 0;
    let width = usize::from(area.width);
    for binding in app.keys.footer(app.context()) {
        let key = binding
            .keys
            .first()
            .map(ToString::to_string)
            .unwrap_or_default();
        let item = format!(" {key} {} ", binding.label);
        let len = item.chars().count();
        if used + len > width {
            spans.push(Span::styled(
                clip("…", width.saturating_sub(used)),
                theme.of(Role::Dim),
            ));
            break;
        }
        used += len;
        spans.push(Span::raw(" "));
        spans.push(Span::styled(key, theme.of(Role::Key)));
        spans.push(Span::styled(
            format!(" {} ", binding.label),
            theme.of(Role::Dim),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
