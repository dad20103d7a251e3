//! The last names of the open document's components that went away (deleted here, by another
//! client, or missing from a reload): a line group whose end was deleted still names that end
//! by them (`web-01, web-02 → (deleted) orders-db`, see `names.rs`). Only components are kept
//! (only they are a line's ends), and only the newest [`KEPT`], so a bulk delete of a large
//! document holds little.
//!
//! An end deleted before this session saw it (in an earlier session, by another client while
//! the app was closed) is asked of the server's history, where the server keeps one (our
//! extension): [`Departed::to_ask`] names the ends the scene could not place for want of
//! their component, each once, a few at a time; App reads the newest version that changed
//! each (the delete) and notes the names its deleted components had before it
//! (`app/departed.rs`). Nothing is kept on disk: the history is the record of what a
//! component was called, whoever deleted it and whenever.

use std::collections::{HashMap, HashSet, VecDeque};

use serde_json::Value;

use crate::document::ObjectModel;
use diagtui_scene::Scene;

/// How many departed names are kept; the oldest is forgotten first.
pub const KEPT: usize = 4096;

/// How many ends' names are asked of the server at once.
pub const ASK_AT_ONCE: usize = 8;

/// Departed components' last titles, by id, and which were asked of the server.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Departed {
    titles: HashMap<String, String>,
    /// Ids in the order they departed (oldest first), for forgetting.
    order: VecDeque<String>,
    /// Ids whose last name was asked of the server (each is asked once).
    asked: HashSet<String>,
    /// How many of those asks are under way.
    asking: usize,
    /// The server keeps no history: nothing more is asked.
    no_history: bool,
}

impl Departed {
    /// Notes that component `id`, last titled `title`, went away.
    pub fn note(&mut self, id: &str, title: &str) {
        let title = if title.is_empty() { id } else { title };
        if self
            .titles
            .insert(id.to_owned(), title.to_owned())
            .is_none()
        {
            self.order.push_back(id.to_owned());
        }
        while self.order.len() > KEPT {
            if let Some(oldest) = self.order.pop_front() {
                self.titles.remove(&oldest);
            }
        }
    }

    /// The last title of departed component `id`, if it is known.
    pub fn title(&self, id: &str) -> Option<&str> {
        self.titles.get(id).map(String::as_str)
    }

    /// The ends to ask the server about now: the ids that line groups of `model` the `scene`
    /// could not place name as an end and that neither the model has nor a name is known of,
    /// never asked before; no more than [`ASK_AT_ONCE`] under way. Counted as under way until
    /// [`Departed::answered`].
    pub fn to_ask(&mut self, model: &ObjectModel, scene: &Scene) -> Vec<String> {
        if self.no_history || self.asked.len() >= KEPT {
            return Vec::new();
        }
        let room = ASK_AT_ONCE.saturating_sub(self.asking);
        let mut ask = Vec::new();
        let groups = scene.unplaced().iter().filter(|u| u.kind == "line-group");
        for group in groups.filter_map(|u| model.get(&u.id)) {
            let anchors = group.data.get("anchors").and_then(Value::as_array);
            for end in anchors
                .into_iter()
                .flatten()
                .filter_map(|a| a.get("id")?.as_str())
            {
                if ask.len() == room {
                    break;
                }
                if model.index_of(end).is_none()
                    && !self.titles.contains_key(end)
                    && self.asked.insert(end.to_owned())
                {
                    ask.push(end.to_owned());
                }
            }
        }
        self.asking += ask.len();
        ask
    }

    /// An ask is over (answered, or failed).
    pub fn answered(&mut self) {
        self.asking = self.asking.saturating_sub(1);
    }

    /// The server keeps no history: ask nothing more.
    pub fn server_keeps_none(&mut self) {
        self.no_history = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_model::{Content, DiagramObject};
    use diagtui_scene::DEFAULT_STATUS_KEY;
    use serde_json::json;

    fn object(kind: &str, data: Value) -> DiagramObject {
        DiagramObject {
            kind: kind.into(),
            data: serde_json::from_value(data).unwrap(),
        }
    }

    /// Component `a`, and a line group from `a` to each of `ends` (none of which is there).
    fn dangling(ends: &[&str]) -> (ObjectModel, Scene) {
        let mut content = Content::new();
        let at = json!({"x": 0, "y": 0});
        content.insert(
            "a".into(),
            object(
                "component",
                json!({"componentId": "generic.server", "position": at}),
            ),
        );
        for (i, end) in ends.iter().enumerate() {
            let anchors =
                json!([{"type": 1, "id": "a", "index": 0}, {"type": 1, "id": end, "index": 0}]);
            content.insert(
                format!("l{i}"),
                object("line-group", json!({"anchors": anchors, "lines": [[0, 1]]})),
            );
        }
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        (ObjectModel::new(content), scene)
    }

    #[test]
    fn the_ends_no_name_is_known_of_are_asked_once_a_few_at_a_time() {
        let ends: Vec<String> = (0..ASK_AT_ONCE + 2)
            .map(|i| format!("gone{i:02}"))
            .collect();
        let mut with_known: Vec<&str> = ends.iter().map(String::as_str).collect();
        with_known.push("known");
        let (model, scene) = dangling(&with_known);
        let mut departed = Departed::default();
        departed.note("known", "orders-db");
        let first = departed.to_ask(&model, &scene);
        assert_eq!(first.len(), ASK_AT_ONCE, "{first:?}");
        assert!(
            !first.contains(&"known".to_owned()),
            "a known name is not asked"
        );
        assert!(
            departed.to_ask(&model, &scene).is_empty(),
            "no room while they are asked"
        );
        departed.answered();
        departed.answered();
        let second = departed.to_ask(&model, &scene);
        assert_eq!(second.len(), 2);
        assert!(second.iter().all(|end| !first.contains(end)), "each once");
        for _ in 0..ASK_AT_ONCE {
            departed.answered();
        }
        assert!(departed.to_ask(&model, &scene).is_empty(), "all asked");
    }

    #[test]
    fn nothing_is_asked_of_a_server_without_history() {
        let (model, scene) = dangling(&["gone"]);
        let mut departed = Departed::default();
        departed.server_keeps_none();
        assert!(departed.to_ask(&model, &scene).is_empty());
    }

    #[test]
    fn the_newest_names_are_kept_and_an_empty_title_is_the_id() {
        let mut departed = Departed::default();
        departed.note("c1", "orders-db");
        departed.note("c2", "");
        assert_eq!(departed.title("c1"), Some("orders-db"));
        assert_eq!(departed.title("c2"), Some("c2"));
        assert_eq!(departed.title("c3"), None);
        departed.note("c1", "renamed-db");
        assert_eq!(
            departed.title("c1"),
            Some("renamed-db"),
            "the last name wins"
        );
        for i in 0..KEPT {
            departed.note(&format!("x{i}"), "x");
        }
        assert_eq!(departed.title("c1"), None, "the oldest forgotten first");
        assert_eq!(departed.title(&format!("x{}", KEPT - 1)), Some("x"));
        assert_eq!(departed.titles.len(), KEPT);
    }
}
