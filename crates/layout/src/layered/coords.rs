//! Coordinates across the flow: each node as near as its neighbours' weighted mean as the
//! order and the gaps allow. Sweeps down and up set each layer at once: with the order fixed,
//! the positions nearest the wanted ones (least weighted squares) are found exactly by pooling
//! neighbours that push into each other (pool adjacent violators). Long edges' inner pieces
//! weigh most, so they run straight; a node between several neighbours sits at their centre.

use super::order::Proper;

/// Sweeps down and up.
const SWEEPS: usize = 8;
/// The weight that holds a node with no neighbour on the swept side where it is.
const STAY: f64 = 0.05;

/// The weight that holds a layer inside a bound.
const PIN: f64 = 1e9;

/// The centre of each node across the flow, for nodes `breadth` wide, neighbours in a layer
/// `gap(a, b)` apart; with a `bound`, every layer is held between −bound/2 and bound/2 where
/// it fits.
pub(crate) fn across(
    p: &Proper,
    breadth: &[f64],
    gap: impl Fn(usize, usize) -> f64,
    bound: Option<f64>,
) -> Vec<f64> {
    let mut x = vec![0f64; p.layer_of.len()];
    for layer in &p.layers {
        let mut at = 0.0;
        for (i, &v) in layer.iter().enumerate() {
            if i > 0 {
                at += gap(layer[i - 1], v);
            }
            x[v] = at + breadth[v] / 2.0;
            at += breadth[v];
        }
        let shift = at / 2.0;
        for &v in layer {
            x[v] -= shift;
        }
    }
    let count = p.layers.len();
    // Each layer's wanted places (place, weight) and least distances, the buffers kept.
    let (mut wanted, mut seps): (Vec<(f64, f64)>, Vec<f64>) = (Vec::new(), Vec::new());
    for sweep in 0..SWEEPS + 2 {
        let both = sweep >= SWEEPS;
        let down = sweep % 2 == 0;
        let order: Vec<usize> = if down {
            (0..count).collect()
        } else {
            (0..count).rev().collect()
        };
        for l in order {
            let layer = &p.layers[l];
            // With a bound, pins at its two ends, heavy enough to hold the layer inside.
            let pinned = bound.filter(|_| !layer.is_empty());
            wanted.clear();
            seps.clear();
            if let Some(b) = pinned {
                wanted.push((-b / 2.0, PIN));
                seps.push(breadth[layer[0]] / 2.0);
            }
            wanted.extend(layer.iter().map(|&v| {
                let sides: [&Vec<(usize, f64)>; 2] = [&p.up[v], &p.down[v]];
                let (mut sum, mut weight) = (0.0, 0.0);
                for (s, side) in sides.iter().enumerate() {
                    if !both && (s == 0) != down {
                        continue;
                    }
                    for &(w, wt) in side.iter() {
                        sum += wt * x[w];
                        weight += wt;
                    }
                }
                if weight == 0.0 {
                    (x[v], STAY)
                } else {
                    (sum / weight, weight)
                }
            }));
            seps.extend(
                (layer.windows(2)).map(|w| (breadth[w[0]] + breadth[w[1]]) / 2.0 + gap(w[0], w[1])),
            );
            if let Some(b) = pinned {
                wanted.push((b / 2.0, PIN));
                seps.push(breadth[layer[layer.len() - 1]] / 2.0);
            }
            let placed = nearest_in_order(&wanted, &seps);
            let skip = usize::from(pinned.is_some());
            for (&v, &xv) in layer.iter().zip(&placed[skip..]) {
                x[v] = xv;
            }
        }
    }
    straighten(p, &mut x, breadth, &gap);
    x
}

/// Puts each long edge's dummies on one line where their neighbours leave room: at the median
/// of their positions, else at one of theirs.
fn straighten(p: &Proper, x: &mut [f64], breadth: &[f64], gap: &impl Fn(usize, usize) -> f64) {
    let mut index = vec![0usize; x.len()];
    for layer in &p.layers {
        for (i, &v) in layer.iter().enumerate() {
            index[v] = i;
        }
    }
    for chain in &p.chains {
        if chain.len() < 2 {
            continue;
        }
        let mut candidates: Vec<f64> = chain.iter().map(|&d| x[d]).collect();
        candidates.sort_by(f64::total_cmp);
        let median = candidates[candidates.len() / 2];
        candidates.sort_by(|a, b| (a - median).abs().total_cmp(&(b - median).abs()));
        let fits = |t: f64, x: &[f64]| {
            chain.iter().all(|&d| {
                let layer = &p.layers[p.layer_of[d]];
                let i = index[d];
                let left_ok = i == 0 || {
                    let l = layer[i - 1];
                    x[l] + breadth[l] / 2.0 + gap(l, d) + breadth[d] / 2.0 <= t + 1e-9
                };
                let right_ok = i + 1 == layer.len() || {
                    let r = layer[i + 1];
                    t + breadth[d] / 2.0 + gap(d, r) + breadth[r] / 2.0 <= x[r] + 1e-9
                };
                left_ok && right_ok
            })
        };
        if let Some(t) = candidates.into_iter().find(|&t| fits(t, x)) {
            for &d in chain {
                x[d] = t;
            }
        }
    }
}

/// The positions, in order and at least `seps[i]` between item `i` and `i + 1`, nearest the
/// wanted ones (wanted position, weight) in least weighted squares.
pub(crate) fn nearest_in_order(wanted: &[(f64, f64)], seps: &[f64]) -> Vec<f64> {
    // With offsets o (the least distance from the first item), y = x - o must not decrease:
    // an isotonic regression, solved by pooling adjacent violators.
    let mut offset = Vec::with_capacity(wanted.len());
    let mut o = 0.0;
    for i in 0..wanted.len() {
        if i > 0 {
            o += seps[i - 1];
        }
        offset.push(o);
    }
    // Pools: (weighted sum, weight, items).
    let mut pools: Vec<(f64, f64, usize)> = Vec::with_capacity(wanted.len());
    for (i, &(x, w)) in wanted.iter().enumerate() {
        pools.push((w * (x - offset[i]), w, 1));
        while pools.len() > 1 {
            let (s1, w1, n1) = pools[pools.len() - 1];
            let (s0, w0, n0) = pools[pools.len() - 2];
            if s0 / w0 <= s1 / w1 {
                break;
            }
            pools.pop();
            *pools.last_mut().expect("two pools") = (s0 + s1, w0 + w1, n0 + n1);
        }
    }
    let mut out = Vec::with_capacity(wanted.len());
    for (s, w, n) in pools {
        for _ in 0..n {
            let i = out.len();
            out.push(s / w + offset[i]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_keep_their_gaps_and_sit_nearest_what_they_want() {
        let x = nearest_in_order(&[(0.0, 1.0), (0.0, 1.0), (10.0, 1.0)], &[2.0, 2.0]);
        assert_eq!(x, vec![-1.0, 1.0, 10.0]);
    }

    #[test]
    fn a_chain_runs_straight_and_a_fork_is_centred() {
        // a -> b -> c straight; a -> d beside them.
        let p = Proper::new(4, &[0, 1, 2, 1], &[(0, 1), (1, 2), (0, 3)]);
        let x = across(&p, &[2.0; 4], |_, _| 2.0, None);
        assert!((x[1] - x[2]).abs() < 1e-9, "{x:?}");
        assert!(((x[1] + x[3]) / 2.0 - x[0]).abs() < 0.5, "{x:?}");
    }

    #[test]
    fn a_bound_holds_every_layer_inside() {
        // a feeds b, c; b feeds d far right of where c wants to be.
        let p = Proper::new(4, &[0, 1, 1, 2], &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        let x = across(&p, &[10.0; 4], |_, _| 1.0, Some(22.0));
        for v in 0..4 {
            assert!(
                x[v] - 5.0 >= -11.0 - 1e-6 && x[v] + 5.0 <= 11.0 + 1e-6,
                "{x:?}"
            );
        }
    }

    #[test]
    fn long_edges_run_straight() {
        // a -> b spans three layers; a -> c -> d -> b beside it.
        let p = Proper::new(4, &[0, 3, 1, 2], &[(0, 1), (0, 2), (2, 3), (3, 1)]);
        let x = across(&p, &[2.0, 2.0, 2.0, 2.0, 0.0, 0.0], |_, _| 1.0, None);
        let chain = &p.chains[0];
        assert!((x[chain[0]] - x[chain[1]]).abs() < 1e-9, "{x:?}");
    }
}
