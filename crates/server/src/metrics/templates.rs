//! The route template a request path matches, found in a tree of the templates' segments.
//! It matches as axum's router does (a segment of text before a `{param}`, a `{param}` before
//! a `{*rest}`, going back when a branch ends without a route; a parameter is never empty), but
//! only tells which template matched: no parameters are collected, so nothing is allocated.
//! `matchit`, which axum routes with, cost some 1,500 instructions a request here, most of them
//! collecting parameters into a vector (callgrind, BENCHMARKS.md "Running as a service").
//! A path is first walked straight down, the search with its going back only run when that
//! finds nothing.

/// The templates as a tree: one node per segment.
#[derive(Debug, Default)]
pub(crate) struct Templates {
    /// Children by the text of their segment.
    texts: Vec<(Box<str>, Templates)>,
    /// The first byte of each text in `texts` (0 for an empty one), scanned before a text is
    /// read: a path's segment is compared with the few texts that begin as it does.
    firsts: Vec<u8>,
    /// The child for a `{param}` segment.
    param: Option<Box<Templates>>,
    /// The template ending here with a `{*rest}` segment: what it matches.
    rest: Option<usize>,
    /// The template ending here: what it matches.
    route: Option<usize>,
}

impl Templates {
    /// Adds `template` (`/api/v1/doc/{doc_id}`), matched as `route`.
    ///
    /// # Panics
    ///
    /// On a segment that mixes text and a parameter (`{id}.svg`), which the tree does not
    /// know.
    pub(crate) fn insert(&mut self, template: &str, route: usize) {
        let mut node = self;
        for segment in template.strip_prefix('/').unwrap_or(template).split('/') {
            let param = segment.starts_with('{') && segment.ends_with('}');
            assert!(
                param || !segment.contains(['{', '}']),
                "a segment of text and a parameter in {template}"
            );
            if param && segment.starts_with("{*") {
                node.rest = Some(route);
                return;
            }
            node = if param {
                node.param.get_or_insert_default()
            } else {
                match node.texts.iter().position(|(text, _)| **text == *segment) {
                    Some(at) => &mut node.texts[at].1,
                    None => {
                        node.texts.push((segment.into(), Templates::default()));
                        node.firsts.push(segment.bytes().next().unwrap_or(0));
                        &mut node.texts.last_mut().expect("just pushed").1
                    }
                }
            };
        }
        node.route = Some(route);
    }

    /// The route of the template `path` matches, if any.
    pub(crate) fn route_of(&self, path: &str) -> Option<usize> {
        let path = path.strip_prefix('/')?.as_bytes();
        self.straight(path).or_else(|| self.find(path))
    }

    /// The route `path` matches taking at each segment the first branch that may match (its
    /// text, else the parameter, else the rest), without going back: what [`Templates::find`]
    /// finds first when it finds anything this way, and `None` where it would go back. It makes
    /// no call per segment, and a request's path almost always matches this way (callgrind: 585
    /// instructions for an object's path, against 843 for the search alone).
    fn straight(&self, mut path: &[u8]) -> Option<usize> {
        let mut node = self;
        loop {
            let (next, len) = match node.text_child(path) {
                Some(found) => found,
                None => match node.param.as_deref() {
                    // An empty parameter matches nothing: `find` goes on to the rest.
                    Some(param) => (param, param_end(path)?),
                    None => return node.rest.filter(|_| !path.is_empty()),
                },
            };
            match path.get(len + 1..) {
                Some(after) => (node, path) = (next, after),
                None => return next.route,
            }
        }
    }

    /// The route matched by `path`, what follows this node's parent segment and its slash:
    /// the text child's, else the parameter's, else the rest's, going back when one matches
    /// nothing.
    fn find(&self, path: &[u8]) -> Option<usize> {
        if let Some((child, len)) = self.text_child(path)
            && let Some(route) = child.below(path, len)
        {
            return Some(route);
        }
        if let Some(param) = self.param.as_deref()
            && let Some(end) = param_end(path)
            && let Some(route) = param.below(path, end)
        {
            return Some(route);
        }
        self.rest.filter(|_| !path.is_empty())
    }

    /// The child whose text is `path`'s first segment, and the text's length. Only the texts
    /// beginning with the path's first byte are read, each where the path has a slash (or its
    /// end) just past the text's length.
    fn text_child(&self, path: &[u8]) -> Option<(&Templates, usize)> {
        let first = path.first().copied().unwrap_or(0);
        let candidates = self.firsts.iter().enumerate().filter(|(_, b)| **b == first);
        candidates
            .map(|(at, _)| &self.texts[at])
            .find_map(|(text, child)| {
                let text = text.as_bytes();
                let ends_there = match path.get(text.len()) {
                    Some(&after) => after == b'/',
                    None => path.len() == text.len(),
                };
                (ends_there && path.starts_with(text)).then_some((child, text.len()))
            })
    }

    /// The route matched by `path` at this node, its segment `len` bytes long: this node's
    /// own where the path ends with the segment, else what its children match past the slash.
    fn below(&self, path: &[u8], len: usize) -> Option<usize> {
        match path.get(len + 1..) {
            Some(after) => self.find(after),
            None => self.route,
        }
    }
}

/// Where a parameter's segment at the start of `path` ends (its length); `None` for an empty
/// one, which matches no parameter.
fn param_end(path: &[u8]) -> Option<usize> {
    match memchr::memchr(b'/', path).unwrap_or(path.len()) {
        0 => None,
        end => Some(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree of these templates, each matched as its index.
    fn tree_of(templates: &[&str]) -> Templates {
        let mut tree = Templates::default();
        for (route, template) in templates.iter().enumerate() {
            tree.insert(template, route);
        }
        tree
    }

    #[test]
    fn a_path_matches_text_before_a_parameter_before_the_rest_and_goes_back() {
        let templates = [
            "/api/v1/doc",
            "/api/v1/doc/create",
            "/api/v1/doc/{doc_id}",
            "/api/v1/doc/{doc_id}/obj/all",
            "/api/v1/doc/{doc_id}/obj/{obj_id}",
            "/api/v1/doc/{doc_id}/obj/where/{*selector}",
            "/api/v1/doc/create/thing",
            "/",
        ];
        let tree = tree_of(&templates);
        let matched = |path: &str| tree.route_of(path).map(|route| templates[route]);
        assert_eq!(matched("/api/v1/doc"), Some("/api/v1/doc"));
        assert_eq!(matched("/api/v1/doc/create"), Some("/api/v1/doc/create"));
        assert_eq!(matched("/api/v1/doc/d1"), Some("/api/v1/doc/{doc_id}"));
        assert_eq!(
            matched("/api/v1/doc/d1/obj/all"),
            Some("/api/v1/doc/{doc_id}/obj/all")
        );
        assert_eq!(
            matched("/api/v1/doc/d1/obj/o1"),
            Some("/api/v1/doc/{doc_id}/obj/{obj_id}")
        );
        // `create` has no `obj` below it: back to the parameter.
        assert_eq!(
            matched("/api/v1/doc/create/obj/o1"),
            Some("/api/v1/doc/{doc_id}/obj/{obj_id}")
        );
        assert_eq!(
            matched("/api/v1/doc/d1/obj/where/%5B%22a%22/b"),
            Some("/api/v1/doc/{doc_id}/obj/where/{*selector}")
        );
        // `where` alone is an object id; an empty parameter or rest matches nothing.
        assert_eq!(
            matched("/api/v1/doc/d1/obj/where"),
            Some("/api/v1/doc/{doc_id}/obj/{obj_id}")
        );
        assert_eq!(matched("/api/v1/doc/d1/obj/where/"), None);
        assert_eq!(matched("/api/v1/doc//obj/o1"), None);
        assert_eq!(matched("/api/v1/doc/d1/obj/o1/more"), None);
        assert_eq!(matched("/api/v1"), None);
        assert_eq!(matched("/"), Some("/"));
        assert_eq!(matched(""), None);
    }

    #[test]
    fn the_straight_walk_finds_what_the_search_finds_or_nothing() {
        let templates = [
            "/api/v1/doc",
            "/api/v1/doc/create",
            "/api/v1/doc/create/thing",
            "/api/v1/doc/{doc_id}",
            "/api/v1/doc/{doc_id}/obj",
            "/api/v1/doc/{doc_id}/obj/{obj_id}",
            "/api/v1/doc/{doc_id}/obj/where/{*selector}",
            "/api/{*rest}",
        ];
        let tree = tree_of(&templates);
        // Every path of up to six segments drawn from these, the template texts among them.
        let segments = [
            "api", "v1", "doc", "create", "thing", "obj", "where", "d1", "",
        ];
        let mut paths = vec![String::new()];
        for _ in 0..6 {
            let longer: Vec<String> = (paths.iter())
                .flat_map(|p| segments.iter().map(move |s| format!("{p}/{s}")))
                .collect();
            for path in &longer {
                let path = path.strip_prefix('/').expect("made with one").as_bytes();
                let straight = tree.straight(path);
                assert!(
                    straight.is_none() || straight == tree.find(path),
                    "{}",
                    String::from_utf8_lossy(path)
                );
            }
            paths = longer;
        }
    }
}
