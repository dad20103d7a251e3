//! A new document from a file of create-diagram entries (`n`, then `Ctrl-O`): `App::update`
//! driven by keys, file outcomes and canned answers. The file is read, a document named after it
//! (or after the title a Mermaid front matter gives) is created, the file laid out into it, and
//! it opens with the map shown; a refused file shows the server's message, deletes the new
//! document again and keeps the prompt.

use std::path::PathBuf;

use diagtui_model::DocSummary;
use diagtui_tui::transfer::{FileError, FileFor, FileJob};
use diagtui_tui::{Answer, Effect, Msg, Request, RequestId};

use crate::harness::*;

const CSV: &str = "id,type,componentType,connections\nweb,component,generic.server,db\ndb,component,database.mysql,\n";
const FOLDER: &str = "f0000000-0000-4000-8000-000000000001";

/// The new-document prompt switched to a file, `path` typed and submitted: the file job it asks.
fn submit_file(h: &mut Harness, path: &str) -> (FileFor, FileJob) {
    h.press("n");
    h.press("C-o");
    h.type_text(path);
    let effects = h.press("Enter");
    let found = effects.into_iter().find_map(|e| match e {
        Effect::File(what, job) => Some((what, job)),
        _ => None,
    });
    found.expect("the file is read")
}

/// The file read as `text`, the document created as `new-doc`: the create-diagram request and
/// its id.
fn created(h: &mut Harness, path: &str, text: &str) -> (RequestId, Request) {
    let (what, job) = submit_file(h, path);
    h.send(Msg::File(what, job, Ok(text.into())));
    h.answer(
        |r| matches!(r, Request::CreateDoc { .. }),
        Ok(Answer::Created("new-doc".into())),
    );
    h.take_request(|r| matches!(r, Request::CreateDiagram { .. }))
}

#[test]
fn the_new_document_prompt_offers_a_file() {
    let mut h = Harness::loaded();
    h.press("n");
    assert!(
        h.overlay_text("New document")
            .contains("Ctrl-O: from a file (CSV, JSON, Mermaid, DOT)"),
        "{}",
        h.screen()
    );
    h.press("C-o");
    let text = h.overlay_text("New document from a file");
    assert!(
        text.contains("File of entries: CSV, JSON, Mermaid or DOT (by extension,"),
        "{text}"
    );
    // Other prompts do not offer it.
    h.press("Esc r C-o");
    assert!(h.overlay_text("New document from a file").is_empty());
}

#[test]
fn a_mermaid_file_with_a_title_names_the_document_after_it() {
    let mut h = Harness::loaded();
    let (what, job) = submit_file(&mut h, "/plans/arch.mmd");
    let text = "---\ntitle: Shop checkout\n---\nflowchart LR\n  a --> b\n";
    h.send(Msg::File(what, job, Ok(text.into())));
    let (_, create) = h.take_request(|r| matches!(r, Request::CreateDoc { .. }));
    assert_eq!(
        create,
        Request::CreateDoc {
            title: "Shop checkout".into(),
            folder: Some(FOLDER.into())
        }
    );
}

#[test]
fn a_file_makes_a_document_named_after_it_opened_on_its_map() {
    let mut h = Harness::loaded();
    let (what, job) = submit_file(&mut h, "/plans/services.csv");
    assert_eq!(
        what,
        FileFor::Diagram {
            folder: Some(FOLDER.into())
        }
    );
    assert_eq!(job, FileJob::Read(PathBuf::from("/plans/services.csv")));
    h.send(Msg::File(what, job, Ok(CSV.into())));
    let (id, create) = h.take_request(|r| matches!(r, Request::CreateDoc { .. }));
    assert_eq!(
        create,
        Request::CreateDoc {
            title: "services".into(),
            folder: Some(FOLDER.into())
        }
    );
    h.reply(id, Ok(Answer::Created("new-doc".into())));
    let (id, diagram) = h.take_request(|r| matches!(r, Request::CreateDiagram { .. }));
    assert_eq!(
        diagram,
        Request::CreateDiagram {
            doc: "new-doc".into(),
            content_type: "text/csv".into(),
            body: CSV.into()
        }
    );
    h.reply(id, Ok(Answer::DiagramCreated(3, Vec::new())));
    assert!(
        h.status()
            .contains("made \"services\" from /plans/services.csv: 3 objects laid out"),
        "{}",
        h.status()
    );
    assert!(h.asked(|r| *r
        == Request::Content {
            doc: "new-doc".into()
        }));
    assert!(h.asked(|r| matches!(r, Request::ListDocs)));
    assert_eq!(h.focused(), "Map");
    // Once the list has it, the cursor is on the new document, as after `n`.
    let mut listed = docs();
    listed.push(DocSummary {
        id: "new-doc".into(),
        title: "services".into(),
    });
    h.answer(|r| matches!(r, Request::ListDocs), Ok(Answer::Docs(listed)));
    h.press("1");
    assert_eq!(h.selected(), "● services", "the open document, selected");
}

#[test]
fn what_the_server_drew_otherwise_is_said_with_its_lines() {
    let mut h = Harness::loaded();
    let (id, _) = created(&mut h, "/plans/flow.mmd", "flowchart LR\n  a o--o b\n");
    h.reply(
        id,
        Ok(Answer::DiagramCreated(
            3,
            vec!["line 2: circle ends drawn as plain ends".into()],
        )),
    );
    h.press("L");
    let log = h.overlay_text("Request log");
    assert!(
        log.contains(
            "3 objects laid out; 1 drawn otherwise: line 2: circle ends drawn as plain ends"
        ),
        "{log}"
    );
}

#[test]
fn the_kind_of_file_comes_from_its_extension_else_its_content() {
    let mut h = Harness::loaded();
    let (_, mermaid) = created(&mut h, "/plans/flow", "%% ours\nflowchart LR\n  a --> b\n");
    assert!(
        matches!(&mermaid, Request::CreateDiagram { content_type, .. } if content_type == "text/vnd.mermaid"),
        "{mermaid:?}"
    );
    let mut h = Harness::loaded();
    let (_, json) = created(&mut h, "/plans/d.json", "{}");
    assert!(
        matches!(&json, Request::CreateDiagram { content_type, .. } if content_type == "application/json")
    );
    let mut h = Harness::loaded();
    let (_, dot) = created(&mut h, "/plans/infra.gv", "digraph { a -> b }\n");
    assert!(
        matches!(&dot, Request::CreateDiagram { content_type, .. } if content_type == "text/vnd.graphviz"),
        "{dot:?}"
    );
}

#[test]
fn a_refused_file_shows_the_servers_message_keeps_the_prompt_and_leaves_nothing() {
    let mut h = Harness::loaded();
    let (id, _) = created(&mut h, "/plans/flow.mmd", "flowchart LR\n  a -->\n");
    h.reply(
        id,
        Err(failure(
            Some(400),
            Some("VALIDATION_ERROR"),
            // As the worker words a client error: the status and code come first.
            "HTTP 400 VALIDATION_ERROR: line 2: an edge needs a node on each side",
        )),
    );
    assert!(h.asked(|r| *r
        == Request::DeleteDoc {
            doc: "new-doc".into()
        }));
    let prompt = h.overlay_text("New document from a file");
    assert!(
        prompt.contains("/plans/flow.mmd"),
        "the path is kept: {prompt}"
    );
    let screen = h.render(400, 60);
    assert!(
        screen.contains(
            "flow.mmd was refused: HTTP 400 VALIDATION_ERROR: line 2: an edge needs a node on each side (POST /api/v1/create-diagram/new-doc)"
        ),
        "{screen}"
    );
    // At 80×24 the code shows once and the line number before anything is cut.
    let screen = h.render(80, 24);
    let bar: String = screen
        .lines()
        .skip(21)
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(bar.matches("VALIDATION_ERROR").count(), 1, "{screen}");
    assert!(bar.contains("line 2:"), "{screen}");
}

#[test]
fn a_file_that_cannot_be_read_keeps_the_prompt() {
    let mut h = Harness::loaded();
    let (what, job) = submit_file(&mut h, "/nowhere/x.csv");
    h.send(Msg::File(
        what,
        job,
        Err(FileError::Failed("No such file or directory".into())),
    ));
    assert!(!h.asked(|r| matches!(r, Request::CreateDoc { .. })));
    assert!(
        h.overlay_text("New document from a file")
            .contains("/nowhere/x.csv")
    );
    assert!(
        h.render(400, 60)
            .contains("cannot read /nowhere/x.csv: No such file or directory")
    );
}

#[test]
fn an_empty_file_is_said_to_be_empty_and_makes_no_document() {
    let mut h = Harness::loaded();
    let (what, job) = submit_file(&mut h, "/tmp/empty.mmd");
    h.send(Msg::File(what, job, Ok("\n\n".into())));
    assert!(!h.asked(|r| matches!(r, Request::CreateDoc { .. })));
    assert!(
        h.overlay_text("New document from a file")
            .contains("/tmp/empty.mmd")
    );
    assert!(h.render(400, 60).contains("/tmp/empty.mmd: it is empty"));
}

#[test]
fn frame_of_the_prompt_for_a_file() {
    let mut h = Harness::loaded();
    h.press("n C-o");
    h.type_text("services.csv");
    insta::assert_snapshot!(h.render(100, 24));
}
