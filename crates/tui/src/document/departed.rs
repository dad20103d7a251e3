//! The last names of the open document's components that went away (deleted here, by another
//! client, or missing from a reload): a line group whose end was deleted still names that end
//! by them (`web-01, web-02 → (deleted) orders-db`, see `names.rs`). Only components are kept
//! (only they are a line's ends), and only the newest [`KEPT`], so a bulk delete of a large
//! document holds little.

use std::collections::{HashMap, VecDeque};

/// How many departed names are kept; the oldest is forgotten first.
pub const KEPT: usize = 4096;

/// Departed components' last titles, by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Departed {
    titles: HashMap<String, String>,
    /// Ids in the order they departed (oldest first), for forgetting.
    order: VecDeque<String>,
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
