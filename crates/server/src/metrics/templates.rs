//! The route template a request path matches, found in a tree of the templates' segments.
//! It matches as axum's router does (a segment of text before a `{param}`, a `{param}` before
//! a `{*rest}`, going back when a branch ends without a route; a parameter is never empty), but
//! only tells which template matched: no parameters are collected, so nothing is allocated.
//! `matchit`, which axum routes with, cost some 1,500 instructions a request here, most of them
//! collecting parameters into a vector (callgrind, BENCHMARKS.md "Running as a service").

/// The templates as a tree: one node per segment.
#[derive(Debug, Default)]
pub(crate) struct Templates {
    /// Children by the text of their segment.
    texts: Vec<(Box<str>, Templates)>,
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
                        &mut node.texts.last_mut().expect("just pushed").1
                    }
                }
            };
        }
        node.route = Some(route);
    }

    /// The route of the template `path` matches, if any.
    pub(crate) fn route_of(&self, path: &str) -> Option<usize> {
        self.find(path.strip_prefix('/')?)
    }

    /// The route matched by `path`, what follows this node's parent segment and its slash.
    fn find(&self, path: &str) -> Option<usize> {
        // `split_once('/')` cost five times as much here (callgrind).
        let (segment, after) = match memchr::memchr(b'/', path.as_bytes()) {
            Some(at) => (&path[..at], Some(&path[at + 1..])),
            None => (path, None),
        };
        let down = |child: &Templates| match after {
            Some(after) => child.find(after),
            None => child.route,
        };
        self.texts
            .iter()
            .find(|(text, _)| **text == *segment)
            .and_then(|(_, child)| down(child))
            .or_else(|| {
                self.param
                    .as_deref()
                    .filter(|_| !segment.is_empty())
                    .and_then(down)
            })
            .or_else(|| self.rest.filter(|_| !path.is_empty()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut tree = Templates::default();
        for (route, template) in templates.iter().enumerate() {
            tree.insert(template, route);
        }
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
}
