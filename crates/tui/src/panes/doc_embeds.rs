//! The selected document's embeds, in the documents pane's details: read with the details,
//! shown one a line (live first), and their URLs copied in turn to the clipboard (OSC 52) by
//! `copy_embed_url`. A server that serves no embeds (a list that fails) shows none.

use ratatui::text::{Line, Span};

use crate::document::RequestId;
use crate::document::load::Load;
use crate::keys::{Command, Context};
use crate::requests::api;
use crate::requests::purpose::{Answered, Outcome};
use crate::text::text_view::clip;
use crate::theme::Role;
use crate::vocab::action::{Action, Cx};
use diagtui_model::embeds::{Embed, EmbedKind, EmbedList};

/// The most embeds the details show; more are summed up on the last line.
const MAX_LINES: usize = 3;

/// A document's embeds as the pane knows them, and which URL the next copy takes.
#[derive(Debug, Default)]
pub struct DocEmbeds {
    list: Load<EmbedList>,
    doc: Option<String>,
    next: usize,
}

/// An embed's kind as a word.
fn kind(embed: &Embed) -> &'static str {
    match embed.kind {
        EmbedKind::Live => "live",
        EmbedKind::Static => "static",
    }
}

impl DocEmbeds {
    /// Asks for document `doc`'s embeds, unless they are read already (a write to the
    /// document's objects does not change them); the answer comes back as the reply `then`
    /// makes of it (the documents pane's).
    pub fn request(
        &mut self,
        doc: &str,
        then: impl FnOnce(Outcome<EmbedList>) -> Answered + Send + 'static,
        cx: &Cx,
    ) -> Option<Action> {
        if self.doc.as_deref() == Some(doc) {
            return None;
        }
        self.list = Load::Idle;
        self.next = 0;
        self.doc = Some(doc.to_owned());
        let sent = cx.send(api::embeds(doc.to_owned()), then);
        self.list.start(sent.id);
        Some(Action::Send(sent))
    }

    /// Forgets what was read, so that the next [`DocEmbeds::request`] reads again.
    pub fn forget(&mut self) {
        self.doc = None;
    }

    /// Takes the answer to request `id`, if it is the one awaited.
    pub fn settle(&mut self, id: RequestId, list: EmbedList) {
        if self.list.settle(id, list) {
            self.next %= self.embeds().len().max(1);
        }
    }

    /// The request `id` failed: no embeds are shown.
    pub fn fail(&mut self, id: RequestId, message: String) {
        self.list.fail(id, message);
    }

    /// The embeds of document `doc`, as last read.
    fn of(&self, doc: &str) -> &[Embed] {
        match self.doc.as_deref() {
            Some(known) if known == doc => self.embeds(),
            _ => &[],
        }
    }

    fn embeds(&self) -> &[Embed] {
        self.list.value().map_or(&[], |list| list.embeds.as_slice())
    }

    /// How many lines the details need for document `doc`'s embeds.
    pub fn rows(&self, doc: Option<&str>) -> u16 {
        doc.map_or(0, |doc| self.of(doc).len().min(MAX_LINES) as u16)
    }

    /// Document `doc`'s embeds as details lines `width` wide: the first labelled `embeds`.
    pub fn lines(&self, doc: &str, width: usize, cx: &Cx) -> Vec<Line<'static>> {
        let embeds = self.of(doc);
        let label = cx.style(Role::Dim);
        let shown = if embeds.len() > MAX_LINES {
            MAX_LINES - 1
        } else {
            embeds.len()
        };
        let mut lines: Vec<Line<'static>> = embeds[..shown]
            .iter()
            .enumerate()
            .map(|(at, embed)| {
                let name = if at == 0 { "embeds" } else { "" };
                Line::from(vec![
                    Span::styled(format!("{name:<8}"), label),
                    Span::raw(clip(
                        &format!("{:<7}{}", kind(embed), embed.url),
                        width.saturating_sub(8),
                    )),
                ])
            })
            .collect();
        if shown < embeds.len() {
            let key = cx.key(Context::Documents, Command::CopyEmbedUrl);
            lines.push(Line::styled(
                clip(
                    &format!(
                        "        … {} more ({key} copies each)",
                        embeds.len() - shown
                    ),
                    width,
                ),
                label,
            ));
        }
        lines
    }

    /// Copies the URL of document `doc`'s next embed (titled `title`), in turn.
    pub fn copy_next(&mut self, doc: &str, title: &str, cx: &Cx) -> Vec<Action> {
        let count = self.of(doc).len();
        if count == 0 {
            return vec![Action::info(format!(
                "\"{title}\" has no embeds (`diagtui doc embed create` makes one)"
            ))];
        }
        let at = self.next % count;
        let embed = &self.of(doc)[at];
        let mut text = format!(
            "copied the URL of the {} embed of \"{title}\" ({} of {count})",
            kind(embed),
            at + 1
        );
        if count > 1 {
            let key = cx.key(Context::Documents, Command::CopyEmbedUrl);
            text.push_str(&format!("; {key} copies the next"));
        }
        let url = embed.url.clone();
        self.next = at + 1;
        vec![Action::Copy(url), Action::info(text)]
    }
}
