//! Comparing two kinds of server under the same load: runs interleaved, then head to head.

use std::path::Path;

use diagtui_testkit::wrk::Wrk;

use super::{LOAD, Target, median};

/// One side of a comparison: a server and the wrk script it is loaded with.
#[derive(Clone, Copy)]
pub(super) struct Side<'a> {
    pub name: &'static str,
    pub target: &'a Target,
    pub script: Option<&'a Path>,
}

impl Side<'_> {
    /// One wrk run on this side: its rate and the server's CPU per request in µs.
    fn measure(&self) -> (f64, f64) {
        self.target.measure(self.script)
    }
}

/// Runs two sides interleaved (A B A B, the first of each round alternating) for `rounds`
/// rounds, then as many rounds head to head; prints every run and the ratios b/a of the rates
/// and of the CPU per request (medians of the rounds). Each side may be several servers of one
/// kind: round k runs the k-th pair of `pairs` (in turn), so that what tells one process from
/// another of the same build (where its memory lies, its hash seeds) weighs on both sides
/// alike; two identical servers read 0.984 against each other in one run of nine rounds.
pub(super) fn compare(label: &str, pairs: &[(Side<'_>, Side<'_>)], rounds: usize) {
    let (a, b) = pairs[0];
    let (mut rates, mut cpus) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
    for round in 1..=rounds {
        let (a, b) = pairs[(round - 1) % pairs.len()];
        let order = if round % 2 == 1 { [a, b] } else { [b, a] };
        for side in order {
            let (rate, cpu) = side.measure();
            let is_b = side.name == b.name;
            let (r, c) = if is_b {
                (&mut rates.1, &mut cpus.1)
            } else {
                (&mut rates.0, &mut cpus.0)
            };
            r.push(rate);
            c.push(cpu);
            println!(
                "  round {round} {label:<18} {:<9} {rate:>9.0}/s  {cpu:>6.1} µs CPU per request",
                side.name
            );
        }
    }
    let ratio =
        |bs: &[f64], as_: &[f64]| -> Vec<f64> { bs.iter().zip(as_).map(|(b, a)| b / a).collect() };
    let ratios = ratio(&rates.1, &rates.0);
    let cpu_ratios = ratio(&cpus.1, &cpus.0);
    println!(
        "{label:<18} {} {:>9.0}/s  {} {:>9.0}/s  {}/{}: rate {:.3} (median of rounds; \
         {:.3}-{:.3}), CPU per request {:.3} ({:.1} against {:.1} µs)",
        a.name,
        median(rates.0.clone()),
        b.name,
        median(rates.1.clone()),
        b.name,
        a.name,
        median(ratios.clone()),
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(0.0, f64::max),
        median(cpu_ratios),
        median(cpus.1),
        median(cpus.0),
    );
    let together = head_to_head(pairs, rounds);
    println!(
        "{label:<18} head to head: {}/{} {:.3} (median of {rounds}; {:.3}-{:.3})",
        b.name,
        a.name,
        median(together.clone()),
        together.iter().copied().fold(f64::INFINITY, f64::min),
        together.iter().copied().fold(0.0, f64::max),
    );
}

/// Both sides loaded at once, half the connections each, `rounds` times, round k on the k-th
/// pair (in turn): they share the server core, so that other work on the machine slows both
/// alike and the ratio of their rates is the inverse of their costs' (the wrk started first
/// alternates). The ratios b/a.
fn head_to_head(pairs: &[(Side<'_>, Side<'_>)], rounds: usize) -> Vec<f64> {
    let half = Wrk {
        connections: LOAD.connections / 2,
        ..LOAD
    };
    (0..rounds)
        .map(|round| {
            let (a, b) = pairs[round % pairs.len()];
            let (first, second) = if round % 2 == 0 { (a, b) } else { (b, a) };
            let run = |side: Side<'_>| half.run(&side.target.object, &side.target.key, side.script);
            let (x, y) = std::thread::scope(|s| {
                let x = s.spawn(|| run(first));
                let y = s.spawn(|| run(second));
                (x.join().expect("wrk"), y.join().expect("wrk"))
            });
            let (a_rate, b_rate) = if round % 2 == 0 {
                (x.rate, y.rate)
            } else {
                (y.rate, x.rate)
            };
            println!(
                "  head to head {round}: {} {a_rate:>9.0}/s  {} {b_rate:>9.0}/s",
                a.name, b.name
            );
            b_rate / a_rate
        })
        .collect()
}
