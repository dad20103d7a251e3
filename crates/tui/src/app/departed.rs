//! App's part of naming a line group's deleted ends after the session that deleted them (see
//! `document/departed.rs`): once a scene is taken, the ends it could not place for want of
//! their component are asked of the server's history, a few at a time: the newest version
//! that changed each (its delete), then that version, whose deleted components' names before
//! it are noted. Against a server without the history routes (a 404) nothing more is asked,
//! and such an end reads `(missing) <id>` as before.

use crate::app::update::App;
use crate::document::names::Names;
use crate::requests::api;
use crate::requests::call::Request;
use crate::requests::purpose::{Answered, DepartedReply};
use crate::vocab::action::Action;
use diagtui_model::ErrorCode;
use diagtui_model::history::VersionDetails;

impl App {
    /// Asks the server's history for the last names of the open document's deleted line ends
    /// that no name is known of (a few at a time; each once).
    pub(super) fn ask_departed(&mut self) -> Vec<Action> {
        let (Some(doc), Some(scene)) = (self.doc.as_mut(), self.scene.scene()) else {
            return Vec::new();
        };
        let Some(model) = doc.content.value() else {
            return Vec::new();
        };
        let ends = doc.departed.to_ask(model, scene);
        ends.into_iter()
            .map(|obj| {
                let call = api::object_history(doc.id().to_owned(), obj.clone());
                Action::Send(self.requests.prepare(call, move |page| {
                    Answered::Departed(obj, DepartedReply::Newest(page))
                }))
            })
            .collect()
    }

    /// An answer to an ask for deleted end `obj`'s last name: its newest version is read, and
    /// the names that version's deleted components had are noted; then the next ends are asked.
    pub(super) fn departed_answered(
        &mut self,
        obj: &str,
        request: Request,
        reply: DepartedReply,
    ) -> Vec<Action> {
        let (Request::ObjectHistory { doc, .. } | Request::Version { doc, .. }) = &request else {
            return Vec::new();
        };
        let Some(open) = self.doc.as_mut().filter(|d| d.id() == doc) else {
            return Vec::new();
        };
        let outcome = match reply {
            DepartedReply::Newest(page) => {
                page.map(|page| page.versions.first().map(|v| v.version))
            }
            DepartedReply::Version(details) => details.map(|details| {
                for (id, title) in deleted_components(&details) {
                    open.departed.note(&id, &title);
                }
                None
            }),
        };
        match outcome {
            Ok(Some(newest)) => {
                let obj = obj.to_owned();
                let call = api::version(doc.clone(), newest);
                return vec![Action::Send(self.requests.prepare(call, move |details| {
                    Answered::Departed(obj, DepartedReply::Version(details))
                }))];
            }
            Ok(None) => {}
            // A server without the history routes: a 404 that is not about the document or
            // the object (a route it does not have).
            Err(failure)
                if failure.status == Some(404)
                    && !matches!(
                        failure.code,
                        Some(ErrorCode::DocNotFound | ErrorCode::ObjNotFound)
                    ) =>
            {
                open.departed.server_keeps_none();
            }
            // The end stays `(missing) <id>`: no message for a name.
            Err(failure) => {
                tracing::debug!(obj, error = %failure.message, "the last name of a deleted end not read");
            }
        }
        open.departed.answered();
        self.ask_departed()
    }
}

/// The components version `details` deleted, with the names they had before it.
fn deleted_components(details: &VersionDetails) -> Vec<(String, String)> {
    let names = Names::default();
    details
        .objects
        .iter()
        .filter(|change| change.after.is_none())
        .filter_map(|change| {
            let before = change.before.as_ref().filter(|b| b.kind == "component")?;
            let title = names.of_object(&change.obj_id, before).text().to_owned();
            Some((change.obj_id.clone(), title))
        })
        .collect()
}
