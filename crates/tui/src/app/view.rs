//! The pure view: `view(&App, &mut Frame)` reads the state and draws it, nothing else. Each
//! component draws itself; this lays them out and adds the status bar and the footer.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::action::Pane;
use crate::app::component::{Component, Cx};
use crate::app::status::look;
use crate::app::update::App;
use crate::keys::{Command, Context};
use crate::overlays::{Overlay, Shown};
use crate::theme::Role;
use crate::widgets::text_view::clip;

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

/// The status bar's parts: what it always says (connection, account, requests in flight, when
/// the next try to reach a server that stopped answering is), then the last message, if any.
fn status_parts(app: &App) -> (Vec<Span<'static>>, Option<Span<'static>>) {
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
    let message = app.status.current().map(|message| {
        let (mark, role) = look(message.level);
        let text = match mark {
            "" => message.text.clone(),
            mark => format!("{mark} {}", message.text),
        };
        Span::styled(text, theme.of(role))
    });
    (spans, message)
}

/// Columns `spans` take.
fn columns(spans: &[Span]) -> usize {
    spans.iter().map(|s| s.content.chars().count()).sum()
}

/// The status bar's rows on a screen `width` columns wide: two while its message does not fit
/// on one (an error is read whole, with its code), else one.
pub fn status_rows(app: &App, width: u16) -> u16 {
    let (spans, message) = status_parts(app);
    let used = columns(&spans) + message.map_or(0, |m| m.content.chars().count());
    if used > usize::from(width) { 2 } else { 1 }
}

/// The status bar ([`status_parts`]) on its one or two rows, broken between words where it
/// can. A message longer than two rows ends by naming the key of the log, which shows it whole.
fn status(app: &App, frame: &mut Frame, area: Rect) {
    let (mut spans, message) = status_parts(app);
    let (width, height) = (usize::from(area.width), usize::from(area.height));
    let prefix = columns(&spans);
    let mut rows = Vec::new();
    if let Some(message) = message {
        spans.push(message.clone());
        rows = wrap(&spans, width, true);
        let room = (width * height).saturating_sub(prefix);
        if rows.len() > height && message.content.chars().count() <= room {
            rows = wrap(&spans, width, false);
        } else if rows.len() > height {
            let tail = format!(
                " ({} shows it whole)",
                app.keys.key(Context::Global, Command::Log)
            );
            let tail = if room > tail.chars().count() + 8 {
                tail
            } else {
                String::new()
            };
            let cut = clip(&message.content, room - tail.chars().count());
            *spans.last_mut().expect("the message") = Span::styled(cut + &tail, message.style);
            rows = wrap(&spans, width, false);
        }
    }
    if rows.is_empty() {
        rows = vec![Line::from(spans)];
    }
    rows.truncate(height);
    frame.render_widget(Paragraph::new(rows), area);
}

/// `spans` in rows of `width` columns; with `words`, a row ends after its last space rather
/// than inside a word (when the word is shorter than a third of the row).
fn wrap(spans: &[Span<'static>], width: usize, words: bool) -> Vec<Line<'static>> {
    let width = width.max(1);
    let mut rows: Vec<Vec<(char, Style)>> = vec![Vec::new()];
    for span in spans {
        for c in span.content.chars() {
            let row = rows.last_mut().expect("there is a row");
            if row.len() == width {
                let space = row.iter().rposition(|(c, _)| *c == ' ');
                let carried = match space {
                    Some(at) if words && width - at - 1 < width / 3 => row.split_off(at + 1),
                    _ => Vec::new(),
                };
                rows.push(carried);
            }
            rows.last_mut()
                .expect("there is a row")
                .push((c, span.style));
        }
    }
    rows.into_iter()
        .map(|row| {
            let mut line: Vec<Span<'static>> = Vec::new();
            for (c, style) in row {
                match line.last_mut() {
                    Some(last) if last.style == style => last.content.to_mut().push(c),
                    _ => line.push(Span::styled(c.to_string(), style)),
                }
            }
            Line::from(line)
        })
        .collect()
}

/// The footer: the most useful keys of what has the focus, as the key table has them; under a
/// question, its answers and keys, as its box shows them.
fn footer(app: &App, frame: &mut Frame, area: Rect) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    let mut used = 0;
    let width = usize::from(area.width);
    let items: Vec<Shown> = match app.overlays.last() {
        Some(Overlay::Question(question)) => question.keys_shown(&app.keys),
        _ => app
            .keys
            .footer(app.context())
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
