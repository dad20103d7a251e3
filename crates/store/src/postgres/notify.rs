//! Commit reports between instances: each write transaction sends what its requests changed on
//! the `diagtui` channel (`NOTIFY`, delivered at commit, in commit order), signed with the
//! sending instance and the transaction's generation (see [`sequence`](super::sequence)); a
//! transaction that changed nothing reported still sends its generation, so that the others
//! know that nothing of theirs waits for it. Every instance listens (`LISTEN`) and applies the
//! other instances' reports to what it keeps, in generation order, with the changed objects as
//! carried, or else as they are in the database when the report arrives (an object gone by then
//! counts as deleted), then hands them to its listeners ([`CommitObserver::committed`]). A transaction whose
//! changes are not reported (`diagtui migrate`) says so, and the others drop what they keep.
//!
//! A transaction's reports longer than one notification's payload (8,000 bytes) travel in
//! pieces, which arrive together: a transaction's notifications are delivered one after the
//! other. A transaction's changed objects travel with its report while they are small (at most
//! [`CARRIED`] bytes of data in all): the others then apply it without reading the database,
//! which keeps their reads from waiting on a round trip while another instance writes; larger
//! ones travel as ids, read when the report arrives. While the listening connection is down, reports are missed: requests then drop what
//! is kept whenever the counter moved (see [`freshness`](super::freshness)), and once the
//! listener is back it compares the counter with what it applied and drops everything kept if
//! it missed a commit, which its event subscribers learn as a `resync`.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use deadpool_postgres::{GenericClient, Pool};
use serde::{Deserialize, Serialize};
use tokio_postgres::AsyncMessage;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::freshness::read_generation;
use super::objects::load_objects;
use super::sequence::Sequence;
use super::sql::execute;
use crate::change::{Committed, DocChange, DocEvent};
use crate::error::StoreResult;
use crate::object::{Kinds, StoredObject};
use crate::observer::CommitObserver;

/// The channel commit reports travel on.
const CHANNEL: &str = "diagtui";
/// The most bytes of a report sent in one notification (the payload limit is 8,000).
const PIECE: usize = 7000;
/// The longest wait between two attempts to listen again.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// What the listening connection calls itself (`application_name`), for operators.
const LISTENER_NAME: &str = "diagtui listener";

/// The most bytes of changed objects' data one transaction's reports carry; beyond it they
/// travel as ids only.
const CARRIED: usize = 16 * 1024;

/// A report as it travels: object ids, with their data while it is small.
#[derive(Serialize, Deserialize)]
struct Wire {
    docs: Vec<WireDoc>,
    keys_changed: Vec<String>,
}

/// Who sends a transaction's reports: the signature of its notifications.
pub struct Signed<'a> {
    /// The sending instance's name: its own reports are not taken in again.
    pub instance: &'a str,
    /// The transaction's value of the `generation` counter.
    pub generation: i64,
    /// Counts the notifications sent: it keeps two pieces of one transaction from being
    /// identical, which PostgreSQL would deliver once.
    pub serial: &'a AtomicU64,
}

/// One document's change as it travels.
#[derive(Serialize, Deserialize)]
struct WireDoc {
    doc_id: String,
    last_change: Option<String>,
    changed: Vec<String>,
    deleted: Vec<String>,
    event: Option<DocEvent>,
    /// The document's version after the write, when it recorded one (the changed objects'
    /// version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<u64>,
    /// Each changed object's type and data, in the order of `changed`, when carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    carried: Option<Vec<(String, String)>>,
}

/// What a write transaction closes with: its documents' new `lastChange` and its reports.
pub struct Closing<'a> {
    /// Who sends the reports.
    pub signed: Signed<'a>,
    /// The committed requests' reports, in order.
    pub reports: &'a [&'a Committed],
    /// The documents whose `lastChange` becomes `now`.
    pub touched: &'a [&'a str],
    /// The transaction's time.
    pub now: &'a str,
}

/// The statement setting the `lastChange` of the documents matching `$which` (`$3`, `$4`) and
/// sending the payloads `$2` on channel `$1`, in order.
macro_rules! closing {
    ($which:literal) => {
        concat!(
            "WITH touched AS (UPDATE documents SET last_change = $3 WHERE ",
            $which,
            ") SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n) \
             ORDER BY n"
        )
    };
}

/// Sets the documents' `lastChange` and sends the committed requests' reports to the other
/// instances, in one statement: a list of the reports that changed a document or a key
/// (maybe empty), as one message in pieces. Runs inside the write transaction, so it is
/// delivered at its commit, in order.
pub async fn send(c: &impl GenericClient, closing: &Closing<'_>) -> StoreResult<()> {
    let mut budget = CARRIED;
    let wires: Vec<Wire> = closing
        .reports
        .iter()
        .filter(|report| !report.docs.is_empty() || !report.keys_changed.is_empty())
        .map(|report| wire(report, &mut budget))
        .collect();
    let text = serde_json::to_string(&wires)?;
    let pieces = split(&text, PIECE);
    let last = pieces.len() - 1;
    let signed = &closing.signed;
    let payloads: Vec<String> = pieces
        .into_iter()
        .enumerate()
        .map(|(at, piece)| {
            let serial = signed.serial.fetch_add(1, Ordering::Relaxed);
            let more = u8::from(at < last);
            let (instance, generation) = (signed.instance, signed.generation);
            format!("{instance} {generation} {serial} {more} {piece}")
        })
        .collect();
    let now = &closing.now;
    // One document (almost always) by its key, a statement whose prepared plan is kept; the
    // array's is planned again on every run.
    match closing.touched {
        [doc] => execute(c, closing!("id = $4"), &[&CHANNEL, &payloads, now, doc]).await?,
        docs => {
            execute(
                c,
                closing!("id = ANY($4)"),
                &[&CHANNEL, &payloads, now, &docs],
            )
            .await?
        }
    };
    Ok(())
}

/// The message of a transaction whose changes are not reported (`diagtui migrate`).
const UNREPORTED: &str = "*";

/// Tells the other instances that the transaction (the counter's value `generation`) changes
/// the database in ways not reported: they drop what they keep. Runs inside the transaction.
pub async fn send_unreported(c: &impl GenericClient, generation: i64) -> StoreResult<()> {
    let instance = diagtui_model::ids::new_uuid();
    let payload = format!("{instance} {generation} 0 0 {UNREPORTED}");
    execute(c, "SELECT pg_notify($1, $2)", &[&CHANNEL, &payload]).await?;
    Ok(())
}

/// A report as it travels, its documents' changed objects carried while `budget` (bytes of
/// data) lasts.
fn wire(report: &Committed, budget: &mut usize) -> Wire {
    Wire {
        docs: report
            .docs
            .iter()
            .map(|change| WireDoc {
                doc_id: change.doc_id.clone(),
                last_change: change.last_change.clone(),
                changed: change.changed.iter().map(|(id, _)| id.clone()).collect(),
                deleted: change.deleted.clone(),
                event: change.event.clone(),
                version: change.version,
                carried: carried(&change.changed, budget),
            })
            .collect(),
        keys_changed: report.keys_changed.clone(),
    }
}

/// The changed objects' types and data, when they fit in what is left of `budget`.
fn carried(
    changed: &[(String, Arc<StoredObject>)],
    budget: &mut usize,
) -> Option<Vec<(String, String)>> {
    let size: usize = changed.iter().map(|(_, object)| object.data().len()).sum();
    if changed.is_empty() || size > *budget {
        return None;
    }
    *budget -= size;
    Some(
        changed
            .iter()
            .map(|(_, object)| (object.kind().to_owned(), object.data().to_owned()))
            .collect(),
    )
}

/// `text` in pieces of at most `max` bytes, cut at character boundaries.
fn split(text: &str, max: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while rest.len() > max {
        let mut cut = max;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (piece, tail) = rest.split_at(cut);
        pieces.push(piece);
        rest = tail;
    }
    pieces.push(rest);
    pieces
}

/// A listening connection: `LISTEN` done, its notifications' payloads arriving.
pub struct Subscription {
    /// Kept for as long as the connection is to live.
    _client: tokio_postgres::Client,
    received: tokio::sync::mpsc::UnboundedReceiver<String>,
    driver: tokio::task::JoinHandle<()>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.driver.abort();
    }
}

/// Connects and listens; once it returns, every report committed after is received.
pub async fn subscribe(
    config: &tokio_postgres::Config,
    tls: &MakeRustlsConnect,
) -> StoreResult<Subscription> {
    let mut config = config.clone();
    config.application_name(LISTENER_NAME);
    let (client, mut connection) = config.connect(tls.clone()).await?;
    let (sender, received) = tokio::sync::mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(note))) => {
                    if sender.send(note.payload().to_owned()).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::warn!("the listening connection failed: {e}");
                    return;
                }
                None => return,
            }
        }
    });
    client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
    Ok(Subscription {
        _client: client,
        received,
        driver,
    })
}

/// What a listener needs besides its connection.
pub struct Listening {
    /// Where to connect again.
    pub config: tokio_postgres::Config,
    /// TLS for connecting again.
    pub tls: MakeRustlsConnect,
    /// Where the changed objects are read.
    pub pool: Pool,
    /// This instance's name: its own reports are not taken in again.
    pub instance: String,
    /// Where each report takes its turn.
    pub sequence: Arc<Sequence>,
    /// Who receives the reports.
    pub observer: Arc<dyn CommitObserver>,
}

/// Takes in the other instances' reports from `first` and, whenever the connection is lost,
/// from a new one, until the engine is dropped (the task is then aborted). Back after a loss,
/// it first catches up ([`resync`]).
pub async fn listen(first: Subscription, listening: Listening) {
    let mut current = Some(first);
    let mut backoff = Duration::from_millis(250);
    loop {
        let subscription = match current.take() {
            Some(subscription) => subscription,
            None => match reconnect(&listening).await {
                Ok(subscription) => {
                    backoff = Duration::from_millis(250);
                    subscription
                }
                Err(e) => {
                    tracing::warn!("listening for other instances' commits: {e}");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    continue;
                }
            },
        };
        take_in(subscription, &listening).await;
        listening.sequence.listener_down();
    }
}

/// Listens again after the connection was lost, and catches up.
async fn reconnect(listening: &Listening) -> StoreResult<Subscription> {
    let subscription = subscribe(&listening.config, &listening.tls).await?;
    resync(listening).await?;
    Ok(subscription)
}

/// Catches up after reports may have been missed (the listener was down): listening again,
/// it reads the counter; any commit up to it not applied yet is one whose report is lost, so
/// everything kept is dropped (its changes cannot be known), which subscribers learn as a
/// `resync`. Reports received from then on are applied again.
async fn resync(listening: &Listening) -> StoreResult<()> {
    let generation = read_generation(&listening.pool.get().await?).await?;
    listening
        .sequence
        .skip_to(generation, || listening.observer.changed_elsewhere());
    listening.sequence.listener_up();
    Ok(())
}

/// One transaction's message, as its header and pieces arrive.
struct Message<'a> {
    from: &'a str,
    generation: i64,
    more: bool,
    piece: &'a str,
}

/// A notification's payload: `INSTANCE GENERATION SERIAL MORE PIECE`.
fn parse(payload: &str) -> Option<Message<'_>> {
    let mut fields = payload.splitn(5, ' ');
    let from = fields.next()?;
    let generation = fields.next()?.parse().ok()?;
    let _serial = fields.next()?;
    let more = fields.next()? == "1";
    Some(Message {
        from,
        generation,
        more,
        piece: fields.next()?,
    })
}

/// Takes in the reports a connection receives, until it ends.
async fn take_in(mut subscription: Subscription, listening: &Listening) {
    let mut partial: HashMap<String, String> = HashMap::new();
    while let Some(payload) = subscription.received.recv().await {
        let Some(message) = parse(&payload) else {
            tracing::warn!("another instance's commit report is unreadable (another version?)");
            continue;
        };
        if message.from == listening.instance {
            continue;
        }
        let text = partial.entry(message.from.to_owned()).or_default();
        text.push_str(message.piece);
        if message.more {
            continue;
        }
        let text = partial.remove(message.from).unwrap_or_default();
        apply_received(listening, message.generation, &text).await;
    }
}

/// Applies another instance's transaction (generation `generation`, its reports as `text`) in
/// its turn; when its changes cannot be read, or its turn does not come, everything kept is
/// dropped instead.
async fn apply_received(listening: &Listening, generation: i64, text: &str) {
    let (sequence, observer) = (&listening.sequence, &listening.observer);
    if sequence.applied() >= generation {
        return;
    }
    if text == UNREPORTED {
        sequence.skip_to(generation, || observer.changed_elsewhere());
        return;
    }
    let reports = match serde_json::from_str::<Vec<Wire>>(text) {
        Ok(wires) => received_reports(&listening.pool, wires).await,
        Err(e) => Err(e.into()),
    };
    let reports = match reports {
        Ok(reports) => reports,
        Err(e) => {
            tracing::warn!("reading another instance's commit: {e}");
            sequence.skip_to(generation, || observer.changed_elsewhere());
            return;
        }
    };
    if !sequence.caught_up(generation - 1).await {
        sequence.skip_to(generation - 1, || observer.changed_elsewhere());
    }
    let mut replaced = Vec::new();
    sequence.apply(generation, || {
        observer.metrics().notifications_applied.inc();
        for report in reports {
            replaced.extend(observer.committed(Arc::new(report)));
        }
    });
    drop(replaced);
}

/// Another instance's reports, with the changed objects as they were carried or, when they
/// were not, read from the database (which is connected to only then).
async fn received_reports(pool: &Pool, wires: Vec<Wire>) -> StoreResult<Vec<Committed>> {
    let mut client = None;
    let mut reports = Vec::with_capacity(wires.len());
    for wire in wires {
        reports.push(received_report(pool, &mut client, wire).await?);
    }
    Ok(reports)
}

/// Another instance's report, with the changed objects as carried (as they were at its
/// commit) or as the database has them now. An object gone since counts as deleted: its
/// deletion is reported again after, which changes nothing.
async fn received_report(
    pool: &Pool,
    client: &mut Option<deadpool_postgres::Object>,
    wire: Wire,
) -> StoreResult<Committed> {
    let mut docs = Vec::with_capacity(wire.docs.len());
    for doc in wire.docs {
        let ids: Vec<&str> = doc.changed.iter().map(String::as_str).collect();
        let mut found = match doc.carried {
            _ if ids.is_empty() => Default::default(),
            Some(carried) if carried.len() == ids.len() => {
                unpack(&doc.changed, carried, doc.version.unwrap_or(0))
            }
            _ => {
                if client.is_none() {
                    *client = Some(pool.get().await?);
                }
                let c = client.as_ref().expect("connected above");
                load_objects(c, &doc.doc_id, Some(&ids)).await?
            }
        };
        let mut deleted = doc.deleted;
        let mut changed = Vec::with_capacity(found.len());
        for id in doc.changed {
            match found.remove(&id) {
                Some(object) => changed.push((id, object)),
                None => deleted.push(id),
            }
        }
        deleted.sort_unstable();
        docs.push(DocChange {
            doc_id: doc.doc_id,
            last_change: doc.last_change,
            changed,
            deleted,
            event: doc.event,
            version: doc.version,
        });
    }
    Ok(Committed {
        keys_changed: wire.keys_changed,
        ..Committed::of_docs(docs)
    })
}

/// Carried objects by id, at the version of the write that changed them.
fn unpack(
    ids: &[String],
    carried: Vec<(String, String)>,
    version: u64,
) -> BTreeMap<String, Arc<StoredObject>> {
    let mut kinds = Kinds::default();
    ids.iter()
        .cloned()
        .zip(carried)
        .map(|(id, (kind, data))| {
            let object = StoredObject::new(kinds.get(&kind), &data).at_version(version);
            (id, Arc::new(object))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_reports_are_cut_at_character_boundaries() {
        let text = "é".repeat(10);
        let pieces = split(&text, 5);
        assert_eq!(pieces.concat(), text);
        assert!(pieces.iter().all(|piece| piece.len() <= 5));
        assert_eq!(split("short", 7000), ["short"]);
    }

    #[test]
    fn small_changes_travel_with_their_data_until_the_budget_is_spent() {
        let object = |data: &str| Arc::new(StoredObject::new(Arc::from("component"), data));
        let changed = vec![
            ("a".to_owned(), object(r#"{"n":1}"#)),
            ("b".to_owned(), object(r#"{"n":22}"#)),
        ];
        let mut budget = 20;
        let taken = carried(&changed, &mut budget).expect("15 bytes fit in 20");
        assert_eq!(taken[1], ("component".to_owned(), r#"{"n":22}"#.to_owned()));
        assert_eq!(budget, 5);
        assert!(
            carried(&changed, &mut budget).is_none(),
            "15 bytes do not fit in 5"
        );
        assert_eq!(budget, 5, "what is not carried costs nothing");
        let unpacked = unpack(&["a".to_owned(), "b".to_owned()], taken, 3);
        assert_eq!(unpacked["b"].version(), 3);
        assert_eq!(unpacked["b"].data(), r#"{"n":22}"#);
        assert_eq!(unpacked["a"].kind(), "component");
    }

    #[test]
    fn a_notification_names_its_sender_and_generation() {
        let message = parse("me 42 7 1 [{\"a b\"").unwrap();
        assert_eq!((message.from, message.generation), ("me", 42));
        assert!(message.more);
        assert_eq!(message.piece, "[{\"a b\"");
        assert!(parse("me 7 0 []").is_none(), "without a generation");
    }
}
