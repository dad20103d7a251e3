//! The open document's history (`H`): its versions from the server, newest first, paged as the
//! list is scrolled down (`before`/`limit`), each with when, who and what (the objects by name);
//! under the list, what the highlighted version changed, by path. `Enter` shows the document as
//! it was at that version (read-only), `n` back as it is now, `r` restores it (asks first, with
//! how many objects change). The past view and the restore are App's (`app/past.rs`).

use std::collections::{HashMap, HashSet};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::document::RequestId;
use crate::keys::{Command, Context};
use crate::overlays::version_text::{change_lines, row, when};
use crate::requests::api;
use crate::requests::call::Request;
use crate::requests::purpose::{Answered, VersionsReply};
use crate::theme::Role;
use crate::vocab::action::{Action, Component, Cx};
use crate::widgets::list::ListCursor;
use crate::widgets::pieces::{cursor_rows, hint_line, overlay_box, wrapped_rows};
use crate::writes::server_undo;
use diagtui_model::ErrorCode;
use diagtui_model::history::{Version, VersionDetails};

/// Width of the box.
const WIDTH: u16 = 110;
/// Versions listed at once.
const ROWS: usize = 10;
/// Lines of the highlighted version's changes shown.
const CHANGE_LINES: usize = 12;
/// Versions asked for at a time.
const PAGE: usize = 50;
/// Versions that changed at most this many objects have their details read with their page
/// (to name the objects in their rows); bigger ones when highlighted.
const PREFETCH: u64 = 50;

/// The history overlay.
#[derive(Debug)]
pub struct VersionsView {
    doc: String,
    title: String,
    versions: Vec<Version>,
    /// The `before` of the next page; `None` once the oldest version is listed.
    next_before: Option<u64>,
    /// Whether the first page arrived.
    listed: bool,
    /// The page request awaited.
    page: Option<RequestId>,
    /// Why the last page could not be read.
    error: Option<String>,
    /// Each version's changed objects, once read (or why not).
    details: HashMap<u64, Result<VersionDetails, String>>,
    /// The versions whose details were asked for.
    asked: HashSet<u64>,
    /// The version the past view shows, if any.
    shown: Option<u64>,
    cursor: ListCursor,
    /// How far what the highlighted version changed is scrolled (`J`/`K`).
    changes_scroll: usize,
}

impl VersionsView {
    /// The history of document `doc` titled `title`; `shown` is the version the past view
    /// shows. Send what [`VersionsView::next_page`] returns to list it.
    pub fn new(doc: &str, title: &str, shown: Option<u64>) -> VersionsView {
        let mut cursor = ListCursor::default();
        cursor.set_rows(ROWS);
        VersionsView {
            doc: doc.to_owned(),
            title: title.to_owned(),
            versions: Vec::new(),
            next_before: None,
            listed: false,
            page: None,
            error: None,
            details: HashMap::new(),
            asked: HashSet::new(),
            shown,
            cursor,
            changes_scroll: 0,
        }
    }

    /// The document whose history it lists.
    pub fn doc(&self) -> &str {
        &self.doc
    }

    /// Asks for the next page (the first when none is listed), unless one is under way or the
    /// oldest version is listed.
    pub fn next_page(&mut self, cx: &Cx) -> Vec<Action> {
        if self.page.is_some() || (self.listed && self.next_before.is_none()) {
            return Vec::new();
        }
        let call = api::history(self.doc.clone(), self.next_before, PAGE);
        let sent = cx.send(call, |page| Answered::Versions(VersionsReply::Page(page)));
        self.page = Some(sent.id);
        vec![Action::Send(sent)]
    }

    /// Lists the history again from the newest version (a restore added one).
    pub fn relist(&mut self, shown: Option<u64>, cx: &Cx) -> Vec<Action> {
        *self = VersionsView::new(&self.doc, &self.title, shown);
        self.next_page(cx)
    }

    /// Asks for the changed objects of `version` unless they were asked for.
    fn details_of(&mut self, version: u64, cx: &Cx) -> Option<Action> {
        if !self.asked.insert(version) {
            return None;
        }
        let call = api::version(self.doc.clone(), version);
        Some(Action::Send(cx.send(call, |details| {
            Answered::Versions(VersionsReply::Details(details))
        })))
    }

    /// The highlighted version.
    fn selected(&self) -> Option<&Version> {
        self.versions.get(self.cursor.selected())
    }

    /// After the highlight moved: its details, and the next page when it reached the last row.
    fn moved(&mut self, cx: &Cx) -> Vec<Action> {
        self.changes_scroll = 0;
        let mut actions = Vec::new();
        if let Some(version) = self.selected().map(|v| v.version) {
            actions.extend(self.details_of(version, cx));
        }
        if self.cursor.selected() + 1 >= self.versions.len() {
            actions.extend(self.next_page(cx));
        }
        actions
    }

    /// An answer to one of its requests.
    pub fn on_reply(
        &mut self,
        reply: VersionsReply,
        id: RequestId,
        request: Request,
        cx: &Cx,
    ) -> Vec<Action> {
        match reply {
            VersionsReply::Page(outcome) => {
                if self.page != Some(id) {
                    return Vec::new();
                }
                self.page = None;
                match outcome {
                    Ok(page) => {
                        self.listed = true;
                        self.error = None;
                        self.next_before = page.next_before;
                        let first = self.versions.is_empty();
                        self.versions.extend(page.versions);
                        self.cursor.set_len(self.versions.len());
                        if first && let Some(at) = self.shown_index() {
                            self.cursor.select(at);
                        }
                        let cheap: Vec<u64> = self
                            .versions
                            .iter()
                            .filter(|v| v.changed <= PREFETCH)
                            .map(|v| v.version)
                            .collect();
                        let mut actions: Vec<Action> = cheap
                            .into_iter()
                            .filter_map(|v| self.details_of(v, cx))
                            .collect();
                        actions.extend(self.moved(cx));
                        actions
                    }
                    Err(failure) => {
                        let missing = failure.status == Some(404)
                            && failure.code != Some(ErrorCode::DocNotFound);
                        let said = failure.said_for(&request);
                        self.error = Some(match missing {
                            true => {
                                format!("this server keeps no history of its documents: {said}")
                            }
                            false => said,
                        });
                        Vec::new()
                    }
                }
            }
            VersionsReply::Details(outcome) => {
                let Request::Version { version, .. } = request else {
                    return Vec::new();
                };
                let details = outcome
                    .map(|details| *details)
                    .map_err(|failure| failure.said_for(&request));
                self.details.insert(version, details);
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// The `room` lines of `all` from `changes_scroll` on, the first or last one a marker
    /// where more lies above or below (naming the keys that scroll).
    fn window(&self, all: Vec<Line<'static>>, room: usize, cx: &Cx) -> Vec<Line<'static>> {
        if all.len() <= room {
            return all;
        }
        let scroll = self.changes_scroll.min(all.len() - room);
        let keys = format!(
            "{} {}: scroll",
            cx.key(Context::Versions, Command::ScrollDown),
            cx.key(Context::Versions, Command::ScrollUp)
        );
        let mut shown: Vec<Line<'static>> = all.into_iter().skip(scroll).collect();
        let below = shown.len().saturating_sub(room);
        shown.truncate(room);
        let dim = cx.style(Role::Dim);
        if below > 0 && room > 1 {
            shown[room - 1] = Line::styled(format!("  ↓ {} more ({keys})", below + 1), dim);
        }
        if scroll > 0 && room > 2 {
            shown[0] = Line::styled(format!("  ↑ {} more ({keys})", scroll + 1), dim);
        }
        shown
    }

    /// The versions listed at once on a screen `height` rows tall: fewer on a short screen,
    /// to leave room for what the highlighted one changed.
    fn list_rows(height: u16) -> usize {
        ROWS.min(usize::from(height.saturating_sub(2) / 3)).max(3)
    }

    /// Where the version the past view shows is in the list.
    fn shown_index(&self) -> Option<usize> {
        let shown = self.shown?;
        self.versions.iter().position(|v| v.version == shown)
    }

    /// The heading of what the highlighted version changed: its number, kind, who, when and
    /// how many objects.
    fn heading(version: &Version, cx: &Cx) -> Line<'static> {
        let who = version.account.as_deref().unwrap_or("no account");
        Line::styled(
            format!(
                "Version {} · {} · {} · {} · {} object(s) changed",
                version.version,
                version.kind.as_str(),
                who,
                when(version),
                version.changed
            ),
            cx.style(Role::Heading),
        )
    }

    /// The lines under the list: the highlighted version's heading, then what it changed in
    /// at most `room` lines, scrolled to `changes_scroll`, a marker where it goes on
    /// (`↓ 3 more`).
    fn change_part(&self, width: usize, room: usize, cx: &Cx) -> Vec<Line<'static>> {
        let Some(version) = self.selected() else {
            return Vec::new();
        };
        let mut lines = vec![VersionsView::heading(version, cx)];
        match self.details.get(&version.version) {
            None => lines.push(Line::styled(
                "reading what it changed…",
                cx.style(Role::Dim),
            )),
            Some(Err(why)) => lines.push(Line::styled(
                format!("what it changed could not be read: {why}"),
                cx.style(Role::Error),
            )),
            Some(Ok(details)) if details.objects.is_empty() => {
                lines.push(Line::styled("it changed no object", cx.style(Role::Dim)))
            }
            Some(Ok(details)) => {
                let all = change_lines(details, width, cx);
                lines.extend(self.window(all, room.max(1), cx));
            }
        }
        lines
    }
}

impl Component for VersionsView {
    fn context(&self) -> Context {
        Context::Versions
    }

    fn command(&mut self, command: Command, cx: &Cx) -> Vec<Action> {
        self.cursor.set_len(self.versions.len());
        if let Some(step) = self.cursor.step_of(command) {
            self.cursor.step(step);
            return self.moved(cx);
        }
        let selected = self.selected().map(|v| v.version);
        let newest = self.versions.first().map(|v| v.version);
        match (command, selected) {
            // The newest version is the document as it is now.
            (Command::Open, Some(version)) if Some(version) == newest => {
                vec![Action::Close, Action::ShowVersion(None)]
            }
            (Command::Open, Some(version)) => {
                vec![Action::Close, Action::ShowVersion(Some(version))]
            }
            (Command::Restore, Some(version)) => vec![Action::AskRestore(version)],
            (Command::Undo, Some(version)) => match self.details.get(&version) {
                Some(Ok(details)) => {
                    server_undo::ask_version(&self.doc, details, Some(version) == newest, cx)
                }
                _ => vec![Action::info(format!(
                    "what version {version} changed is still being read: {} again once it shows",
                    cx.key(Context::Versions, Command::Undo)
                ))],
            },
            (Command::ScrollDown, _) => {
                self.changes_scroll += 1;
                Vec::new()
            }
            (Command::ScrollUp, _) => {
                self.changes_scroll = self.changes_scroll.saturating_sub(1);
                Vec::new()
            }
            (Command::Present, _) => vec![Action::Close, Action::ShowVersion(None)],
            (Command::Close, _) => vec![Action::Close],
            _ => Vec::new(),
        }
    }

    fn set_area(&mut self, area: Rect) {
        self.cursor.set_rows(VersionsView::list_rows(area.height));
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cx: &Cx, _focused: bool) {
        let inner = usize::from(WIDTH.min(area.width)).saturating_sub(2);
        let mut cursor = self.cursor;
        cursor.set_len(self.versions.len());
        cursor.set_rows(VersionsView::list_rows(area.height));
        let mut lines = vec![Line::styled(
            format!("The versions of \"{}\", newest first:", self.title),
            cx.style(Role::Strong),
        )];
        if let Some(why) = &self.error {
            lines.push(Line::styled(
                format!("the history could not be read: {why}"),
                cx.style(Role::Error),
            ));
        } else if !self.listed {
            lines.push(Line::styled("reading the history…", cx.style(Role::Dim)));
        } else if self.versions.is_empty() {
            lines.push(Line::styled(
                "no version yet: the history begins with the next write",
                cx.style(Role::Dim),
            ));
        }
        lines.extend(cursor_rows(
            &cursor,
            inner,
            |i| {
                let version = &self.versions[i];
                let details = self
                    .details
                    .get(&version.version)
                    .and_then(|d| d.as_ref().ok());
                let mut line = row(version, details, inner, cx);
                if Some(version.version) == self.shown {
                    line.spans.insert(0, "▸".into());
                }
                line
            },
            if self.next_before.is_some() {
                "older (more as you scroll)"
            } else {
                "older"
            },
            cx,
        ));
        lines.push(Line::raw(""));
        let mut footer = vec![Line::raw("")];
        footer.push(hint_line(
            cx.keys.hint(
                Context::Versions,
                &[
                    (Command::Open, "show it (read-only)"),
                    (Command::Present, "back to now"),
                    (Command::Restore, "restore it (asks)"),
                    (Command::Undo, "undo its changes (asks)"),
                    (Command::Close, "close"),
                ],
            ),
            cx.theme,
        ));
        // What the highlighted version changed gets the rows the list and the keys leave.
        let width = u16::try_from(inner).unwrap_or(u16::MAX);
        let heading = self
            .selected()
            .map_or(0, |v| wrapped_rows(&[VersionsView::heading(v, cx)], width));
        let used = wrapped_rows(&lines, width) + wrapped_rows(&footer, width) + heading + 2;
        let room = usize::from(area.height)
            .saturating_sub(used)
            .min(CHANGE_LINES);
        lines.extend(self.change_part(inner, room, cx));
        let height = (lines.len() + footer.len()) as u16 + 2;
        let title = match self.shown {
            Some(v) => format!(" History · showing version {v} "),
            None => " History ".to_owned(),
        };
        overlay_box(
            frame,
            area,
            &title,
            (lines, footer),
            (WIDTH, height),
            cx.theme,
        );
    }
}
