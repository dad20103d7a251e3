//! Counting and timing every request at little cost: one service around the whole router (not
//! a layer on each route, which axum boxes and clones per request), which finds the request's
//! route template itself in a tree of the templates ([`Templates`]) and records when the
//! answer's head is ready. Each template's series are made once, when the
//! table is built, so a request allocates nothing, hashes nothing and takes no lock: one match,
//! a few loads to find its counter, and three atomic additions (its counter, its latency bucket
//! and sum; see [`Latency`]). The counting lives as long as the process ([`Metrics::counting`]
//! leaks it), so a request holds a plain reference to it instead of adding to and taking from a
//! reference count that every core shares. Measured per request in BENCHMARKS.md ("Running as
//! a service").
//!
//! [`Metrics::counting`]: super::Metrics::counting

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::http::{Method, Request};
use axum::response::Response;
use pin_project_lite::pin_project;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;

use super::latency::Latency;
use super::templates::Templates;
use super::{RequestLabels, RouteLabels};

/// The route label of a request that matched no route.
const UNMATCHED: &str = "unmatched";

/// The methods and statuses a route keeps a counter of at hand; a route that answers more
/// kinds than this counts the others through the family (a lock and a hash each).
const COUNTERS_AT_HAND: usize = 16;

/// A route's counter of one method and status.
type Slot = (&'static str, u16, Counter);

/// The request series of an application's routes, and the table that finds a path's route.
#[derive(Debug)]
pub struct Counting {
    /// Requests by route template, method and status (the registered family).
    requests: Family<RequestLabels, Counter>,
    /// The route templates, each to its index in `routes`.
    table: Templates,
    /// Each template's series, and last the series of requests that matched none.
    routes: Vec<RouteSeries>,
}

/// One route template's series: its latency histogram and its counters by method and status.
#[derive(Debug)]
struct RouteSeries {
    /// The template as a label value.
    route: Arc<String>,
    /// Its latency histogram (a handle on the family's).
    latency: Latency,
    /// Its counters met so far (a handle on each of the family's), by method and status, in
    /// the order met: each slot is set once, so finding one takes loads and no lock.
    counters: [OnceLock<Slot>; COUNTERS_AT_HAND],
}

impl Counting {
    /// The series of these route templates (and of `unmatched`) in these registered families.
    pub(super) fn new(
        requests: Family<RequestLabels, Counter>,
        latency: &Family<RouteLabels, Latency>,
        templates: &[&str],
    ) -> Counting {
        let mut table = Templates::default();
        let mut routes = Vec::with_capacity(templates.len() + 1);
        for template in templates.iter().copied().chain([UNMATCHED]) {
            if template != UNMATCHED {
                table.insert(template, routes.len());
            }
            let route = Arc::new(template.to_owned());
            let latency = latency
                .get_or_create(&RouteLabels {
                    route: Arc::clone(&route),
                })
                .clone();
            routes.push(RouteSeries {
                route,
                latency,
                counters: Default::default(),
            });
        }
        Counting {
            requests,
            table,
            routes,
        }
    }

    /// The index of the series of the route this path matches (else of `unmatched`).
    fn route_of(&self, path: &str) -> usize {
        self.table.route_of(path).unwrap_or(self.routes.len() - 1)
    }

    /// Counts an answered request of the route at `route` and observes its time.
    fn record(&self, route: usize, method: &'static str, status: u16, took: Duration) {
        let series = &self.routes[route];
        series.latency.observe(took);
        series.count(&self.requests, method, status);
    }
}

impl RouteSeries {
    /// Counts a request of this route with this method and status: in its slot, the first
    /// free one taken when this method and status are new (by whichever request sets it
    /// first), else through the family when every slot is taken.
    fn count(&self, family: &Family<RequestLabels, Counter>, method: &'static str, status: u16) {
        let labels = |(m, s, _): &Slot| *m == method && *s == status;
        for slot in &self.counters {
            let (_, _, counter) = match slot.get() {
                Some(found) if labels(found) => found,
                Some(_) => continue,
                None => {
                    let made =
                        slot.get_or_init(|| (method, status, self.counter(family, method, status)));
                    if !labels(made) {
                        continue;
                    }
                    made
                }
            };
            counter.inc();
            return;
        }
        self.counter(family, method, status).inc();
    }

    /// This route's counter of this method and status in the family (made when new).
    fn counter(
        &self,
        family: &Family<RequestLabels, Counter>,
        method: &'static str,
        status: u16,
    ) -> Counter {
        family
            .get_or_create(&RequestLabels {
                route: Arc::clone(&self.route),
                method,
                status,
            })
            .clone()
    }
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

/// A service whose requests are counted and timed when the metrics are on (else passed
/// through as they are).
#[derive(Clone)]
pub struct Count<S> {
    inner: S,
    counting: Option<&'static Counting>,
}

impl<S> Count<S> {
    /// `inner`, counted into `counting` when there is one.
    pub fn new(inner: S, counting: Option<&'static Counting>) -> Count<S> {
        Count { inner, counting }
    }
}

impl<S, B> tower::Service<Request<B>> for Count<S>
where
    S: tower::Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Counted<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Counted<S::Future> {
        let tally = self.counting.map(|counting| Tally {
            route: counting.route_of(request.uri().path()),
            method: method_label(request.method()),
            counting,
            started: Instant::now(),
        });
        Counted {
            inner: self.inner.call(request),
            tally,
        }
    }
}

/// What a counted request records when answered.
struct Tally {
    counting: &'static Counting,
    route: usize,
    method: &'static str,
    started: Instant,
}

pin_project! {
    /// A request's answer on its way, recorded when its head is ready.
    pub struct Counted<F> {
        #[pin]
        inner: F,
        tally: Option<Tally>,
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
        if let (Ok(response), Some(tally)) = (&answer, this.tally.take()) {
            let took = tally.started.elapsed();
            tally
                .counting
                .record(tally.route, tally.method, response.status().as_u16(), took);
        }
        Poll::Ready(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_counted_under_the_template_it_matches_else_unmatched() {
        let latency = Family::<RouteLabels, Latency>::default();
        let counting = Counting::new(
            Family::default(),
            &latency,
            &[
                "/api/v1/doc/{doc_id}/obj/{obj_id}",
                "/api/v1/doc/{doc_id}/obj/where/{*selector}",
            ],
        );
        let route = |path: &str| {
            counting.routes[counting.route_of(path)]
                .route
                .as_str()
                .to_owned()
        };
        assert_eq!(
            route("/api/v1/doc/d1/obj/o1"),
            "/api/v1/doc/{doc_id}/obj/{obj_id}"
        );
        assert_eq!(
            route("/api/v1/doc/d1/obj/where/%5B%22a%22/b"),
            "/api/v1/doc/{doc_id}/obj/where/{*selector}"
        );
        assert_eq!(route("/api/v1/nothing"), UNMATCHED);
        let took = Duration::from_millis(5);
        counting.record(counting.route_of("/api/v1/doc/d/obj/o"), "GET", 200, took);
        counting.record(counting.route_of("/api/v1/doc/d/obj/o"), "GET", 200, took);
        let counter = counting.requests.get_or_create(&RequestLabels {
            route: Arc::clone(&counting.routes[0].route),
            method: "GET",
            status: 200,
        });
        assert_eq!(counter.get(), 2);
        assert_eq!(method_label(&Method::from_bytes(b"BREW").unwrap()), "other");
    }

    #[test]
    fn statuses_past_the_counters_at_hand_are_counted_through_the_family() {
        let latency = Family::<RouteLabels, Latency>::default();
        let counting = Counting::new(Family::default(), &latency, &["/a"]);
        let route = counting.route_of("/a");
        let statuses: Vec<u16> = (200..200 + 2 * COUNTERS_AT_HAND as u16).collect();
        let took = Duration::from_millis(1);
        for round in 1..=3 {
            for &status in &statuses {
                for _ in 0..round {
                    counting.record(route, "GET", status, took);
                }
            }
        }
        for &status in &statuses {
            let counter = counting.requests.get_or_create(&RequestLabels {
                route: Arc::clone(&counting.routes[route].route),
                method: "GET",
                status,
            });
            assert_eq!(counter.get(), 6, "status {status}");
        }
        let at_hand = &counting.routes[route].counters;
        assert!(at_hand.iter().all(|slot| slot.get().is_some()));
        assert_eq!(at_hand[0].get().map(|(_, status, _)| *status), Some(200));
    }

    #[test]
    fn requests_counted_at_once_on_several_threads_are_each_counted_once() {
        let latency = Family::<RouteLabels, Latency>::default();
        let counting = Counting::new(Family::default(), &latency, &["/a"]);
        let route = counting.route_of("/a");
        let statuses: Vec<u16> = (200..200 + COUNTERS_AT_HAND as u16 + 4).collect();
        std::thread::scope(|threads| {
            for thread in 0..4 {
                let (counting, statuses) = (&counting, &statuses);
                threads.spawn(move || {
                    for k in 0..500 {
                        let status = statuses[(k * (thread + 1)) % statuses.len()];
                        counting.record(route, "GET", status, Duration::ZERO);
                    }
                });
            }
        });
        let total: u64 = statuses
            .iter()
            .map(|&status| {
                let labels = RequestLabels {
                    route: Arc::clone(&counting.routes[route].route),
                    method: "GET",
                    status,
                };
                counting.requests.get_or_create(&labels).get()
            })
            .sum();
        assert_eq!(total, 4 * 500);
    }
}
