//! One selection: the properties pane, the map and every key that acts on "the selected object"
//! read the tree's selected row, and nothing moves one without the others. The bug of issue 32
//! reproduced (a created object selected by the tree while the properties still showed the
//! object before), then the rule checked as a property over random sequences of actions.

use diagtui_client::{DocStreamEvent, Watched};
use diagtui_model::events::DocChangeEvent;
use diagtui_tui::requests::liveness::Live;
use diagtui_tui::{Answer, Msg, Request};
use serde_json::json;

use crate::harness::*;

/// The open document's stream as the app hears it: connected.
fn stream_up(h: &mut Harness) {
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Connected,
    }));
}

/// A change event of the open document: `changed` created or updated, `deleted` gone.
fn change_event(h: &mut Harness, changed: &[&str], deleted: &[&str], stamp: &str) {
    h.send(Msg::Live(Live::Doc {
        doc: DOC_A.into(),
        watched: Watched::Event(DocStreamEvent::Change(DocChangeEvent {
            last_change: Some(stamp.into()),
            changed: changed.iter().map(|s| s.to_string()).collect(),
            deleted: deleted.iter().map(|s| s.to_string()).collect(),
            document: None,
            version: None,
            objects: None,
        })),
    }));
}

/// The id in the properties pane's title (`3 Properties [VIEW] component ID · name`).
fn props_id(h: &mut Harness) -> Option<String> {
    let screen = h.screen();
    let top = screen.lines().next()?;
    let title = &top[top.find("3 Properties")?..];
    let after = title.split_once(']')?.1;
    let mut words = after.split_whitespace().filter(|w| *w != "●");
    words.next()?; // the type
    Some(words.next()?.to_string())
}

#[test]
fn a_created_object_is_the_one_the_properties_show_and_i_edits() {
    let mut h = Harness::opened();
    stream_up(&mut h);
    // web-1 selected and shown.
    assert_eq!(props_id(&mut h).as_deref(), Some("1a-web"));
    h.press("a Enter");
    h.type_text("redis");
    h.press("Enter");
    let (id, request) = h.take_request(|r| matches!(r, Request::CreateObject { .. }));
    let Request::CreateObject { props, .. } = request else {
        unreachable!()
    };
    // Its change event comes before the create's answer, as the server sends them.
    change_event(&mut h, &["1z-redis"], &[], "t1");
    let (fresh, _) = h.take_request(|r| matches!(r, Request::GetObjects { .. }));
    h.reply(
        fresh,
        Ok(Answer::Fresh(vec![(
            "1z-redis".into(),
            Some(object("component", json!(props)).into()),
        )])),
    );
    h.reply(id, Ok(Answer::Created("1z-redis".into())));
    assert!(h.selected().contains("1z-redis"), "{}", h.selected());
    assert_eq!(
        props_id(&mut h).as_deref(),
        Some("1z-redis"),
        "{}",
        h.screen()
    );
    // Enter, then `i`: the edit is of the new object.
    h.press("Enter i");
    let top = h.screen().lines().next().unwrap_or_default().to_string();
    assert!(top.contains("[EDIT]") && top.contains("1z-redis"), "{top}");
}

#[test]
fn unsaved_edits_keep_their_object_selected_through_the_filter() {
    let mut h = Harness::opened();
    // The label (last row), edited and not saved.
    h.press("G");
    h.edit_json(r#"{"text": "Unsaved"}"#);
    assert!(h.shows("[VIEW] ● label 1c-title"), "{}", h.screen());
    // A filter that hides it: the tree shows it again and keeps it selected, and says why.
    h.press("2 /");
    h.type_text("web");
    assert!(h.selected().contains("1c-title"), "{}", h.screen());
    assert!(
        h.status()
            .contains("stays in the tree while its edits are unsaved"),
        "{}",
        h.status()
    );
    assert!(h.shows("/web"), "the filter stays as typed");
    assert!(h.shows("[VIEW] ● label 1c-title"));
    // Without edits, the filter moves the selection and the properties follow.
    let mut h = Harness::opened();
    h.press("G /");
    h.type_text("web");
    assert_eq!(
        props_id(&mut h).as_deref(),
        Some("1a-web"),
        "{}",
        h.screen()
    );
}

/// A small seeded generator (xorshift64*): the same seed, the same sequence.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The keys the generator presses: moving, folds, the filter, focus, the map, `>`, add, delete,
/// marks, edits (typing into the properties), save, undo, history, reload, and the answers to
/// the questions these ask.
const KEYS: &[&str] = &[
    "j", "j", "k", "k", "g", "G", "h", "l", "Enter", "Enter", "Esc", "Esc", "Tab", "BackTab", "1",
    "2", "2", "3", "m", "n", "N", ">", "a", "d", "y", "y", "Space", "V", "i", "x", "/", "o", "0",
    "1", "u", "U", "H", "R", "C-s", "e", "W", "v",
];

/// A document of a few named components, a label, a line between two components and an
/// area around them.
fn start_content() -> diagtui_model::Content {
    let mut c = diagtui_model::Content::new();
    for (i, status) in ["up", "down", "degraded", "up", "up"].iter().enumerate() {
        c.insert(
            format!("o0{i}"),
            object(
                "component",
                json!({"componentId": "generic.server", "name": format!("name-o0{i}"),
                       "position": {"x": i * 4, "y": i % 2 * 4}, "meta": {"status": status}}),
            ),
        );
    }
    c.insert(
        "o10".into(),
        object(
            "label",
            json!({"text": "text-o10", "position": {"x": 2, "y": -2}}),
        ),
    );
    c.insert(
        "o11".into(),
        object("line-group", json!({"anchors": [{"type": 1, "id": "o00", "index": 0}, {"type": 1, "id": "o01", "index": 0}], "lines": [[0, 1]]})),
    );
    c.insert(
        "o12".into(),
        object("area", json!({"anchors": [{"x": -2, "y": -4}, {"x": 20, "y": -4}, {"x": 20, "y": 8}, {"x": -2, "y": 8}]})),
    );
    c
}

/// The server the generator's app talks to: the document's content, the change events not yet
/// delivered (in order), and every id it ever held.
struct Server {
    content: diagtui_model::Content,
    events: Vec<(Vec<String>, Vec<String>)>,
    ids: std::collections::BTreeSet<String>,
    next: usize,
    stamp: usize,
}

impl Server {
    fn new() -> Server {
        let content = start_content();
        Server {
            ids: content.keys().cloned().collect(),
            content,
            events: Vec::new(),
            next: 20,
            stamp: 0,
        }
    }

    fn new_id(&mut self) -> String {
        self.next += 1;
        let id = format!("o{}", self.next);
        self.ids.insert(id.clone());
        id
    }

    /// Answers `request` as the server would (reads from the content; writes change it and
    /// queue their change event); what it does not keep (histories, selectors...) answers 404.
    fn answer(&mut self, request: &Request) -> Result<Answer, diagtui_tui::Failure> {
        let gone = || {
            Err(failure(
                Some(404),
                Some("OBJECT_NOT_FOUND"),
                "no such object",
            ))
        };
        Ok(match request {
            Request::WhoAmI => Answer::Me(diagtui_model::UserRef {
                id: "u1".into(),
                email: "me@example.com".into(),
            }),
            Request::ListDocs => Answer::Docs(docs()),
            Request::Folders => Answer::Folders(folders()),
            Request::Details { doc } => Answer::Details(details(doc)),
            Request::Embeds { .. } => Answer::Embeds(diagtui_model::embeds::EmbedList {
                success: true,
                embeds: Vec::new(),
            }),
            Request::Content { .. } => objects(self.content.clone()),
            Request::GetObject { obj, .. } => match self.content.get(obj) {
                Some(object) => Answer::Object(object.clone().into()),
                None => return gone(),
            },
            Request::GetObjects { objs, .. } => Answer::Fresh(
                objs.iter()
                    .map(|o| (o.clone(), self.content.get(o).cloned().map(Into::into)))
                    .collect(),
            ),
            Request::CreateObject { kind, props, .. } => {
                let id = self.new_id();
                let object = diagtui_model::DiagramObject {
                    kind: kind.clone(),
                    data: props.clone(),
                };
                self.content.insert(id.clone(), object);
                self.events.push((vec![id.clone()], Vec::new()));
                Answer::Created(id)
            }
            Request::UpdateObject { obj, props, .. } => match self.content.get_mut(obj) {
                Some(object) => {
                    object.data.extend(props.clone());
                    self.events.push((vec![obj.clone()], Vec::new()));
                    Answer::Done
                }
                None => return gone(),
            },
            Request::DeleteObject { obj, .. } => {
                if self.content.remove(obj).is_none() {
                    return gone();
                }
                self.events.push((Vec::new(), vec![obj.clone()]));
                Answer::Done
            }
            _ => return Err(failure(Some(404), Some("NOT_FOUND"), "not kept here")),
        })
    }

    /// Another client changes the document: renames, creates or deletes an object.
    fn elsewhere(&mut self, rng: &mut Rng) {
        let ids: Vec<String> = self.content.keys().cloned().collect();
        match rng.below(3) {
            0 if !ids.is_empty() => {
                let id = rng.pick(&ids).clone();
                let object = self.content.get_mut(&id).expect("listed");
                object
                    .data
                    .insert("name".into(), json!(format!("name-{id}")));
                object.data.insert("meta".into(), json!({"status": "down"}));
                self.events.push((vec![id], Vec::new()));
            }
            1 if ids.len() > 2 => {
                let id = rng.pick(&ids).clone();
                self.content.remove(&id);
                self.events.push((Vec::new(), vec![id]));
            }
            _ => {
                let id = self.new_id();
                let data = json!({"componentId": "generic.cache", "name": format!("name-{id}"),
                                  "position": {"x": 3, "y": 9}});
                self.content.insert(id.clone(), object("component", data));
                self.events.push((vec![id], Vec::new()));
            }
        }
    }
}

/// What the screen says is selected: the tree's selected row (its text), the properties pane's
/// title, the map's selection line; `None` while an overlay covers the screen.
struct Shown {
    row: Option<String>,
    rows: Vec<String>,
    title: String,
    map_line: Option<String>,
    screen: String,
}

fn shown(h: &mut Harness) -> Option<Shown> {
    use ratatui::style::Modifier;
    let buffer = h.buffer(200, 50);
    let lines: Vec<String> = (0..buffer.area.height)
        .map(|y| row_text(&buffer, y))
        .collect();
    if lines.iter().any(|l| l.contains('╭')) {
        return None;
    }
    let top: Vec<char> = lines[0].chars().collect();
    let title_at = lines[0].find("2 Objects")?;
    let title_x = lines[0][..title_at].chars().count();
    let left = (0..title_x).rev().find(|&x| matches!(top[x], '┏' | '┌'))?;
    let right = (title_x..top.len()).find(|&x| matches!(top[x], '┓' | '┐'))?;
    let pane = |y: usize| -> String {
        lines[y]
            .chars()
            .skip(left + 1)
            .take(right - left - 1)
            .collect()
    };
    let mut row = None;
    let mut rows = Vec::new();
    for y in 1..lines.len() - 3 {
        let text = pane(y);
        let style = buffer[(left as u16 + 1, y as u16)].modifier;
        if style.intersects(Modifier::REVERSED | Modifier::UNDERLINED) && row.is_none() {
            row = Some(text.trim().to_string());
        }
        rows.push(text);
    }
    let title = lines[0].chars().skip(right + 1).collect::<String>();
    let map_line = lines
        .iter()
        .map(|l| l.chars().skip(right + 1).collect::<String>())
        .find_map(|l| {
            l.split(['┃', '│'])
                .find(|p| p.trim_start().starts_with("▸ "))
                .map(|p| p.trim().to_string())
        });
    Some(Shown {
        row,
        rows,
        title,
        map_line,
        screen: lines.join("\n"),
    })
}

/// The ids in a row of the tree (its last words that are ids).
fn row_id<'a>(row: &'a str, ids: &std::collections::BTreeSet<String>) -> Option<&'a str> {
    row.split_whitespace().rev().find(|w| ids.contains(*w))
}

/// The rule, as the screen shows it: the properties pane (or the map in its place) shows the
/// object (or the type) of the tree's selected row; with unsaved edits, the tree selects the
/// edited object whenever it has a row.
fn check(h: &mut Harness, ids: &std::collections::BTreeSet<String>, trail: &[String]) {
    let Some(shown) = shown(h) else {
        return;
    };
    let row_obj = shown.row.as_deref().and_then(|r| row_id(r, ids));
    let screen = &shown.screen;
    let fail = |why: &str| -> ! {
        panic!(
            "{why}\nafter: {}\nrow: {:?}\ntitle: {}\nscreen:\n{screen}",
            trail.join(" "),
            shown.row,
            shown.title,
        )
    };
    if let Some(title) = shown.title.split_once("3 Properties [").map(|(_, t)| t) {
        let dirty = title.contains('●');
        let after = title.split_once(']').map_or("", |(_, t)| t);
        let mut words = after.split_whitespace().filter(|w| *w != "●");
        let shown_obj = words.nth(1).unwrap_or_default();
        if row_obj == Some(shown_obj) {
            return;
        }
        let has_row = shown.rows.iter().any(|r| row_id(r, ids) == Some(shown_obj));
        if dirty && (!has_row || row_obj.is_none()) {
            // Edits kept of an object the document no longer has (its banner says so), or
            // left in place while the tree rests on a type heading.
            return;
        }
        fail(&format!(
            "the properties show {shown_obj}, the tree selects {row_obj:?}"
        ));
    } else if let Some(kind) = shown
        .title
        .split_once("3 Properties · type ")
        .map(|(_, k)| k)
    {
        let kind = kind.split_whitespace().next().unwrap_or_default();
        let row = shown.row.clone().unwrap_or_default();
        if !(row.starts_with(&format!("▾ {kind} ")) || row.starts_with(&format!("▸ {kind} "))) {
            fail(&format!("the properties show the type {kind}"));
        }
    } else if shown.title.contains("3 Properties") {
        if row_obj.is_some() {
            fail("the properties show nothing");
        }
    } else if shown.title.contains("3 Map")
        && let Some(row) = shown.row.as_deref().filter(|_| row_obj.is_some())
    {
        // `▸ component name-o01`, and what follows after two spaces.
        let on_map = shown.map_line.clone().unwrap_or_default();
        let named = on_map.split("  ").next().unwrap_or_default();
        let title = named.splitn(3, ' ').nth(2).unwrap_or("?");
        if !row.trim_start_matches(['●', '↻', ' ']).starts_with(title) {
            fail(&format!("the map selects {on_map:?}"));
        }
    }
}

/// The property: whatever is pressed, answered, or changed elsewhere, in whatever order,
/// the properties pane and the map show the tree's selected object after every step.
#[test]
fn the_properties_and_the_map_always_show_the_rows_object() {
    let seeds = std::env::var("SELECTION_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8u64);
    for seed in 1..=seeds {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut server = Server::new();
        let mut h = Harness::new();
        while let Some((id, request)) = h.pending.first().cloned() {
            h.pending.remove(0);
            let answer = server.answer(&request);
            h.reply(id, answer);
        }
        h.press("Enter");
        stream_up(&mut h);
        let mut trail: Vec<String> = Vec::new();
        for _ in 0..120 {
            match rng.below(10) {
                0..=4 => {
                    let key = *rng.pick(KEYS);
                    trail.push(key.to_string());
                    h.press(key);
                }
                5..=7 if !h.pending.is_empty() => {
                    let at = rng.below(h.pending.len());
                    let (id, request) = h.pending.remove(at);
                    trail.push(format!("<answer {}>", request.route().1));
                    let answer = server.answer(&request);
                    h.reply(id, answer);
                }
                8 if !server.events.is_empty() => {
                    let (changed, deleted) = server.events.remove(0);
                    server.stamp += 1;
                    trail.push(format!("<event +{changed:?} -{deleted:?}>"));
                    let changed: Vec<&str> = changed.iter().map(String::as_str).collect();
                    let deleted: Vec<&str> = deleted.iter().map(String::as_str).collect();
                    let stamp = format!("t{}", server.stamp);
                    change_event(&mut h, &changed, &deleted, &stamp);
                }
                _ => {
                    trail.push("<elsewhere>".into());
                    server.elsewhere(&mut rng);
                }
            }
            check(&mut h, &server.ids, &trail);
        }
    }
}
