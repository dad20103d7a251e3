//! What the tree says of an object's relationships, read from the scene: a line group by the
//! names of what it joins (`api-gateway → orders-db`), a component with how many line ends are
//! attached to it.

use crate::scene::{Scene, Shape};

/// The row text of object `id` with its relationships: `text` (the row as the model has it)
/// for a line group replaced by its ends, for a component followed by its connections; `text`
/// as it is for the rest, or while there is no scene.
pub fn row_text(scene: Option<&Scene>, id: &str, text: &str) -> String {
    let Some(scene) = scene else {
        return text.to_owned();
    };
    match scene.get(id).map(|p| &p.shape) {
        Some(Shape::Lines(_)) => scene.ends(id).unwrap_or_else(|| text.to_owned()),
        Some(Shape::Component(_)) => match scene.connection_count(id) {
            0 => text.to_owned(),
            1 => format!("{text} · 1 connection"),
            n => format!("{text} · {n} connections"),
        },
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Content;
    use crate::scene::DEFAULT_STATUS_KEY;
    use serde_json::json;

    #[test]
    fn line_groups_name_their_ends_and_components_count_theirs() {
        let content: Content = serde_json::from_value(json!({
            "a": {"type": "component", "data": {"name": "api", "position": {"x": 0, "y": 0}}},
            "b": {"type": "component", "data": {"name": "db", "position": {"x": 9, "y": 0}}},
            "c": {"type": "component", "data": {"name": "idle", "position": {"x": 0, "y": 9}}},
            "l": {"type": "line-group", "data": {
                "anchors": [{"type": 1, "id": "a", "index": 1}, {"type": 1, "id": "b", "index": 0}],
                "lines": [[0, 1]], "arrowAnchorIndices": {"1": true}}},
            "t": {"type": "label", "data": {"text": "hello", "position": {"x": 0, "y": 0}}},
        }))
        .unwrap();
        let scene = Scene::build(&content, DEFAULT_STATUS_KEY);
        let row = |id: &str, text: &str| row_text(Some(&scene), id, text);
        assert_eq!(row("l", "2 anchors, 1 line"), "api → db");
        assert_eq!(row("a", "generic (api)"), "generic (api) · 1 connection");
        assert_eq!(row("c", "generic (idle)"), "generic (idle)");
        assert_eq!(row("t", "\"hello\""), "\"hello\"");
        assert_eq!(row("gone", "x"), "x");
        assert_eq!(
            row_text(None, "l", "2 anchors, 1 line"),
            "2 anchors, 1 line"
        );
    }
}
