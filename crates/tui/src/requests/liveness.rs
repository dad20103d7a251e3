//! Keeping the screen current: what the server's change events (or, against a server without
//! them, polls of the open document's details) mean for the app. Plain code: the events come
//! in as [`Live`] messages, time as ticks; the answer is a list of [`Reaction`]s that `App`
//! carries out (reloads in place, notes, the recent-change marks). A change event that carries
//! its objects' new states (our server's, up to 64 KiB of them) is applied as it is, without
//! reading them; one that names ids only has them read again.

use std::collections::HashMap;
use std::time::Duration;

use crate::document::Versioned;
use crate::text::notification::Notification;
use diagtui_client::{AccountStreamEvent, ApiError, DocStreamEvent, Watched};
use diagtui_model::events::{DocChangeEvent, DocEventKind};
use diagtui_model::{DiagramObject, ErrorCode};

/// The runner's tick, which time is counted in.
pub(crate) const TICK: Duration = Duration::from_millis(120);
/// Ticks a changed row stays marked: about four seconds.
pub(crate) const RECENT_TICKS: u64 = 33;
/// The most objects an event may name for the app to read just those (one `GET` each) rather
/// than the whole content again.
pub(crate) const REFETCH_AT_MOST: usize = 64;

/// A change event stream's news, for the app.
#[derive(Debug, Clone, PartialEq)]
pub enum Live {
    /// From the stream of this document.
    Doc {
        /// The document followed.
        doc: String,
        /// What happened.
        watched: Watched<DocStreamEvent>,
    },
    /// From the account's stream.
    Account(Watched<AccountStreamEvent>),
}

/// What the runner should follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Follow {
    /// The account's stream (from the start, for the document list).
    Account,
    /// This document's stream (the open one), or none.
    Doc(Option<String>),
}

/// What the app does about news.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Reaction {
    /// Reload the open document's content in place.
    ReloadDoc,
    /// Read these objects of the open document again (changed, created or deleted elsewhere)
    /// and put them in place: a few objects of a large document, without reading it whole.
    Refetch(Vec<String>),
    /// Put these objects of the open document in place as the event gave them, with their
    /// versions (`None`: deleted): nothing to read.
    Apply(Vec<(String, Option<Versioned>)>),
    /// Reload the document list (and the open document's details) in place.
    ReloadList,
    /// The open document was deleted elsewhere (App says so).
    DocGone(String),
    /// Read the open document's details (a poll).
    Poll(String),
    /// Put this in the status bar.
    Note(Notification),
    /// A change event said this document last changed then (`lastChange`): the details say
    /// so without being read again.
    LastChange(String, String),
}

/// How one stream stands.
#[derive(Debug, Clone, PartialEq)]
enum Link {
    /// Open, or not heard from yet.
    Up,
    /// The server does not answer; the next try is at this tick.
    Down {
        /// When the next try is.
        retry_at: u64,
        /// What went wrong, in few words.
        error: String,
    },
}

/// The app's side of the change events.
#[derive(Debug, Clone)]
pub(crate) struct Liveness {
    /// The open document's stream (or its polls).
    doc_link: Link,
    /// The open document's stream has spoken since it (last) connected: every write to the
    /// document from now on comes as an event.
    hearing_doc: bool,
    /// The account's stream.
    account_link: Link,
    /// The server has no change events: the open document is polled.
    polling: bool,
    /// Ticks between polls; `None`: never poll.
    poll_every: Option<u64>,
    /// When the next poll is due.
    next_poll: u64,
    /// The open document and its `lastChange` as last heard.
    open: Option<(String, Option<String>)>,
    /// Objects of the open document, and documents, changed recently, and when.
    recent: HashMap<String, u64>,
}

impl Default for Liveness {
    fn default() -> Liveness {
        Liveness::new(diagtui_client::DEFAULT_POLL)
    }
}

impl Liveness {
    /// Polling every `poll` (zero: never) when the server has no change events.
    pub fn new(poll: Duration) -> Liveness {
        let ticks = (poll.as_millis() / TICK.as_millis()).max(1) as u64;
        Liveness {
            doc_link: Link::Up,
            hearing_doc: false,
            account_link: Link::Up,
            polling: false,
            poll_every: (!poll.is_zero()).then_some(ticks),
            next_poll: 0,
            open: None,
            recent: HashMap::new(),
        }
    }

    /// A document was opened (or closed): what to follow. `known` is the document's
    /// `lastChange` as read before its content (from its details), if known: the first word of
    /// its stream (or the first poll) is compared with it, so that a change made between the
    /// content's read and the stream's start is not missed.
    pub fn opened(&mut self, doc: Option<&str>, known: Option<String>) -> Follow {
        self.open = doc.map(|doc| (doc.to_owned(), known));
        self.recent.clear();
        self.doc_link = Link::Up;
        self.hearing_doc = false;
        Follow::Doc(doc.map(str::to_owned))
    }

    /// Whether the open document's change events are followed: a write of this app's to it will
    /// come back as an event (and be shown from it), as anyone else's.
    pub fn follows_open_doc(&self) -> bool {
        self.hearing_doc && matches!(self.doc_link, Link::Up)
    }

    /// Whether `id` (an object of the open document, or a document) changed in the last few
    /// seconds (as of tick `now`).
    pub fn recently_changed(&self, id: &str, now: u64) -> bool {
        self.recent
            .get(id)
            .is_some_and(|at| now.wrapping_sub(*at) < RECENT_TICKS)
    }

    /// Whether time passing changes the screen: marks fade, a countdown runs.
    pub fn redraws_on_tick(&self) -> bool {
        !self.recent.is_empty() || self.down().is_some()
    }

    /// The stream that is down with the soonest next try, if any.
    fn down(&self) -> Option<(u64, &str)> {
        [&self.doc_link, &self.account_link]
            .into_iter()
            .filter_map(|link| match link {
                Link::Down { retry_at, error } => Some((*retry_at, error.as_str())),
                Link::Up => None,
            })
            .min_by_key(|(retry_at, _)| *retry_at)
    }

    /// What the status bar says of the connection, if anything: when it is down, when the next
    /// try is.
    pub fn status(&self, now: u64) -> Option<String> {
        let (retry_at, error) = self.down()?;
        let ticks = retry_at.saturating_sub(now);
        let secs = (ticks * TICK.as_millis() as u64).div_ceil(1000);
        Some(format!("offline ({error}): next try in {secs} s"))
    }

    /// Time passed: fades marks, and asks for a poll when one is due.
    pub fn tick(&mut self, now: u64) -> Vec<Reaction> {
        self.recent
            .retain(|_, at| now.wrapping_sub(*at) < RECENT_TICKS);
        let (true, Some(every), Some((doc, _))) = (self.polling, self.poll_every, &self.open)
        else {
            return Vec::new();
        };
        if now < self.next_poll {
            return Vec::new();
        }
        self.next_poll = now + every;
        vec![Reaction::Poll(doc.clone())]
    }

    /// A poll's answer: the document's `lastChange`, or why it failed in few words.
    pub fn polled(&mut self, doc: &str, answer: Result<String, String>) -> Vec<Reaction> {
        let Some((_, known)) = self.open.as_mut().filter(|(open, _)| open == doc) else {
            return Vec::new();
        };
        match answer {
            Ok(last_change) => {
                let moved = known.as_ref().is_some_and(|k| *k != last_change);
                *known = Some(last_change);
                if matches!(self.doc_link, Link::Down { .. }) {
                    self.doc_link = Link::Up;
                    return vec![
                        Reaction::ReloadList,
                        Reaction::ReloadDoc,
                        Reaction::Note(Notification::info("connected again")),
                    ];
                }
                if moved {
                    vec![Reaction::ReloadDoc]
                } else {
                    Vec::new()
                }
            }
            Err(error) => {
                self.doc_link = Link::Down {
                    retry_at: self.next_poll,
                    error,
                };
                Vec::new()
            }
        }
    }

    /// News from a stream, at tick `now`.
    pub fn on_live(&mut self, live: Live, now: u64) -> Vec<Reaction> {
        match live {
            Live::Doc { doc, watched } => {
                if self.open.as_ref().is_none_or(|(open, _)| *open != doc) {
                    return Vec::new();
                }
                match without_event(watched) {
                    Ok(event) => {
                        self.hearing_doc = true;
                        self.doc_event(&doc, event, now)
                    }
                    Err(news) => self.doc_news(doc, news, now),
                }
            }
            Live::Account(watched) => match without_event(watched) {
                Ok(AccountStreamEvent::Change(change)) => {
                    self.recent.insert(change.doc_id, now);
                    vec![Reaction::ReloadList]
                }
                Ok(AccountStreamEvent::Resync(_)) => vec![Reaction::ReloadList],
                Ok(AccountStreamEvent::Current) => Vec::new(),
                Err(news) => match link_news(&mut self.account_link, news, now) {
                    LinkNews::Back => vec![Reaction::ReloadList],
                    // The open document's stream says it (and polls).
                    LinkNews::Quiet | LinkNews::Unsupported => Vec::new(),
                    LinkNews::Failed(error) => failed(&error),
                },
            },
        }
    }

    /// News of the open document's stream's connection.
    fn doc_news(&mut self, doc: String, news: Watched<()>, now: u64) -> Vec<Reaction> {
        self.hearing_doc = false;
        match link_news(&mut self.doc_link, news, now) {
            LinkNews::Quiet => Vec::new(),
            LinkNews::Back => {
                // The reload reads what changed meanwhile: nothing to compare.
                self.forget_last_change();
                vec![
                    Reaction::ReloadDoc,
                    Reaction::Note(Notification::info("connected again")),
                ]
            }
            LinkNews::Unsupported => self.start_polling(now),
            // Deleted before its stream opened (or while it was away).
            LinkNews::Failed(error) if error.code() == Some(&ErrorCode::DocNotFound) => {
                vec![Reaction::DocGone(doc)]
            }
            LinkNews::Failed(error) => failed(&error),
        }
    }

    /// The server has no change events: poll the open document from now on, and say so.
    fn start_polling(&mut self, now: u64) -> Vec<Reaction> {
        if self.polling {
            return Vec::new();
        }
        self.polling = true;
        self.next_poll = now;
        let note = match self.poll_every {
            Some(every) => format!(
                "the server has no change events: the open document is polled every {} s",
                (every * TICK.as_millis() as u64).div_ceil(1000)
            ),
            None => "the server has no change events, and polling is off".to_owned(),
        };
        vec![Reaction::Note(Notification::info(note))]
    }

    /// An event of the open document's stream.
    fn doc_event(&mut self, doc: &str, event: DocStreamEvent, now: u64) -> Vec<Reaction> {
        match event {
            DocStreamEvent::Current(current) => {
                // Changed since the `lastChange` known before the content was read: what
                // changed in between is not in the content, nor will it come as an event.
                if self.heard(&current) {
                    vec![Reaction::ReloadDoc]
                } else {
                    Vec::new()
                }
            }
            DocStreamEvent::Resync(_) => vec![Reaction::ReloadDoc, Reaction::ReloadList],
            DocStreamEvent::Change(change) => {
                self.heard(&change);
                for obj in &change.changed {
                    self.recent.insert(obj.clone(), now);
                }
                let at = change.last_change.clone();
                let mut reactions = object_reactions(doc, change);
                if let Some(at) = at {
                    reactions.push(Reaction::LastChange(doc.to_owned(), at));
                }
                reactions
            }
        }
    }

    /// Notes the open document's `lastChange` from an event; says whether it differs from
    /// the one known before.
    fn heard(&mut self, event: &DocChangeEvent) -> bool {
        let Some((_, known)) = self.open.as_mut() else {
            return false;
        };
        let moved = known.is_some() && *known != event.last_change;
        known.clone_from(&event.last_change);
        moved
    }

    /// Forgets the open document's `lastChange` (a reload is on its way).
    fn forget_last_change(&mut self) {
        if let Some((_, known)) = self.open.as_mut() {
            *known = None;
        }
    }
}

/// What a change event of the open document `doc` means for its content and the list.
fn object_reactions(doc: &str, change: DocChangeEvent) -> Vec<Reaction> {
    let objects = || {
        let named = change.changed.len() + change.deleted.len();
        if named == 0 {
            Vec::new()
        } else if let Some(given) = given_objects(&change) {
            vec![Reaction::Apply(given)]
        } else if named <= REFETCH_AT_MOST {
            let mut objs = change.changed.clone();
            objs.extend(change.deleted.iter().cloned());
            vec![Reaction::Refetch(objs)]
        } else {
            vec![Reaction::ReloadDoc]
        }
    };
    match change.document {
        Some(DocEventKind::Deleted) => vec![Reaction::DocGone(doc.to_owned())],
        Some(DocEventKind::Emptied | DocEventKind::ContentReplaced) => vec![Reaction::ReloadDoc],
        // The list shows titles and folders: read it again.
        Some(DocEventKind::Retitled | DocEventKind::Moved) => {
            let mut reactions = objects();
            reactions.push(Reaction::ReloadList);
            reactions
        }
        Some(DocEventKind::Created | DocEventKind::Shared) | None => objects(),
    }
}

/// The objects a change event gives whole (each one in `changed` with its new state, each in
/// `deleted` as gone), or `None` when it names some by id only.
fn given_objects(change: &DocChangeEvent) -> Option<Vec<(String, Option<Versioned>)>> {
    let objects = change.objects.as_ref()?;
    let mut given = Vec::with_capacity(change.changed.len() + change.deleted.len());
    for id in &change.changed {
        let now = objects.get(id)?;
        let object = DiagramObject {
            kind: now.kind.clone(),
            data: now.data.clone(),
        };
        let version = Some(now.version);
        given.push((id.clone(), Some(Versioned { object, version })));
    }
    given.extend(change.deleted.iter().map(|id| (id.clone(), None)));
    Some(given)
}

/// A stream's event, or its connection news without an event.
fn without_event<T>(watched: Watched<T>) -> Result<T, Watched<()>> {
    match watched {
        Watched::Event(event) => Ok(event),
        Watched::Connected => Err(Watched::Connected),
        Watched::Lost { error, retry_in } => Err(Watched::Lost { error, retry_in }),
        Watched::Unsupported(error) => Err(Watched::Unsupported(error)),
        Watched::Failed(error) => Err(Watched::Failed(error)),
    }
}

/// What a stream's connection news means.
enum LinkNews {
    /// Nothing to do.
    Quiet,
    /// It is back after being down.
    Back,
    /// The server has no such stream.
    Unsupported,
    /// It cannot go on.
    Failed(ApiError),
}

/// A stream's connection news; `link` follows it.
fn link_news(link: &mut Link, news: Watched<()>, now: u64) -> LinkNews {
    match news {
        Watched::Event(()) => LinkNews::Quiet,
        Watched::Connected => {
            let was_down = matches!(link, Link::Down { .. });
            *link = Link::Up;
            if was_down {
                LinkNews::Back
            } else {
                LinkNews::Quiet
            }
        }
        Watched::Lost { error, retry_in } => {
            let ticks = (retry_in.as_millis() / TICK.as_millis()) as u64;
            *link = Link::Down {
                retry_at: now + ticks.max(1),
                error: short(&error),
            };
            LinkNews::Quiet
        }
        Watched::Unsupported(_) => LinkNews::Unsupported,
        Watched::Failed(error) => LinkNews::Failed(error),
    }
}

/// A stream that cannot go on, in the status bar.
fn failed(error: &ApiError) -> Vec<Reaction> {
    vec![Reaction::Note(Notification::warning(format!(
        "cannot follow changes: {error}"
    )))]
}

/// An error in a few words for the status bar.
fn short(error: &ApiError) -> String {
    match error {
        ApiError::Connect { .. } => "cannot connect".to_owned(),
        ApiError::Timeout { .. } => "no answer".to_owned(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_model::events::{ResyncEvent, ResyncReason};

    fn change(changed: &[&str], document: Option<DocEventKind>) -> Live {
        Live::Doc {
            doc: "d".into(),
            watched: Watched::Event(DocStreamEvent::Change(DocChangeEvent {
                last_change: Some("t2".into()),
                changed: changed.iter().map(|s| s.to_string()).collect(),
                deleted: Vec::new(),
                document,
                version: None,
                objects: None,
            })),
        }
    }

    /// What `news` means, but the `lastChange` it told (checked on its own).
    fn without_last_change(live: &mut Liveness, news: Live, now: u64) -> Vec<Reaction> {
        let mut reactions = live.on_live(news, now);
        reactions.retain(|r| !matches!(r, Reaction::LastChange(..)));
        reactions
    }

    fn doc_news(watched: Watched<DocStreamEvent>) -> Live {
        Live::Doc {
            doc: "d".into(),
            watched,
        }
    }

    fn refused() -> ApiError {
        ApiError::Connect {
            url: "http://x".into(),
            detail: "refused".into(),
        }
    }

    #[test]
    fn a_change_reloads_and_marks_its_rows_for_a_few_seconds() {
        let mut live = Liveness::default();
        assert_eq!(live.opened(Some("d"), None), Follow::Doc(Some("d".into())));
        assert_eq!(
            live.on_live(change(&["a"], None), 10),
            [
                Reaction::Refetch(vec!["a".into()]),
                Reaction::LastChange("d".into(), "t2".into())
            ]
        );
        assert!(live.recently_changed("a", 10 + RECENT_TICKS - 1));
        assert!(!live.recently_changed("b", 10));
        assert!(live.redraws_on_tick());
        live.tick(10 + RECENT_TICKS);
        assert!(!live.recently_changed("a", 10 + RECENT_TICKS));
        assert!(!live.redraws_on_tick());
        let retitled =
            without_last_change(&mut live, change(&[], Some(DocEventKind::Retitled)), 50);
        assert_eq!(retitled, [Reaction::ReloadList]);
        let resync = doc_news(Watched::Event(DocStreamEvent::Resync(ResyncEvent {
            reason: ResyncReason::Overflow,
        })));
        assert_eq!(
            live.on_live(resync, 51),
            [Reaction::ReloadDoc, Reaction::ReloadList]
        );
        let deleted = without_last_change(&mut live, change(&[], Some(DocEventKind::Deleted)), 52);
        assert_eq!(deleted[0], Reaction::DocGone("d".into()));
        let other = Live::Doc {
            doc: "other".into(),
            watched: Watched::Connected,
        };
        assert_eq!(live.on_live(other, 53), []);
    }

    #[test]
    fn the_open_document_is_followed_once_its_stream_spoke_and_until_it_is_lost() {
        let mut live = Liveness::default();
        live.opened(Some("d"), None);
        assert!(!live.follows_open_doc());
        live.on_live(doc_news(Watched::Connected), 0);
        assert!(!live.follows_open_doc(), "connected, not heard yet");
        live.on_live(change(&["a"], None), 1);
        assert!(live.follows_open_doc());
        let lost = Watched::Lost {
            error: refused(),
            retry_in: Duration::from_secs(1),
        };
        live.on_live(doc_news(lost), 2);
        assert!(!live.follows_open_doc());
        live.on_live(change(&["a"], None), 3);
        live.opened(Some("e"), None);
        assert!(!live.follows_open_doc(), "another document");
    }

    #[test]
    fn a_few_objects_are_read_again_and_many_reload_the_whole_content() {
        let mut live = Liveness::default();
        live.opened(Some("d"), None);
        let deleted = Live::Doc {
            doc: "d".into(),
            watched: Watched::Event(DocStreamEvent::Change(DocChangeEvent {
                last_change: Some("t3".into()),
                changed: vec!["a".into()],
                deleted: vec!["b".into()],
                document: None,
                version: None,
                objects: None,
            })),
        };
        assert_eq!(
            without_last_change(&mut live, deleted, 1),
            [Reaction::Refetch(vec!["a".into(), "b".into()])]
        );
        let ids: Vec<String> = (0..=REFETCH_AT_MOST).map(|i| format!("o{i}")).collect();
        let names: Vec<&str> = ids.iter().map(String::as_str).collect();
        assert_eq!(
            without_last_change(&mut live, change(&names, None), 2),
            [Reaction::ReloadDoc]
        );
        let emptied = without_last_change(&mut live, change(&[], Some(DocEventKind::Emptied)), 3);
        assert_eq!(emptied, [Reaction::ReloadDoc]);
    }

    #[test]
    fn a_change_that_gives_its_objects_is_applied_without_a_read() {
        let mut live = Liveness::default();
        live.opened(Some("d"), None);
        let state = diagtui_model::versions::VersionedObject {
            kind: "label".into(),
            data: serde_json::json!({"text": "x"})
                .as_object()
                .unwrap()
                .clone(),
            version: 9,
        };
        let given = |objects| Live::Doc {
            doc: "d".into(),
            watched: Watched::Event(DocStreamEvent::Change(DocChangeEvent {
                last_change: Some("t4".into()),
                changed: vec!["a".into()],
                deleted: vec!["b".into()],
                document: None,
                version: Some(9),
                objects,
            })),
        };
        let applied = without_last_change(
            &mut live,
            given(Some([("a".to_string(), state.clone())].into())),
            1,
        );
        let [Reaction::Apply(objects)] = applied.as_slice() else {
            panic!("{applied:?}")
        };
        assert_eq!(objects.len(), 2);
        assert_eq!(objects[0].0, "a");
        let a = objects[0].1.as_ref().unwrap();
        assert_eq!(
            (a.object.data["text"].as_str(), a.version),
            (Some("x"), Some(9))
        );
        assert_eq!(objects[1], ("b".to_string(), None));
        // Past 64 KiB the event names ids only: they are read.
        assert_eq!(
            without_last_change(&mut live, given(None), 2),
            [Reaction::Refetch(vec!["a".into(), "b".into()])]
        );
    }

    #[test]
    fn a_change_between_the_read_and_the_stream_start_reloads() {
        let current = |last_change: &str| {
            doc_news(Watched::Event(DocStreamEvent::Current(DocChangeEvent {
                last_change: Some(last_change.into()),
                changed: Vec::new(),
                deleted: Vec::new(),
                document: None,
                version: None,
                objects: None,
            })))
        };
        let mut live = Liveness::default();
        live.opened(Some("d"), Some("t1".into()));
        assert_eq!(live.on_live(current("t1"), 0), []);
        live.opened(Some("d"), Some("t1".into()));
        assert_eq!(live.on_live(current("t2"), 0), [Reaction::ReloadDoc]);
        // Unknown before: nothing to compare.
        live.opened(Some("d"), None);
        assert_eq!(live.on_live(current("t2"), 0), []);

        // Polled: the first poll compares with what was known at the open.
        let mut polled = Liveness::new(Duration::from_secs(1));
        polled.opened(Some("d"), Some("t1".into()));
        polled.on_live(doc_news(Watched::Unsupported(refused())), 0);
        assert_eq!(polled.polled("d", Ok("t2".into())), [Reaction::ReloadDoc]);
    }

    #[test]
    fn a_document_changed_elsewhere_reloads_the_list_and_is_marked() {
        let mut live = Liveness::default();
        let event = Live::Account(Watched::Event(AccountStreamEvent::Change(
            diagtui_model::events::AccountEvent {
                doc_id: "other".into(),
                last_change: None,
                document: DocEventKind::Created,
                version: None,
            },
        )));
        assert_eq!(live.on_live(event, 7), [Reaction::ReloadList]);
        assert!(live.recently_changed("other", 8));
    }

    #[test]
    fn a_lost_stream_shows_the_next_try_and_reloads_when_back() {
        let mut live = Liveness::default();
        live.opened(Some("d"), None);
        assert_eq!(live.on_live(doc_news(Watched::Connected), 0), []);
        let lost = Watched::Lost {
            error: refused(),
            retry_in: Duration::from_secs(2),
        };
        assert_eq!(live.on_live(doc_news(lost), 100), []);
        assert_eq!(
            live.status(100).as_deref(),
            Some("offline (cannot connect): next try in 2 s")
        );
        assert_eq!(
            live.status(110).as_deref(),
            Some("offline (cannot connect): next try in 1 s")
        );
        let back = live.on_live(doc_news(Watched::Connected), 120);
        assert_eq!(back[0], Reaction::ReloadDoc);
        assert_eq!(live.status(120), None);
        live.on_live(
            Live::Account(Watched::Lost {
                error: refused(),
                retry_in: Duration::from_secs(1),
            }),
            130,
        );
        assert!(live.status(130).is_some());
        assert_eq!(
            live.on_live(Live::Account(Watched::Connected), 140),
            [Reaction::ReloadList]
        );
    }

    #[test]
    fn without_events_the_open_document_is_polled() {
        let mut live = Liveness::new(Duration::from_secs(1));
        live.opened(Some("d"), None);
        let unsupported = doc_news(Watched::Unsupported(refused()));
        let note = live.on_live(unsupported, 5);
        assert!(
            matches!(&note[..], [Reaction::Note(n)] if n.text.contains("polled every 1 s")),
            "{note:?}"
        );
        assert_eq!(live.tick(5), [Reaction::Poll("d".into())]);
        assert_eq!(live.tick(6), []);
        assert_eq!(live.polled("d", Ok("t1".into())), []);
        assert_eq!(live.tick(5 + 8), [Reaction::Poll("d".into())]);
        assert_eq!(live.polled("d", Ok("t2".into())), [Reaction::ReloadDoc]);
        assert_eq!(live.polled("d", Err("cannot connect".into())), []);
        assert!(
            live.status(13)
                .unwrap()
                .starts_with("offline (cannot connect)")
        );
        let back = live.polled("d", Ok("t2".into()));
        assert_eq!(back[..2], [Reaction::ReloadList, Reaction::ReloadDoc]);

        let mut off = Liveness::new(Duration::ZERO);
        off.opened(Some("d"), None);
        let note = off.on_live(doc_news(Watched::Unsupported(refused())), 0);
        assert!(matches!(&note[..], [Reaction::Note(n)] if n.text.contains("polling is off")));
        assert_eq!(off.tick(100), []);
    }
}
