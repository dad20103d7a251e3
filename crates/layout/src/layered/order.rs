//! The order of the nodes in each layer: long edges get a dummy node on each layer they cross,
//! then sweeps down and up sort each layer by the barycentre of its neighbours in the layer
//! just swept, and neighbours are swapped while that removes crossings (transposition); the
//! order with the fewest crossings over the iterations is kept.

use std::cell::RefCell;
use std::collections::HashMap;

/// The orders found so far, by what they were found from (each node's layer and the edges): the
/// steps of fitting the grid that change only gaps lay out the same layered graphs again.
#[derive(Default)]
pub(crate) struct Orders(RefCell<HashMap<OrderKey, Vec<Vec<usize>>>>);

/// What an order is found from: the real nodes' layers, the edges (upper, lower), which of
/// them share their dummies, and whether the first and the last layer are pinned.
type OrderKey = (Vec<usize>, Vec<(usize, usize)>, Vec<bool>, (bool, bool));

/// The most sweeps.
const ITERATIONS: usize = 24;
/// Sweeps without a better order before giving up.
const PATIENCE: usize = 4;

/// A layered graph where every edge joins neighbouring layers: the real nodes `0..n`, then
/// the dummy nodes of the long edges.
pub(crate) struct Proper {
    /// Each node's layer.
    pub layer_of: Vec<usize>,
    /// The nodes of each layer, in order.
    pub layers: Vec<Vec<usize>>,
    /// Each node's neighbours in the layer above, with the weight of the edge between them.
    pub up: Vec<Vec<(usize, f64)>>,
    /// Each node's neighbours in the layer below, with weights.
    pub down: Vec<Vec<(usize, f64)>>,
    /// Per edge, its dummy nodes from the upper end down.
    pub chains: Vec<Vec<usize>>,
    /// How many nodes are real.
    pub real: usize,
    /// Per edge, whether it shares its dummies with the other such edges from its upper end.
    pub shared: Vec<bool>,
    /// Whether the first layer and the last keep their order as given (a group's ports,
    /// ordered by where their lines run on outside it).
    pub pinned: (bool, bool),
}

/// Edge weights for the coordinates: a long edge's inner pieces pull hardest, so that they
/// run straight (Graphviz's 1, 2, 8).
fn weight(real: usize, a: usize, b: usize) -> f64 {
    match (a < real, b < real) {
        (true, true) => 1.0,
        (false, false) => 8.0,
        _ => 2.0,
    }
}

impl Proper {
    /// Builds the proper graph of `n` nodes on layers `rank`, edges given (upper, lower).
    #[cfg(test)]
    pub(crate) fn new(n: usize, rank: &[usize], edges: &[(usize, usize)]) -> Proper {
        Proper::sharing(n, rank, edges, &vec![false; edges.len()])
    }

    /// Builds the proper graph of `n` nodes on layers `rank`, edges given (upper, lower); the
    /// edges marked in `shared` that leave one node share one dummy on each layer they pass
    /// together, so that they run down as one line until they part (Graphviz's
    /// `concentrate`, for the fan-outs a too broad layer folds into the layers below).
    pub(crate) fn sharing(
        n: usize,
        rank: &[usize],
        edges: &[(usize, usize)],
        shared: &[bool],
    ) -> Proper {
        let depth = rank.iter().copied().max().map_or(0, |m| m + 1);
        let mut p = Proper {
            layer_of: rank.to_vec(),
            layers: vec![Vec::new(); depth],
            up: vec![Vec::new(); n],
            down: vec![Vec::new(); n],
            chains: Vec::with_capacity(edges.len()),
            real: n,
            shared: shared.to_vec(),
            pinned: (false, false),
        };
        for (v, &r) in rank.iter().enumerate().take(n) {
            p.layers[r].push(v);
        }
        // The dummy a node's shared edges pass each layer by: (upper end, layer) -> dummy.
        let mut trunk: HashMap<(usize, usize), usize> = HashMap::new();
        for (&(a, b), &share) in edges.iter().zip(shared) {
            let mut chain = Vec::new();
            let mut last = a;
            for layer in rank[a] + 1..rank[b] {
                let d = match trunk.get(&(a, layer)).filter(|_| share) {
                    Some(&d) => d,
                    None => {
                        let d = p.dummy(layer);
                        if share {
                            trunk.insert((a, layer), d);
                        }
                        d
                    }
                };
                if !share || !p.down[last].iter().any(|&(w, _)| w == d) {
                    p.join(last, d);
                }
                chain.push(d);
                last = d;
            }
            p.join(last, b);
            p.chains.push(chain);
        }
        p
    }

    /// A new dummy node on `layer`.
    fn dummy(&mut self, layer: usize) -> usize {
        let d = self.layer_of.len();
        self.layer_of.push(layer);
        self.layers[layer].push(d);
        self.up.push(Vec::new());
        self.down.push(Vec::new());
        d
    }

    fn join(&mut self, a: usize, b: usize) {
        let w = weight(self.real, a, b);
        self.down[a].push((b, w));
        self.up[b].push((a, w));
    }

    /// The number of crossings between every pair of neighbouring layers.
    pub(crate) fn crossings(&self) -> usize {
        let mut pos = vec![0usize; self.layer_of.len()];
        for layer in &self.layers {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i;
            }
        }
        (0..self.layers.len().saturating_sub(1))
            .map(|l| self.crossings_below(l, &pos))
            .sum()
    }

    /// Crossings between layer `l` and the next (Barth, Jünger and Mutzel's accumulator tree).
    fn crossings_below(&self, l: usize, pos: &[usize]) -> usize {
        let mut ends: Vec<(usize, usize)> = self.layers[l]
            .iter()
            .flat_map(|&v| self.down[v].iter().map(move |&(w, _)| (pos[v], pos[w])))
            .collect();
        ends.sort_unstable();
        let size = self.layers[l + 1].len().max(1);
        let mut tree = vec![0usize; size + 1];
        let mut count = 0;
        for (seen, &(_, b)) in ends.iter().enumerate() {
            // How many of those seen end strictly right of b.
            let mut i = b + 1;
            let mut at_most_b = 0;
            while i > 0 {
                at_most_b += tree[i];
                i -= i & i.wrapping_neg();
            }
            count += seen - at_most_b;
            let mut i = b + 1;
            while i <= size {
                tree[i] += 1;
                i += i & i.wrapping_neg();
            }
        }
        count
    }

    /// Reorders the layers to cut crossings, or takes the order found before for the same
    /// layers and edges.
    pub(crate) fn reduce_crossings_once(&mut self, orders: &Orders, edges: &[(usize, usize)]) {
        let key = (
            self.layer_of[..self.real].to_vec(),
            edges.to_vec(),
            self.shared.clone(),
            self.pinned,
        );
        if let Some(layers) = orders.0.borrow().get(&key) {
            self.layers = layers.clone();
            return;
        }
        self.reduce_crossings();
        orders.0.borrow_mut().insert(key, self.layers.clone());
    }

    /// Reorders the layers to cut crossings: from the order given, and, when that leaves
    /// some, from its mirror (each layer reversed), keeping the better (sweeps from one start
    /// can settle where a line runs on the wrong side of a whole chain; dot also starts more
    /// than once).
    pub(crate) fn reduce_crossings(&mut self) {
        let start = self.layers.clone();
        let (given, given_crossings) = self.reduced_from(start.clone());
        if given_crossings == 0 {
            self.layers = given;
            return;
        }
        let mirrored = (start.into_iter().enumerate())
            .map(|(l, mut layer)| {
                if !self.is_pinned(l) {
                    layer.reverse();
                }
                layer
            })
            .collect();
        let (mirror, mirror_crossings) = self.reduced_from(mirrored);
        self.layers = if mirror_crossings < given_crossings {
            mirror
        } else {
            given
        };
    }

    /// The order with the fewest crossings the sweeps find from `start`, and its crossings.
    fn reduced_from(&mut self, start: Vec<Vec<usize>>) -> (Vec<Vec<usize>>, usize) {
        self.layers = start;
        let mut best = self.layers.clone();
        let mut fewest = self.crossings();
        let mut idle = 0;
        for iteration in 0..ITERATIONS {
            if fewest == 0 || idle >= PATIENCE {
                break;
            }
            let down = iteration % 2 == 0;
            self.sweep(down);
            self.transpose();
            let now = self.crossings();
            if now < fewest {
                fewest = now;
                best = self.layers.clone();
                idle = 0;
            } else {
                idle += 1;
            }
        }
        (best, fewest)
    }

    /// One sweep: down sorts each layer by its neighbours above, up by those below.
    fn sweep(&mut self, down: bool) {
        let mut pos = vec![0f64; self.layer_of.len()];
        for layer in &self.layers {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i as f64;
            }
        }
        let count = self.layers.len();
        let order: Vec<usize> = if down {
            (1..count).collect()
        } else {
            (0..count.saturating_sub(1)).rev().collect()
        };
        for l in order {
            if self.is_pinned(l) {
                continue;
            }
            let neighbours = if down { &self.up } else { &self.down };
            let mut keyed: Vec<(f64, usize)> = self.layers[l]
                .iter()
                .map(|&v| {
                    let n = &neighbours[v];
                    let key = if n.is_empty() {
                        pos[v]
                    } else {
                        n.iter().map(|&(w, _)| pos[w]).sum::<f64>() / n.len() as f64
                    };
                    (key, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            self.layers[l] = keyed.into_iter().map(|(_, v)| v).collect();
            for (i, &v) in self.layers[l].iter().enumerate() {
                pos[v] = i as f64;
            }
        }
    }

    /// Swaps neighbours in a layer while that removes crossings.
    fn transpose(&mut self) {
        let mut pos = vec![0usize; self.layer_of.len()];
        for layer in &self.layers {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i;
            }
        }
        for _ in 0..8 {
            let mut improved = false;
            for l in 0..self.layers.len() {
                if self.is_pinned(l) {
                    continue;
                }
                for i in 0..self.layers[l].len().saturating_sub(1) {
                    let (u, v) = (self.layers[l][i], self.layers[l][i + 1]);
                    if self.pair_crossings(v, u, &pos) < self.pair_crossings(u, v, &pos) {
                        self.layers[l].swap(i, i + 1);
                        pos[u] = i + 1;
                        pos[v] = i;
                        improved = true;
                    }
                }
            }
            if !improved {
                break;
            }
        }
    }

    /// Whether layer `l` keeps its order ([`Proper::pinned`]).
    fn is_pinned(&self, l: usize) -> bool {
        (self.pinned.0 && l == 0) || (self.pinned.1 && l + 1 == self.layers.len())
    }

    /// Crossings between the edges of `u` and of `v`, `u` left of `v`.
    fn pair_crossings(&self, u: usize, v: usize, pos: &[usize]) -> usize {
        let side = |n: &Vec<Vec<(usize, f64)>>| {
            let mut c = 0;
            for &(a, _) in &n[u] {
                for &(b, _) in &n[v] {
                    if pos[a] > pos[b] {
                        c += 1;
                    }
                }
            }
            c
        };
        side(&self.up) + side(&self.down)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_edges_from_one_node_pass_a_layer_by_one_dummy() {
        // a on layer 0 feeds b (layer 2) and c (layer 3), and d (layer 0) feeds c: a's two
        // edges share the dummy on layer 1 and part on layer 2; d's edge has its own.
        let rank = [0, 2, 3, 0];
        let edges = [(0, 1), (0, 2), (3, 2)];
        let p = Proper::sharing(4, &rank, &edges, &[true; 3]);
        assert_eq!(p.chains[0].len(), 1);
        assert_eq!(p.chains[1][0], p.chains[0][0], "{:?}", p.chains);
        assert_ne!(p.chains[1][1], p.chains[0][0]);
        assert!(p.chains[2].iter().all(|d| !p.chains[1].contains(d)));
        assert_eq!(p.layers[1].len(), 2, "one dummy for a, one for d");
        assert_eq!(
            p.down[p.chains[0][0]].len(),
            2,
            "the shared dummy parts to b and on"
        );
        // Not shared: a dummy each.
        let apart = Proper::sharing(4, &rank, &edges, &[false; 3]);
        assert_eq!(apart.layers[1].len(), 3);
    }

    #[test]
    fn long_edges_get_a_dummy_per_layer_crossed() {
        let p = Proper::new(3, &[0, 1, 3], &[(0, 1), (0, 2), (1, 2)]);
        assert_eq!(p.chains, vec![vec![], vec![3, 4], vec![5]]);
        assert_eq!(p.layers.len(), 4);
        assert_eq!(p.layers[2], vec![4, 5]);
    }

    #[test]
    fn crossings_are_counted_and_removed() {
        // a b on top, c d below; a -> d, b -> c cross once as given.
        let mut p = Proper::new(4, &[0, 0, 1, 1], &[(0, 3), (1, 2)]);
        assert_eq!(p.crossings(), 1);
        p.reduce_crossings();
        assert_eq!(p.crossings(), 0);
    }

    #[test]
    fn an_order_found_once_is_taken_again_for_the_same_layers_and_edges() {
        let edges = [(0, 5), (1, 4), (2, 3), (5, 7), (4, 6), (3, 6), (0, 3)];
        let rank = [0, 0, 0, 1, 1, 1, 2, 2];
        let orders = Orders::default();
        let mut first = Proper::new(8, &rank, &edges);
        first.reduce_crossings_once(&orders, &edges);
        assert_eq!(orders.0.borrow().len(), 1);
        let mut again = Proper::new(8, &rank, &edges);
        again.reduce_crossings_once(&orders, &edges);
        assert_eq!(again.layers, first.layers);
        assert_eq!(orders.0.borrow().len(), 1, "found once");
        // Other edges: found anew.
        let mut other = Proper::new(8, &rank, &edges[..6]);
        other.reduce_crossings_once(&orders, &edges[..6]);
        assert_eq!(orders.0.borrow().len(), 2);
    }

    #[test]
    fn a_known_tangle_is_untangled() {
        // Three layers given in reverse: a -> {d, e}, b -> f, c -> f; d -> g, f -> h, e -> g.
        let mut p = Proper::new(
            8,
            &[0, 0, 0, 1, 1, 1, 2, 2],
            &[(0, 5), (1, 4), (2, 3), (5, 7), (4, 6), (3, 6), (0, 3)],
        );
        let before = p.crossings();
        assert!(before > 0);
        p.reduce_crossings();
        assert_eq!(p.crossings(), 0, "{:?}", p.layers);
    }

    #[test]
    fn a_pinned_layer_keeps_its_order_and_the_others_follow_it() {
        // Two ports below (pinned, in their order) whose lines cross as given: the layer above
        // turns round instead. Unpinned, the sweeps turn the ports round; the order kept for
        // the pinned layers is not taken for the same layers unpinned.
        let (rank, edges) = ([0, 0, 1, 1], [(0, 3), (1, 2)]);
        let orders = Orders::default();
        let mut pinned = Proper::new(4, &rank, &edges);
        pinned.pinned = (false, true);
        pinned.reduce_crossings_once(&orders, &edges);
        assert_eq!(pinned.layers, vec![vec![1, 0], vec![2, 3]]);
        let mut free = Proper::new(4, &rank, &edges);
        free.reduce_crossings_once(&orders, &edges);
        assert_eq!(free.layers, vec![vec![0, 1], vec![3, 2]]);
    }

    #[test]
    fn an_order_the_sweeps_miss_from_the_given_start_is_found_from_its_mirror() {
        // Found by a search over small graphs: from the order given, the sweeps settle at one
        // crossing (the long edge 6 -> 3 runs on the wrong side); from the mirror, at none.
        let (rank, edges) = ([0, 1, 2, 2, 2, 0, 0, 1], [(6, 3), (5, 4), (0, 3), (6, 1)]);
        let mut p = Proper::new(8, &rank, &edges);
        let start = p.layers.clone();
        assert_eq!(p.reduced_from(start).1, 1, "the given start alone");
        let mut p = Proper::new(8, &rank, &edges);
        p.reduce_crossings();
        assert_eq!(p.crossings(), 0, "{:?}", p.layers);
    }
}
