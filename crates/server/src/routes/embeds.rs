//! Embed routes (the hosted service's three, plus our list, rotate-live and disable-live; see
//! `docs/embeds.md`): static embeds freeze a document's content at a URL of their own; a live
//! embed makes the document public at a URL that carries its key. Only a document's owner
//! creates or changes its embeds; anyone who may see the document lists them. The pages
//! themselves are served by [`embed_pages`](super::embed_pages).

use axum::Json;
use axum::extract::State;

use super::OK;
use super::embed_pages::{live_url, static_url};
use super::schemas::{BodyErrors, Errors};
use crate::error::ApiError;
use crate::extract::{Body, Ids};
use crate::state::AppState;
use diagtui_model::embeds::{
    CreateStaticEmbedRequest, Embed, EmbedIdRequest, EmbedKind, EmbedList, LiveEmbedKey,
    StaticEmbedCreated,
};
use diagtui_model::{DocIdRequest, ErrorBody, Success};
use diagtui_store::Account;
use diagtui_store::embeds::StoredEmbed;

/// `POST /api/v1/embed/create-static`: a frozen copy of the document now, at a page of its own.
#[utoipa::path(post, operation_id = "createStaticEmbed", path = "/api/v1/embed/create-static", tag = "embeds",
    request_body = CreateStaticEmbedRequest,
    responses(
        (status = 200, description = "Made; its page is at url", body = StaticEmbedCreated),
        (status = 403, description = "FORBIDDEN: only the document's owner may publish it", body = ErrorBody),
        Errors, BodyErrors))]
pub async fn create_static(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<CreateStaticEmbedRequest>,
) -> Result<Json<StaticEmbedCreated>, ApiError> {
    let embed = s
        .store
        .create_static_embed(&me, &req.doc_id, req.title.as_deref())
        .await?;
    Ok(Json(StaticEmbedCreated {
        success: true,
        url: static_url(&s.public_url, &embed.id),
        id: embed.id,
    }))
}

/// `POST /api/v1/embed/delete-static`: its page answers 404 from now on.
#[utoipa::path(post, operation_id = "deleteStaticEmbed", path = "/api/v1/embed/delete-static", tag = "embeds",
    request_body = EmbedIdRequest,
    responses(
        (status = 200, description = "Deleted", body = Success),
        (status = 403, description = "FORBIDDEN: only the document's owner may delete its embeds", body = ErrorBody),
        Errors, BodyErrors))]
pub async fn delete_static(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<EmbedIdRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store.delete_static_embed(&me, &req.id).await?;
    Ok(OK)
}

/// `POST /api/v1/embed/enable-live`: the document's live embed, made now or the one it has
/// (calling it again answers the same key).
#[utoipa::path(post, operation_id = "enableLiveEmbed", path = "/api/v1/embed/enable-live", tag = "embeds",
    request_body = DocIdRequest,
    responses(
        (status = 200, description = "The live embed's key and page", body = LiveEmbedKey),
        (status = 403, description = "FORBIDDEN: only the document's owner may publish it", body = ErrorBody),
        Errors, BodyErrors))]
pub async fn enable_live(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocIdRequest>,
) -> Result<Json<LiveEmbedKey>, ApiError> {
    let embed = s.store.enable_live_embed(&me, &req.doc_id).await?;
    Ok(Json(live_key(&s, &embed)))
}

/// `POST /api/v1/embed/rotate-live`: a new key for the document's live embed; pages open with
/// the old one stop following the document.
#[utoipa::path(post, operation_id = "rotateLiveEmbed", path = "/api/v1/embed/rotate-live", tag = "embeds",
    extensions(("x-diagtui-extension" = json!(true))),
    request_body = DocIdRequest,
    responses(
        (status = 200, description = "The new key and page", body = LiveEmbedKey),
        (status = 403, description = "FORBIDDEN: only the document's owner may change its embeds", body = ErrorBody),
        Errors, BodyErrors))]
pub async fn rotate_live(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocIdRequest>,
) -> Result<Json<LiveEmbedKey>, ApiError> {
    let embed = s.store.rotate_live_embed(&me, &req.doc_id).await?;
    Ok(Json(live_key(&s, &embed)))
}

/// `POST /api/v1/embed/disable-live`: the document's live embed turned off; its page answers
/// 404 and open pages stop following the document.
#[utoipa::path(post, operation_id = "disableLiveEmbed", path = "/api/v1/embed/disable-live", tag = "embeds",
    extensions(("x-diagtui-extension" = json!(true))),
    request_body = DocIdRequest,
    responses(
        (status = 200, description = "Turned off", body = Success),
        (status = 403, description = "FORBIDDEN: only the document's owner may change its embeds", body = ErrorBody),
        Errors, BodyErrors))]
pub async fn disable_live(
    State(s): State<AppState>,
    me: Account,
    Body(req): Body<DocIdRequest>,
) -> Result<Json<Success>, ApiError> {
    s.store.disable_live_embed(&me, &req.doc_id).await?;
    Ok(OK)
}

/// `GET /api/v1/embed/list/{docId}`: the document's embeds, the live one first.
#[utoipa::path(get, operation_id = "listEmbeds", path = "/api/v1/embed/list/{docId}", tag = "embeds",
    extensions(("x-diagtui-extension" = json!(true))),
    params(("docId" = String, Path, description = "The document id")),
    responses((status = 200, description = "The embeds", body = EmbedList), Errors))]
pub async fn list(
    State(s): State<AppState>,
    me: Account,
    Ids(doc_id): Ids<String>,
) -> Result<Json<EmbedList>, ApiError> {
    let embeds = s.store.embeds(&me, &doc_id).await?;
    Ok(Json(EmbedList {
        success: true,
        embeds: embeds.iter().map(|e| shown(&s, e)).collect(),
    }))
}

/// A live embed's key and page.
fn live_key(s: &AppState, embed: &StoredEmbed) -> LiveEmbedKey {
    let key = embed.key.clone().unwrap_or_default();
    LiveEmbedKey {
        success: true,
        url: live_url(&s.public_url, &embed.doc_id, &key),
        key,
    }
}

/// An embed as the list shows it.
fn shown(s: &AppState, embed: &StoredEmbed) -> Embed {
    let (kind, id, url) = if embed.live {
        let key = embed.key.as_deref().unwrap_or_default();
        let url = live_url(&s.public_url, &embed.doc_id, key);
        (EmbedKind::Live, embed.doc_id.clone(), url)
    } else {
        let url = static_url(&s.public_url, &embed.id);
        (EmbedKind::Static, embed.id.clone(), url)
    };
    Embed {
        kind,
        id,
        title: embed.title.clone(),
        created: embed.created.clone(),
        url,
    }
}
