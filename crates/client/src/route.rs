//! Every call of the API this client makes, as its method and its path below the API root: the
//! one table of routes the client's methods build their requests from, and that a caller can
//! show (the TUI's request log names each request's method and path from it, never the key).

use std::fmt::Write;

use diagtui_model::Selector;

/// The HTTP method of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// A read.
    Get,
    /// A write.
    Post,
}

impl Method {
    /// `GET` or `POST`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// One call: its method, its path's segments below `/api/v1` (each percent-encoded when the URL
/// is made), a last segment already encoded (a selector), and its query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// Its method.
    pub method: Method,
    pub(crate) segments: Vec<String>,
    pub(crate) encoded: Option<String>,
    pub(crate) query: Vec<(String, String)>,
}

impl Route {
    /// A `GET` of `segments`.
    fn get(segments: &[&str]) -> Route {
        Route::new(Method::Get, segments)
    }

    /// A `POST` to `segments`.
    fn post(segments: &[&str]) -> Route {
        Route::new(Method::Post, segments)
    }

    fn new(method: Method, segments: &[&str]) -> Route {
        Route {
            method,
            segments: segments.iter().map(|s| s.to_string()).collect(),
            encoded: None,
            query: Vec::new(),
        }
    }

    /// The same route with `name=value` in its query when there is a value.
    pub fn with(mut self, name: &str, value: Option<impl ToString>) -> Route {
        if let Some(value) = value {
            self.query.push((name.to_string(), value.to_string()));
        }
        self
    }

    /// Its path as a log shows it: `/api/v1/doc/{doc}/obj/all?versions=true` (not encoded).
    pub fn path(&self) -> String {
        let mut path = String::from("/api/v1");
        for segment in self.segments.iter().chain(&self.encoded) {
            path.push('/');
            path.push_str(segment);
        }
        for (i, (name, value)) in self.query.iter().enumerate() {
            let sep = if i == 0 { '?' } else { '&' };
            let _ = write!(path, "{sep}{name}={value}");
        }
        path
    }
}

/// `GET /me`: the account behind the key.
pub fn me() -> Route {
    Route::get(&["me"])
}

/// `GET /doc`: the documents.
pub fn docs() -> Route {
    Route::get(&["doc"])
}

/// `GET /doc/{doc}`: one document's details.
pub fn doc(doc: &str) -> Route {
    Route::get(&["doc", doc])
}

/// `GET /doc/{doc}/obj/all`, with the versions when `versions`.
pub fn content(doc: &str, versions: bool) -> Route {
    Route::get(&["doc", doc, "obj", "all"]).with("versions", versions.then_some("true"))
}

/// `GET /doc/{doc}/obj/all?version=V`: the content as it was at a version.
pub fn content_at(doc: &str, version: u64) -> Route {
    Route::get(&["doc", doc, "obj", "all"]).with("version", Some(version))
}

/// `POST /doc/set-content/{doc}`: the content replaced.
pub fn set_content(doc: &str) -> Route {
    Route::post(&["doc", "set-content", doc])
}

/// `POST /doc/create`.
pub fn create_doc() -> Route {
    Route::post(&["doc", "create"])
}

/// `POST /doc/change-title`.
pub fn rename_doc() -> Route {
    Route::post(&["doc", "change-title"])
}

/// `POST /doc/clone`.
pub fn clone_doc() -> Route {
    Route::post(&["doc", "clone"])
}

/// `POST /doc/empty`.
pub fn empty_doc() -> Route {
    Route::post(&["doc", "empty"])
}

/// `POST /doc/add-collaborator`.
pub fn share_doc() -> Route {
    Route::post(&["doc", "add-collaborator"])
}

/// `POST /doc/move`.
pub fn move_doc() -> Route {
    Route::post(&["doc", "move"])
}

/// `POST /doc/delete`.
pub fn delete_doc() -> Route {
    Route::post(&["doc", "delete"])
}

/// `GET /doc/{doc}/obj/{obj}`: one object.
pub fn object(doc: &str, obj: &str) -> Route {
    Route::get(&["doc", doc, "obj", obj])
}

/// `POST /doc/{doc}/obj/{obj}`: props merged into one object.
pub fn update_object(doc: &str, obj: &str) -> Route {
    Route::post(&["doc", doc, "obj", obj])
}

/// `POST /doc/{doc}/obj/`: a new object.
pub fn create_object(doc: &str) -> Route {
    Route::post(&["doc", doc, "obj", ""])
}

/// `POST /doc/{doc}/obj/{obj}/delete`.
pub fn delete_object(doc: &str, obj: &str) -> Route {
    Route::post(&["doc", doc, "obj", obj, "delete"])
}

/// `GET /doc/{doc}/obj/where/{selector}`, with the versions when `versions`.
pub fn objects_where(doc: &str, selector: &Selector, versions: bool) -> Route {
    let mut route = Route::get(&["doc", doc, "obj", "where"]);
    route.encoded = Some(selector.to_path_segment());
    route.with("versions", versions.then_some("true"))
}

/// `POST /doc/{doc}/obj/where`: props merged into the objects a selector matches.
pub fn update_where(doc: &str) -> Route {
    Route::post(&["doc", doc, "obj", "where"])
}

/// `POST /doc/{doc}`: a bulk update.
pub fn bulk_update(doc: &str) -> Route {
    Route::post(&["doc", doc])
}

/// `GET /folder/list`.
pub fn folders() -> Route {
    Route::get(&["folder", "list"])
}

/// `POST /folder/create`.
pub fn create_folder() -> Route {
    Route::post(&["folder", "create"])
}

/// `POST /folder/change-title`.
pub fn rename_folder() -> Route {
    Route::post(&["folder", "change-title"])
}

/// `POST /folder/delete`.
pub fn delete_folder() -> Route {
    Route::post(&["folder", "delete"])
}

/// `POST /embed/{action}`: `create-static`, `delete-static`, `enable-live`, `disable-live`.
pub fn embed(action: &str) -> Route {
    Route::post(&["embed", action])
}

/// `GET /embed/list/{doc}`.
pub fn embeds(doc: &str) -> Route {
    Route::get(&["embed", "list", doc])
}

/// `GET /doc/{doc}/history` (or one object's, `obj/{obj}/history`): at most `limit` versions
/// older than `before`.
pub fn history(doc: &str, obj: Option<&str>, before: Option<u64>, limit: Option<usize>) -> Route {
    let route = match obj {
        Some(obj) => Route::get(&["doc", doc, "obj", obj, "history"]),
        None => Route::get(&["doc", doc, "history"]),
    };
    route.with("limit", limit).with("before", before)
}

/// `GET /doc/{doc}/history/{version}`.
pub fn version(doc: &str, version: u64) -> Route {
    Route::get(&["doc", doc, "history", &version.to_string()])
}

/// `GET /doc/{doc}/diff?from&to`.
pub fn diff(doc: &str, from: u64, to: Option<u64>) -> Route {
    Route::get(&["doc", doc, "diff"])
        .with("from", Some(from))
        .with("to", to)
}

/// `POST /doc/{doc}/restore`.
pub fn restore(doc: &str) -> Route {
    Route::post(&["doc", doc, "restore"])
}

/// `POST /create-diagram/{doc}` with layout `settings` and `replace` as its query.
pub fn create_diagram(doc: &str, settings: &[(String, String)], replace: bool) -> Route {
    let mut route = Route::post(&["create-diagram", doc]);
    route.query = settings.to_vec();
    route.with("replace", replace.then_some("true"))
}

/// `GET /doc/{doc}/events`: one document's change events.
pub fn doc_events(doc: &str) -> Route {
    Route::get(&["doc", doc, "events"])
}

/// `GET /events`: every document's change events.
pub fn events() -> Route {
    Route::get(&["events"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_as_the_log_shows_them() {
        assert_eq!(me().path(), "/api/v1/me");
        assert_eq!(
            content("D", true).path(),
            "/api/v1/doc/D/obj/all?versions=true"
        );
        assert_eq!(content("D", false).path(), "/api/v1/doc/D/obj/all");
        assert_eq!(create_object("D").path(), "/api/v1/doc/D/obj/");
        assert_eq!(
            history("D", None, Some(7), Some(50)).path(),
            "/api/v1/doc/D/history?limit=50&before=7"
        );
        assert_eq!(
            history("D", Some("O"), None, Some(1)).path(),
            "/api/v1/doc/D/obj/O/history?limit=1"
        );
        assert_eq!(diff("D", 3, None).path(), "/api/v1/doc/D/diff?from=3");
        assert_eq!(
            create_diagram("D", &[], false).path(),
            "/api/v1/create-diagram/D"
        );
        assert_eq!(delete_object("D", "O").method, Method::Post);
    }
}
