//! The load of issue 20, shared by the stale-read API test (both engines) and
//! `cargo bench --bench load`: keep-alive clients on one document, each one request at a time:
//! 70% GET of one object, 20% single-object update, 5% selector read, 5% bulk update of 20
//! objects. Every client writes only its own objects (those whose `meta.client` names it) and
//! remembers the last acknowledged value of each property it writes. Since no one else writes
//! them, every later read of them must show exactly those values: a read during the load that
//! shows an older one is counted as stale, and [`stale_objects`] checks the document afterwards.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value, json};

/// How many objects a bulk update writes (more than the 16 that the server plans from its
/// cached copy of the document).
pub const BULK: usize = 20;
/// The property single updates write: the client's write number.
const SINGLE: &str = "rotation";
/// The property bulk updates write: the client's write number.
const BULKED: &str = "metaDataFontSize";

/// A kind of request of the load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// GET of one object.
    Get,
    /// Update of one object.
    Update,
    /// GET of the client's objects by selector.
    Select,
    /// Bulk update of [`BULK`] objects.
    Bulk,
}

impl Kind {
    /// Every kind, in the order figures are printed.
    pub const ALL: [Kind; 4] = [Kind::Get, Kind::Update, Kind::Select, Kind::Bulk];

    /// Its name in figures.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Get => "GET one object",
            Kind::Update => "update one object",
            Kind::Select => "selector read",
            Kind::Bulk => "bulk update of 20",
        }
    }

    /// The kind a roll of 0..100 picks.
    fn of(roll: u64) -> Kind {
        match roll % 100 {
            0..70 => Kind::Get,
            70..90 => Kind::Update,
            90..95 => Kind::Select,
            _ => Kind::Bulk,
        }
    }
}

/// Where the load goes: a server, its key and the soak document.
#[derive(Clone)]
pub struct Target {
    /// The server's base URL.
    pub url: String,
    /// An API key.
    pub key: String,
    /// The document made by [`seed`].
    pub doc: String,
}

/// The load's shape.
#[derive(Clone, Copy)]
pub struct Shape {
    /// How many objects the document holds.
    pub objects: usize,
    /// How many clients send requests at once.
    pub clients: usize,
    /// How long they send.
    pub duration: Duration,
}

/// The last acknowledged values of one object's two written properties (0 as seeded).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Written {
    single: u64,
    bulked: u64,
    /// A write of it failed: whether it landed is unknown, so it is no longer checked.
    unknown: bool,
}

impl Written {
    /// Whether an object's data read from the server is older (or other) than this.
    fn stale(&self, data: &Value) -> bool {
        let is = |name: &str, value: u64| data[name].as_f64() == Some(value as f64);
        let holds = is(SINGLE, self.single) && is(BULKED, self.bulked);
        !self.unknown && !holds
    }
}

/// What a load did.
#[derive(Default)]
pub struct Outcome {
    /// Each request's time, by kind.
    pub times: HashMap<Kind, Vec<Duration>>,
    /// Requests that failed: an error status or no answer.
    pub errors: usize,
    /// Reads during the load that showed an object older than its last acknowledged write.
    pub stale_reads: usize,
    /// The last acknowledged values, by object id.
    pub acked: HashMap<String, Written>,
}

impl Outcome {
    /// How many requests were answered.
    pub fn requests(&self) -> usize {
        self.times.values().map(Vec::len).sum()
    }

    fn merge(&mut self, other: Outcome) {
        for (kind, times) in other.times {
            self.times.entry(kind).or_default().extend(times);
        }
        self.errors += other.errors;
        self.stale_reads += other.stale_reads;
        self.acked.extend(other.acked);
    }
}

/// The id of the soak document's object `i`.
fn object_id(i: usize) -> String {
    format!("soak-{i:05}")
}

/// The client that owns object `i`.
fn owner(i: usize, clients: usize) -> String {
    format!("c{}", i % clients)
}

/// Makes the soak document through the API: `shape.objects` components, each owned by one
/// client. Returns its id.
pub async fn seed(http: &reqwest::Client, url: &str, key: &str, shape: &Shape) -> String {
    let create = json!({"title": "Soak"});
    let created = post(http, &format!("{url}/api/v1/doc/create"), key, &create)
        .await
        .expect("the document is created");
    let doc = created["docId"].as_str().expect("docId").to_owned();
    let content: Map<String, Value> = (0..shape.objects)
        .map(|i| {
            let data = json!({
                "componentId": "generic.server",
                "position": {"x": (i % 100) as f64 * 3.0, "y": (i / 100) as f64 * 3.0},
                "meta": {"client": owner(i, shape.clients), "n": i},
                SINGLE: 0,
                BULKED: 0,
            });
            (object_id(i), json!({"type": "component", "data": data}))
        })
        .collect();
    let filled = format!("{url}/api/v1/doc/set-content/{doc}");
    post(http, &filled, key, &Value::Object(content))
        .await
        .expect("the content is stored");
    doc
}

/// Runs the load until `shape.duration` has passed, each client on its own task and
/// connection.
pub async fn run(target: &Target, shape: &Shape) -> Outcome {
    let until = Instant::now() + shape.duration;
    let clients: Vec<_> = (0..shape.clients)
        .map(|number| tokio::spawn(client(target.clone(), *shape, number, until)))
        .collect();
    let mut outcome = Outcome::default();
    for client in clients {
        outcome.merge(client.await.expect("a client task"));
    }
    outcome
}

/// A small fast generator of rolls (xorshift), one per client.
struct Rolls(u64);

impl Rolls {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// One client: sends requests one at a time until `until`.
async fn client(target: Target, shape: Shape, number: usize, until: Instant) -> Outcome {
    let http = reqwest::Client::new();
    let base = format!("{}/api/v1/doc/{}", target.url, target.doc);
    let own: Vec<String> = (number..shape.objects)
        .step_by(shape.clients)
        .map(object_id)
        .collect();
    let selector = json!(["client", "eq", owner(number, shape.clients)]).to_string();
    let select_url = format!(
        "{base}/obj/where/{}",
        utf8_percent_encode(&selector, NON_ALPHANUMERIC)
    );
    let mut rolls = Rolls(0x9e37_79b9_7f4a_7c15 ^ (number as u64 + 1).wrapping_mul(0x2545_f491));
    let mut outcome = Outcome {
        acked: own
            .iter()
            .map(|id| (id.clone(), Written::default()))
            .collect(),
        ..Outcome::default()
    };
    let mut writes = 0u64;
    while Instant::now() < until {
        let kind = Kind::of(rolls.next());
        let at = rolls.next() as usize % own.len();
        let started = Instant::now();
        let answer = match kind {
            Kind::Get => get(&http, &format!("{base}/obj/{}", own[at]), &target.key).await,
            Kind::Select => get(&http, &select_url, &target.key).await,
            Kind::Update => {
                writes += 1;
                let body = json!({"props": {SINGLE: writes}});
                post(
                    &http,
                    &format!("{base}/obj/{}", own[at]),
                    &target.key,
                    &body,
                )
                .await
            }
            Kind::Bulk => {
                writes += 1;
                let objects: Map<String, Value> = (0..BULK.min(own.len()))
                    .map(|k| (own[(at + k) % own.len()].clone(), json!({BULKED: writes})))
                    .collect();
                let body = json!({"objects": objects});
                post(&http, &base, &target.key, &body).await
            }
        };
        let took = started.elapsed();
        let Some(answer) = answer else {
            outcome.errors += 1;
            if matches!(kind, Kind::Update | Kind::Bulk) {
                for id in written_by(kind, &own, at) {
                    outcome.acked.get_mut(id).expect("own").unknown = true;
                }
            }
            continue;
        };
        outcome.times.entry(kind).or_default().push(took);
        match kind {
            Kind::Get => {
                outcome.stale_reads += usize::from(outcome.acked[&own[at]].stale(&answer["data"]))
            }
            Kind::Select => {
                let map = answer.as_object().expect("a map of objects");
                outcome.stale_reads += own
                    .iter()
                    .filter(|id| {
                        map.get(*id)
                            .is_none_or(|o| outcome.acked[*id].stale(&o["data"]))
                    })
                    .count();
            }
            Kind::Update | Kind::Bulk => {
                for id in written_by(kind, &own, at) {
                    let written = outcome.acked.get_mut(id).expect("own");
                    match kind {
                        Kind::Update => written.single = writes,
                        _ => written.bulked = writes,
                    }
                }
            }
        }
    }
    outcome
}

/// The own objects a write of `kind` at `at` wrote.
fn written_by(kind: Kind, own: &[String], at: usize) -> impl Iterator<Item = &String> {
    let count = if kind == Kind::Bulk {
        BULK.min(own.len())
    } else {
        1
    };
    (0..count).map(move |k| &own[(at + k) % own.len()])
}

/// A GET's JSON answer; `None` for an error status or no answer.
async fn get(http: &reqwest::Client, url: &str, key: &str) -> Option<Value> {
    answer(http.get(url).bearer_auth(key)).await
}

/// A POST's JSON answer; `None` for an error status, no answer, or no `success: true`.
async fn post(http: &reqwest::Client, url: &str, key: &str, body: &Value) -> Option<Value> {
    let answer = answer(http.post(url).bearer_auth(key).json(body)).await?;
    (answer["success"] == true).then_some(answer)
}

async fn answer(req: reqwest::RequestBuilder) -> Option<Value> {
    let resp = req.send().await.ok()?.error_for_status().ok()?;
    resp.json().await.ok()
}

/// The objects holding other values than their last acknowledged ones, read through
/// `obj/all` and through one GET per object (16 at a time), in id order.
pub async fn stale_objects(
    target: &Target,
    acked: &HashMap<String, Written>,
) -> (Vec<String>, Vec<String>) {
    let http = reqwest::Client::new();
    let base = format!("{}/api/v1/doc/{}", target.url, target.doc);
    let all = get(&http, &format!("{base}/obj/all"), &target.key)
        .await
        .expect("obj/all answers");
    let mut via_all: Vec<String> = acked
        .iter()
        .filter(|(id, written)| written.stale(&all[id.as_str()]["data"]))
        .map(|(id, _)| id.clone())
        .collect();
    via_all.sort();
    let ids: Vec<(String, Written)> = acked.iter().map(|(id, w)| (id.clone(), *w)).collect();
    let readers: Vec<_> = ids
        .chunks(ids.len().div_ceil(16).max(1))
        .map(|chunk| {
            let (http, base, key, chunk) = (
                http.clone(),
                base.clone(),
                target.key.clone(),
                chunk.to_vec(),
            );
            tokio::spawn(async move {
                let mut stale = Vec::new();
                for (id, written) in chunk {
                    let object = get(&http, &format!("{base}/obj/{id}"), &key)
                        .await
                        .expect("GET answers");
                    if written.stale(&object["data"]) {
                        stale.push(id);
                    }
                }
                stale
            })
        })
        .collect();
    let mut via_each = Vec::new();
    for reader in readers {
        via_each.extend(reader.await.expect("a reader task"));
    }
    via_each.sort();
    (via_all, via_each)
}
