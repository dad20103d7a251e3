//! The documents pane's embeds: the selected document's, in its details (live first, at most
//! three lines), and `y` copying their URLs in turn (OSC 52).

use diagtui_model::embeds::{Embed, EmbedKind, EmbedList};
use diagtui_tui::{Answer, Effect, Failure, Request};
use insta::assert_snapshot;

use crate::harness::*;

/// `count` embeds of a document: the live one, then static ones.
fn embeds(doc: &str, count: usize) -> EmbedList {
    let embeds = (0..count)
        .map(|at| {
            let (kind, id, url) = if at == 0 {
                let url = format!("http://x/live/{}", &doc[..4]);
                (EmbedKind::Live, doc.to_owned(), url)
            } else {
                let id = format!("e{at}");
                (
                    EmbedKind::Static,
                    id.clone(),
                    format!("http://x/static/{id}"),
                )
            };
            Embed {
                kind,
                id,
                title: None,
                created: "2026-11-27T10:00:00.000Z".into(),
                url,
            }
        })
        .collect();
    EmbedList {
        success: true,
        embeds,
    }
}

/// Whether a request asks for a document's embeds.
fn is_embeds(request: &Request) -> bool {
    matches!(request, Request::Embeds { .. })
}

/// An app with the documents loaded, the first one's embeds answered with `list`.
fn loaded_with(list: EmbedList) -> Harness {
    let mut h = Harness::new();
    h.answer(|r| r == &Request::ListDocs, Ok(Answer::Docs(docs())));
    assert!(h.asked(|r| r == &Request::Embeds { doc: DOC_A.into() }));
    h.answer(is_embeds, Ok(Answer::Embeds(list)));
    h.answer_all();
    h
}

/// The URLs a key press copied.
fn copied(effects: Vec<Effect>) -> Vec<String> {
    effects
        .into_iter()
        .filter_map(|effect| match effect {
            Effect::Copy(text) => Some(text),
            _ => None,
        })
        .collect()
}

#[test]
fn the_details_show_the_embeds_and_y_copies_their_urls_in_turn() {
    let mut h = loaded_with(embeds(DOC_A, 2));
    let live = "http://x/live/1111";
    h.expect(&format!("embeds  live   {live}"));
    h.expect("        static http://x/static/e1");
    assert_eq!(copied(h.press("y")), [live]);
    assert!(
        h.status().contains(
            "copied the URL of the live embed of \"Network overview\" (1 of 2); y copies the next"
        ),
        "{}",
        h.status()
    );
    assert_eq!(copied(h.press("y")), ["http://x/static/e1"]);
    assert_eq!(copied(h.press("y")), [live], "back to the first");
}

#[test]
fn another_document_shows_its_own_embeds_or_none() {
    let mut h = loaded_with(embeds(DOC_A, 1));
    h.expect("embeds  live");
    h.press("j");
    assert!(!h.shows("embeds  live"), "the first document's embeds went");
    let (id, _) = h.take_request(|r| r == &Request::Embeds { doc: DOC_B.into() });
    h.reply(id, Ok(Answer::Embeds(embeds(DOC_B, 0))));
    h.answer_all();
    assert!(!h.shows("embeds  "));
    assert!(copied(h.press("y")).is_empty());
    assert!(
        h.status().contains("\"Production cluster\" has no embeds"),
        "{}",
        h.status()
    );

    // A server that serves no embeds: none are shown, the details are (past the heading).
    h.press("j j");
    let failure = Failure {
        status: Some(404),
        code: Some(diagtui_model::ErrorCode::NotFound),
        message: "no such route".into(),
        stale: None,
    };
    h.answer(is_embeds, Err(failure));
    h.answer_all();
    assert!(!h.shows("embeds  "));
    assert!(h.shows("owner"), "the details are shown");
}

#[test]
fn many_embeds_fit_in_three_lines() {
    let mut h = loaded_with(embeds(DOC_A, 4));
    assert_snapshot!(h.render(100, 24));
}
