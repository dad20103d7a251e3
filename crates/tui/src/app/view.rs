//! The pure view: `view(&App, &mut Frame)` reads the state and draws it, nothing else. Each
//! component draws itself; this lays them out and adds the status bar and the footer.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::update::App;
use crate::overlays::{Question, Shown};
use crate::panes::Panes;
use crate::text::text_view::clip;
use crate::theme::Role;
use crate::vocab::action::Cx;

/// Draws the whole screen.
pub fn view(app: &App, frame: &mut Frame) {
    let area = frame.area();
    let screen = app.screen(area);
    let cx = Cx {
        keys: &app.keys,
        theme: &app.theme,
        doc: app.doc.as_ref(),
        unsaved: app.panes.props.unsaved(),
        requests: &app.requests,
        history: &app.history,
        writes: &app.writes,
        scene: app.scene.scene(),
        liveness: &app.liveness,
        places: &app.places,
        now: app.tick,
    };
    for &pane in Panes::ALL {
        let rect = Panes::area(pane, &screen, &app.shown);
        if rect.width > 0 && rect.height > 0 {
            let focused = app.focus == pane && app.overlays.is_empty();
            app.panes.get(pane).draw(frame, rect, &cx, focused);
        }
    }
    app.status_bar().draw(frame, screen.status);
    footer(app, frame, screen.footer);
    let top = app.overlays.len().saturating_sub(1);
    for (i, overlay) in app.overlays.iter().enumerate() {
        overlay.component().draw(frame, area, &cx, i == top);
    }
}

/// The footer: the most useful keys of what has the focus, as the key table has them; under a
/// question, its answers and keys, as its box shows them.
fn footer(app: &App, frame: &mut Frame, area: Rect) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    let mut used = 0;
    let width = usize::from(area.width);
    let items: Vec<Shown> = match app.overlays.last() {
        Some(top) if let Some(question) = top.get::<Question>() => question.keys_shown(&app.keys),
        _ => app
            .keys
            .footer(app.context())
            // The history view refuses the writes: the footer does not offer them.
            .filter(|binding| app.refusal(binding.context, binding.command).is_none())
            .map(|binding| Shown {
                keys: binding
                    .keys
                    .first()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                label: binding.label.to_string(),
                highlighted: false,
            })
            .collect(),
    };
    for Shown {
        keys: key,
        label,
        highlighted,
    } in items
    {
        let item = format!(" {key} {label} ");
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
        let (key_style, label_style) = match highlighted {
            true => (theme.of(Role::Selected), theme.of(Role::Selected)),
            false => (theme.of(Role::Key), theme.of(Role::Dim)),
        };
        spans.push(Span::styled(key, key_style));
        spans.push(Span::styled(format!(" {label} "), label_style));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
