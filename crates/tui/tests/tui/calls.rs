//! Every call the TUI makes (`requests::api`), through the real worker against the real
//! server: each success answers what its typed call takes, so no reply of the app meets an
//! answer it cannot take (one would fail with `Failure::unexpected`).

use diagtui_client::Client;
use diagtui_model::{Content, Props, Selector};
use diagtui_testkit_server::Local;
use diagtui_tui::requests::api::{self, Call};
use diagtui_tui::runtime::worker;
use serde_json::json;

/// What `call` answers through the worker, taken as its type.
async fn taken<A: 'static>(client: &Client, call: Call<A>) -> A {
    let (request, take) = call.into_parts();
    let named = format!("{request:?}");
    let reply = worker::reply(client, 1, request).await;
    let answer = (reply.outcome).unwrap_or_else(|failure| panic!("{named}: {}", failure.message));
    take(answer).unwrap_or_else(|| panic!("{named}: answered what another call answers"))
}

fn props(value: serde_json::Value) -> Props {
    serde_json::from_value(value).expect("properties")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_call_answers_what_its_type_says() {
    let local = Local::start().await;
    let c = &local.client;
    let me = taken(c, api::who_am_i()).await;
    let doc = taken(c, api::list_docs()).await[0].id.clone();
    taken(c, api::folders()).await;
    taken(c, api::details(doc.clone())).await;
    taken(c, api::embeds(doc.clone())).await;
    taken(c, api::content(doc.clone())).await;

    let meta = props(json!({"meta": {"owner": "ops"}}));
    let kind = "component".to_owned();
    let server = props(json!({"componentId": "generic.server"}));
    let obj = taken(c, api::create_object(doc.clone(), kind, server)).await;
    taken(c, api::get_object(doc.clone(), obj.clone())).await;
    let objs = vec![obj.clone(), "gone".to_owned()];
    let fresh = taken(c, api::get_objects(doc.clone(), objs)).await;
    assert_eq!(fresh.len(), 2);
    let update = api::update_object(doc.clone(), obj.clone(), meta.clone(), None);
    assert!(
        taken(c, update).await.is_some(),
        "our server gives versions"
    );
    let owned = Selector::parse(r#"["owner","eq","ops"]"#).unwrap();
    taken(c, api::objects_where(doc.clone(), owned.clone())).await;
    taken(c, api::update_where(doc.clone(), owned, meta.clone(), None)).await;
    let objects = [(obj.clone(), meta)].into();
    taken(c, api::bulk_update(doc.clone(), objects, None)).await;

    let page = taken(c, api::history(doc.clone(), None, 10)).await;
    let version = page.versions.last().expect("versions").version;
    taken(c, api::object_history(doc.clone(), obj.clone())).await;
    taken(c, api::version(doc.clone(), version)).await;
    taken(c, api::diff_since(doc.clone(), version)).await;
    taken(c, api::content_at(doc.clone(), version)).await;
    taken(c, api::delete_object(doc.clone(), obj, None)).await;
    taken(c, api::set_content(doc.clone(), Content::new(), None)).await;
    taken(c, api::restore(doc.clone(), version, None)).await;

    let new = taken(c, api::create_doc("Calls".into(), None)).await;
    taken(c, api::rename_doc(new.clone(), "Calls again".into())).await;
    let copy = taken(c, api::clone_doc(new.clone(), "Copy".into())).await;
    taken(c, api::share_doc(new.clone(), me.email)).await;
    let flow = "flowchart LR\n  a --> b\n".to_owned();
    let mermaid = "text/vnd.mermaid".to_owned();
    let (laid_out, _) = taken(c, api::create_diagram(new.clone(), mermaid, flow)).await;
    assert!(laid_out > 0);
    taken(c, api::empty_doc(new.clone())).await;
    let folder = taken(c, api::create_folder("Calls".into())).await;
    taken(c, api::move_doc(new, folder.clone())).await;
    taken(c, api::rename_folder(folder.clone(), "Calls again".into())).await;
    taken(c, api::delete_doc(copy)).await;
    taken(c, api::delete_folder(folder)).await;
}
