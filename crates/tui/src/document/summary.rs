//! What the properties pane shows for a type heading of the tree: how many objects of that
//! type there are, how many the filter shows and how many are marked, and the meta their
//! objects carry, with a selector that would preview the commonest value.

use crate::document::{Marks, ObjectModel};

/// Meta keys listed.
const KEYS: usize = 6;
/// Values listed per key.
const VALUES: usize = 4;

/// `values` with their counts, the commonest first (then by name).
fn commonest_first(mut values: Vec<(String, usize)>) -> Vec<(String, usize)> {
    values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    values
}

/// What the summary lists of one meta key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed<'a> {
    /// Its few values, commonest first, each with how many objects have it.
    Values(&'a [(String, usize)]),
    /// How many different values it has (too many to list).
    Distinct(usize),
}

/// A summary of the objects of one type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeSummary {
    /// The type's wire name.
    pub kind: String,
    /// How many objects of it the document has.
    pub count: usize,
    /// How many of them the tree shows (under the filter).
    pub shown: usize,
    /// How many of them are marked.
    pub marked: usize,
    /// Each meta key their objects carry (those most objects carry first), with its values and
    /// how many objects have each, commonest first.
    pub meta: Vec<(String, Vec<(String, usize)>)>,
}

impl TypeSummary {
    /// The summary of type `kind` in `model`, `shown` of them in the tree, `marks` marked (from
    /// the model's groups and its meta index by type: no object is read).
    pub fn of(model: &ObjectModel, kind: &str, shown: usize, marks: &Marks) -> Self {
        let members = model
            .groups()
            .iter()
            .find(|g| g.kind == kind)
            .map_or(&[][..], |g| g.members.as_slice());
        let count = members.len();
        let marked = members.iter().filter(|&&i| marks.contains(i)).count();
        let meta = model
            .kind_meta(kind)
            .into_iter()
            .flatten()
            .map(|(key, values)| {
                let counted = values.counts().map(|(v, n)| (v.to_string(), n));
                (key.clone(), commonest_first(counted.collect()))
            });
        let mut meta: Vec<(String, Vec<(String, usize)>)> = meta.collect();
        meta.sort_by_key(|(_, values)| {
            std::cmp::Reverse(values.iter().map(|v| v.1).sum::<usize>())
        });
        TypeSummary {
            kind: kind.to_string(),
            count,
            shown,
            marked,
            meta,
        }
    }

    /// The meta keys to list (the first few), each with its values when they are few, else
    /// how many different ones there are.
    pub fn listed(&self) -> impl Iterator<Item = (&str, Listed<'_>)> {
        self.meta.iter().take(KEYS).map(|(key, values)| {
            let listed = if values.len() <= VALUES {
                Listed::Values(values)
            } else {
                Listed::Distinct(values.len())
            };
            (key.as_str(), listed)
        })
    }

    /// A selector row (`key eq value`) that previews the most objects of this type (the first
    /// key of those that tie), with how many of them carry it.
    pub fn example(&self) -> Option<(String, usize)> {
        self.meta
            .iter()
            .filter_map(|(key, values)| values.first().map(|(v, n)| (key, v, *n)))
            .max_by(|a, b| a.2.cmp(&b.2).then_with(|| b.0.cmp(a.0)))
            .map(|(key, value, n)| (format!("{key} eq {value}"), n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagtui_model::{Content, DiagramObject};
    use serde_json::Value;
    use serde_json::json;

    #[test]
    fn counts_marks_and_meta_of_one_type() {
        let object = |kind: &str, data: Value| DiagramObject {
            kind: kind.into(),
            data: serde_json::from_value(data).unwrap(),
        };
        let content: Content = [
            ("a", object("component", json!({"meta": {"status": "up"}}))),
            (
                "b",
                object("component", json!({"meta": {"status": "up", "env": "dev"}})),
            ),
            (
                "c",
                object("component", json!({"meta": {"status": "down"}})),
            ),
            ("d", object("label", json!({"meta": {"status": "up"}}))),
        ]
        .into_iter()
        .map(|(id, o)| (id.to_string(), o))
        .collect();
        let model = ObjectModel::new(content);
        let mut marks = Marks::default();
        for id in ["a", "d"] {
            marks.set(model.index_of(id).unwrap(), true);
        }
        let summary = TypeSummary::of(&model, "component", 2, &marks);
        assert_eq!((summary.count, summary.shown, summary.marked), (3, 2, 1));
        let listed: Vec<(&str, Listed)> = summary.listed().collect();
        let status = [("up".to_string(), 2), ("down".to_string(), 1)];
        assert_eq!(
            listed,
            vec![
                ("status", Listed::Values(&status)),
                ("env", Listed::Values(&[("dev".to_string(), 1)])),
            ],
            "the keys most objects carry first"
        );
        assert_eq!(summary.example(), Some(("status eq up".to_string(), 2)));

        let many: Content = (0..5)
            .map(|i| (format!("o{i}"), object("icon", json!({"meta": {"id": i}}))))
            .collect();
        let summary = TypeSummary::of(&ObjectModel::new(many), "icon", 5, &Marks::default());
        assert_eq!(
            summary.listed().collect::<Vec<_>>(),
            vec![("id", Listed::Distinct(5))]
        );
    }
}
