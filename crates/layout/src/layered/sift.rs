//! After the crossings are cut, each long edge's chain of dummies is moved, as a whole, to the
//! places in its layers where it crosses fewest lines and, of those, runs nearest the straight
//! line between its ends: the sweeps move one node at a time, and a chain that passes a block
//! on the far side can only come round to the near side all at once (Jaeger's `Collector -->
//! Storage` went round the whole Application Host group, where it could pass between the group
//! and the next line with no crossing). The other nodes keep their order; for the chain the
//! choice is exact (a shortest path over its layers' gaps), so it never crosses more lines than
//! before.

use std::collections::HashMap;

use super::order::Proper;

/// The most pairs of gaps looked at in one diagram (a container): past it, the chains left
/// keep their places (a 1,000-node graph has tens of thousands of dummies; the corpus's
/// diagrams take a few thousand pairs).
const BUDGET: usize = 400_000;

/// A chain's cost: the lines it crosses, then how far it runs from straight (shares of
/// layers, summed).
type Cost = (usize, f64);

impl Proper {
    /// Moves each chain of two dummies or more to its best places; `edges` as the chains were
    /// made from, (upper, lower). Left as found: chains shared by several edges or carrying a
    /// label, edges with the same ends, and every chain of a graph whose edges meet ports off
    /// their nodes' middles or whose first or last layer is pinned (a group's ports).
    pub(crate) fn sift_chains(&mut self, edges: &[(usize, usize)]) {
        if self.has_ends() || self.pinned != (false, false) {
            return;
        }
        // Edges with the same ends are put in order by where they meet a group's ports (they
        // are the lines between two groups), and change places alike: they are left as found.
        let mut twins: HashMap<(usize, usize), usize> = HashMap::new();
        for &ends in edges {
            *twins.entry(ends).or_default() += 1;
        }
        let mut spent = 0;
        for (e, &(upper, lower)) in edges.iter().enumerate() {
            let chain = &self.chains[e];
            let fixed = self.shared[e] || self.labelled[e] || twins[&(upper, lower)] > 1;
            // A chain of one dummy is one node, which the sweeps move as they like.
            if chain.len() < 2 || fixed {
                continue;
            }
            spent += (self.layer_of[upper]..=self.layer_of[lower])
                .map(|l| self.layers[l].len() + 1)
                .collect::<Vec<_>>()
                .windows(2)
                .map(|w| w[0] * w[1])
                .sum::<usize>();
            if spent > BUDGET {
                return;
            }
            self.sift(e, upper, lower);
        }
    }

    /// Moves edge `e`'s chain (its dummies, from `upper` down to `lower`) to its best gaps.
    fn sift(&mut self, e: usize, upper: usize, lower: usize) {
        // The edge's nodes from its upper end down, one a layer; per layer, the other nodes,
        // among which the edge's node has its place as a gap (fixed at the ends).
        let path = self.path(e, upper, lower);
        let mut index = vec![usize::MAX; self.layer_of.len()];
        let mut now = Vec::with_capacity(path.len());
        let others: Vec<Vec<usize>> = (path.iter())
            .map(|&v| {
                let layer = &self.layers[self.layer_of[v]];
                now.push(layer.iter().position(|&w| w == v).unwrap_or(0));
                let others: Vec<usize> = layer.iter().copied().filter(|&w| w != v).collect();
                for (i, &w) in others.iter().enumerate() {
                    index[w] = i;
                }
                others
            })
            .collect();
        // The other edges between each pair of neighbouring layers, by their ends' places among
        // the others (those meeting the edge's own nodes share an end with it: no crossing).
        let between: Vec<Vec<(usize, usize)>> = (0..path.len() - 1)
            .map(|i| {
                (others[i].iter())
                    .flat_map(|&a| self.down[a].iter().map(move |&(b, _)| (a, b)))
                    .filter(|&(_, b)| b != path[i + 1])
                    .map(|(a, b)| (index[a], index[b]))
                    .collect()
            })
            .collect();
        let share = |i: usize| (now[i] as f64 + 0.5) / (others[i].len() + 1) as f64;
        let last = path.len() - 1;
        let (top, bottom) = (share(0), share(last));
        let astray = |i: usize, gap: usize| {
            let straight = top + (bottom - top) * i as f64 / last as f64;
            ((gap as f64 + 0.5) / (others[i].len() + 1) as f64 - straight).abs()
        };
        let crossings = |i: usize, g: usize, h: usize| {
            (between[i].iter())
                .filter(|&&(a, b)| (a < g) != (b < h))
                .count()
        };
        let cost_of = |gaps: &[usize]| -> Cost {
            let crossed = (0..last).map(|i| crossings(i, gaps[i], gaps[i + 1])).sum();
            (crossed, (1..last).map(|i| astray(i, gaps[i])).sum())
        };
        let best = shortest(&others, &now, &crossings, &astray);
        if better(cost_of(&best), cost_of(&now)) {
            for i in 1..last {
                let mut layer = others[i].clone();
                layer.insert(best[i], path[i]);
                self.layers[self.layer_of[path[i]]] = layer;
            }
        }
    }
}

/// The gaps of the path's layers (the first and the last fixed at `now`'s) with the least
/// cost: the lines crossed between neighbouring layers, then the straying.
fn shortest(
    others: &[Vec<usize>],
    now: &[usize],
    crossings: &dyn Fn(usize, usize, usize) -> usize,
    astray: &dyn Fn(usize, usize) -> f64,
) -> Vec<usize> {
    let last = others.len() - 1;
    let gaps = |i: usize| -> Vec<usize> {
        if i == 0 || i == last {
            vec![now[i]]
        } else {
            (0..=others[i].len()).collect()
        }
    };
    // Per layer, per gap: the least cost to reach it, and the gap it came from.
    let mut reached: Vec<Vec<(usize, Cost, usize)>> = vec![vec![(now[0], (0, 0.0), 0)]];
    for i in 1..=last {
        let row = (gaps(i).into_iter())
            .map(|h| {
                let (from, cost) = (reached[i - 1].iter().enumerate())
                    .map(|(k, &(g, (crossed, strayed), _))| {
                        let here = (crossed + crossings(i - 1, g, h), strayed + astray(i, h));
                        (k, here)
                    })
                    .reduce(|a, b| if better(b.1, a.1) { b } else { a })
                    .expect("a layer has a gap");
                (h, cost, from)
            })
            .collect();
        reached.push(row);
    }
    let mut path = vec![0; others.len()];
    let mut k = 0;
    for i in (0..=last).rev() {
        let (gap, _, from) = reached[i][k];
        path[i] = gap;
        k = from;
    }
    path
}

/// Whether cost `a` is lower than `b`: fewer crossings, else clearly straighter.
fn better(a: Cost, b: Cost) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1 - 1e-9)
}

#[cfg(test)]
mod tests {
    use super::super::order::Proper;

    /// A (0) feeds a leaf G (1), P (2) and, past both, S (3); P feeds S. The long edge A → S
    /// has dummies 4 (layer 1) and 5 (layer 2), A → P has 6 (layer 1).
    fn around_a_leaf() -> (Proper, Vec<(usize, usize)>) {
        let edges = vec![(0, 1), (0, 3), (0, 2), (2, 3)];
        let p = Proper::new(4, &[0, 1, 2, 3], &edges);
        (p, edges)
    }

    #[test]
    fn a_long_edge_round_the_far_side_of_a_leaf_comes_to_the_near_side() {
        let (mut p, edges) = around_a_leaf();
        assert_eq!(p.chains[1], [4, 5]);
        p.layers[1] = vec![4, 1, 6];
        p.layers[2] = vec![5, 2];
        assert_eq!(p.crossings(), 0);
        p.sift_chains(&edges);
        assert_eq!(
            p.layers[1],
            [1, 4, 6],
            "between the leaf and the other line"
        );
        assert_eq!(p.crossings(), 0);
    }

    #[test]
    fn a_chain_never_crosses_more_lines_than_before() {
        // Layered graphs with long edges, in pseudo-random orders: the sifting may only keep
        // or cut the crossings.
        let mut seed = 7u64;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % bound
        };
        for _ in 0..40 {
            let n = 12;
            let rank: Vec<usize> = (0..n).map(|v| v / 3).collect();
            let mut edges = Vec::new();
            for _ in 0..14 {
                let (a, b) = (next(n), next(n));
                if rank[a] < rank[b] && !edges.contains(&(a, b)) {
                    edges.push((a, b));
                }
            }
            let mut p = Proper::new(n, &rank, &edges);
            for layer in &mut p.layers {
                for i in (1..layer.len()).rev() {
                    layer.swap(i, next(i + 1));
                }
            }
            let before = p.crossings();
            p.sift_chains(&edges);
            assert!(p.crossings() <= before, "{before} -> {}", p.crossings());
        }
    }

    #[test]
    fn edges_with_the_same_ends_keep_their_places() {
        // Two lines between the same two nodes (two groups' ports put them in order later).
        let edges = vec![(0, 1), (0, 1), (0, 2)];
        let mut p = Proper::new(3, &[0, 2, 1], &edges);
        p.layers[1] = vec![3, 4, 2];
        p.sift_chains(&edges);
        assert_eq!(p.layers[1], [3, 4, 2]);
    }
}
