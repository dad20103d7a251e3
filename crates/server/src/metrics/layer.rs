//! Counting and timing every request without adding work to its path: a tower layer around each
//! route (no boxed future, no clone of the inner service), whose future records when the answer's
//! head is ready. Each route template's series are looked up once and kept ([`RouteSeries`]),
//! so a request costs two uncontended read locks, an atomic add and a histogram observation, and
//! allocates nothing after its route's first request.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::Method;
use axum::response::Response;
use pin_project_lite::pin_project;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;

use super::{RequestLabels, RouteLabels};

/// The route label of a request that matched no route.
const UNMATCHED: &str = "unmatched";

/// The request series, by route template, kept for the requests to come.
#[derive(Debug)]
pub(super) struct RequestSeries {
    /// Requests by route template, method and status (the registered family).
    requests: Family<RequestLabels, Counter>,
    /// Latency by route template (the registered family).
    latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    /// Each route template's series, made on its first request.
    routes: RwLock<HashMap<Arc<str>, Arc<RouteSeries>>>,
}

/// One route template's series: its latency histogram and its counters by method and status.
#[derive(Debug)]
struct RouteSeries {
    /// The template as a label value.
    route: Arc<String>,
    /// Its latency histogram (a handle on the family's).
    latency: Histogram,
    /// Its counters met so far (a handle on each of the family's), by method and status.
    counters: RwLock<Vec<(&'static str, u16, Counter)>>,
}

impl RequestSeries {
    /// Series kept in these two registered families.
    pub(super) fn new(
        requests: Family<RequestLabels, Counter>,
        latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    ) -> RequestSeries {
        RequestSeries {
            requests,
            latency,
            routes: RwLock::new(HashMap::new()),
        }
    }

    /// Counts an answered request and observes its time.
    fn record(&self, route: &str, method: &'static str, status: u16, seconds: f64) {
        let series = self.route(route);
        series.latency.observe(seconds);
        series.counter(&self.requests, method, status).inc();
    }

    /// The series of one route template, made on its first request.
    fn route(&self, route: &str) -> Arc<RouteSeries> {
        if let Some(series) = read(&self.routes).get(route) {
            return Arc::clone(series);
        }
        let mut routes = self.routes.write().unwrap_or_else(|e| e.into_inner());
        let series = routes.entry(Arc::from(route)).or_insert_with(|| {
            let label = Arc::new(route.to_owned());
            let latency = self
                .latency
                .get_or_create(&RouteLabels {
                    route: Arc::clone(&label),
                })
                .clone();
            Arc::new(RouteSeries {
                route: label,
                latency,
                counters: RwLock::new(Vec::new()),
            })
        });
        Arc::clone(series)
    }
}

impl RouteSeries {
    /// The counter of this route's requests with this method and status.
    fn counter(
        &self,
        family: &Family<RequestLabels, Counter>,
        method: &'static str,
        status: u16,
    ) -> Counter {
        let found = |counters: &[(&'static str, u16, Counter)]| {
            counters
                .iter()
                .find(|(m, s, _)| *m == method && *s == status)
                .map(|(_, _, counter)| counter.clone())
        };
        if let Some(counter) = found(&read(&self.counters)) {
            return counter;
        }
        let mut counters = self.counters.write().unwrap_or_else(|e| e.into_inner());
        if let Some(counter) = found(&counters) {
            return counter;
        }
        let counter = family
            .get_or_create(&RequestLabels {
                route: Arc::clone(&self.route),
                method,
                status,
            })
            .clone();
        counters.push((method, status, counter.clone()));
        counter
    }
}

/// A read lock that a panic elsewhere does not poison for good.
fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|e| e.into_inner())
}

/// A method as a label: the standard ones by name, any other as `other` (bounded cardinality).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PATCH => "PATCH",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

/// The layer that counts and times the requests of the service it wraps.
#[derive(Clone)]
pub struct CountLayer {
    series: Arc<RequestSeries>,
}

impl CountLayer {
    /// A layer recording into these series.
    pub(super) fn new(series: Arc<RequestSeries>) -> CountLayer {
        CountLayer { series }
    }
}

impl<S> tower::Layer<S> for CountLayer {
    type Service = Count<S>;

    fn layer(&self, inner: S) -> Count<S> {
        Count {
            inner,
            series: Arc::clone(&self.series),
        }
    }
}

/// A service counted and timed by [`CountLayer`].
#[derive(Clone)]
pub struct Count<S> {
    inner: S,
    series: Arc<RequestSeries>,
}

impl<S> tower::Service<Request> for Count<S>
where
    S: tower::Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Counted<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Counted<S::Future> {
        let route = request.extensions().get::<MatchedPath>().cloned();
        let method = method_label(request.method());
        Counted {
            inner: self.inner.call(request),
            series: Arc::clone(&self.series),
            route,
            method,
            started: Instant::now(),
        }
    }
}

pin_project! {
    /// A request's answer on its way, recorded when its head is ready.
    pub struct Counted<F> {
        #[pin]
        inner: F,
        series: Arc<RequestSeries>,
        route: Option<MatchedPath>,
        method: &'static str,
        started: Instant,
    }
}

impl<F, E> Future for Counted<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let answer = std::task::ready!(this.inner.poll(cx));
        if let Ok(response) = &answer {
            let route = this.route.as_ref().map_or(UNMATCHED, MatchedPath::as_str);
            let seconds = this.started.elapsed().as_secs_f64();
            this.series
                .record(route, this.method, response.status().as_u16(), seconds);
        }
        Poll::Ready(answer)
    }
}
