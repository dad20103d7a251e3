//! One log line per request, at `info`: method, route template, request id, status, latency
//! and the account (filled in once the key is checked). Never the key: the path logged is the route
//! template (or, for an unknown route, the path without its query), so `?key=` never shows.

use std::time::Duration;

use axum::extract::{MatchedPath, Request};
use axum::http::Response;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{MakeSpan, OnResponse, TraceLayer};
use tracing::Span;

/// Whether request lines would be logged: the layer is left out otherwise, costing nothing.
pub fn enabled() -> bool {
    tracing::enabled!(tracing::Level::INFO)
}

/// The request logging layer.
pub fn layer()
-> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, RequestSpan, (), LogResponse, (), (), ()> {
    TraceLayer::new_for_http()
        .make_span_with(RequestSpan)
        .on_request(())
        .on_response(LogResponse)
        .on_body_chunk(())
        .on_eos(())
        .on_failure(())
}

/// Makes each request's span: `request{method route request_id account}`.
#[derive(Debug, Clone, Copy)]
pub struct RequestSpan;

impl<B> MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, request: &Request<B>) -> Span {
        tracing::info_span!(
            "request",
            method = %request.method(),
            route = request
                .extensions()
                .get::<MatchedPath>()
                .map_or_else(|| request.uri().path(), MatchedPath::as_str),
            request_id = request
                .headers()
                .get(&super::request_id::X_REQUEST_ID)
                .and_then(|id| id.to_str().ok())
                .unwrap_or_default(),
            account = tracing::field::Empty,
        )
    }
}

/// Logs the answer: status and latency.
#[derive(Debug, Clone, Copy)]
pub struct LogResponse;

impl<B> OnResponse<B> for LogResponse {
    fn on_response(self, response: &Response<B>, latency: Duration, _span: &Span) {
        tracing::info!(
            status = response.status().as_u16(),
            latency_us = latency.as_micros() as u64,
            "answered"
        );
    }
}
