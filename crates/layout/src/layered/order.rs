//! The order of the nodes in each layer: long edges get a dummy node on each layer they cross,
//! then sweeps down and up sort each layer by the barycentre of its neighbours in the layer
//! just swept, and neighbours are swapped while that removes crossings (transposition); the
//! order with the fewest crossings over the iterations is kept, from two starts and once more
//! with ties settled the other way. An edge may meet a node off its middle (a group's port),
//! which the barycentres and the crossings count.

use std::cell::RefCell;
use std::collections::HashMap;

/// The orders found so far, by what they were found from (each node's layer and the edges): the
/// steps of fitting the grid that change only gaps lay out the same layered graphs again.
#[derive(Default)]
pub(crate) struct Orders(RefCell<HashMap<OrderKey, Vec<Vec<usize>>>>);

/// What an order is found from: the real nodes' layers, the edges (upper, lower), which of
/// them share their dummies, whether any meets its end off its middle ([`Proper::has_ends`]:
/// where, the gaps can change a little, and the order found for one step of fitting the grid
/// serves the next) and whether the first and the last layer are pinned.
type OrderKey = (
    Vec<usize>,
    Vec<(usize, usize)>,
    Vec<bool>,
    bool,
    (bool, bool),
);

/// The most sweeps.
const ITERATIONS: usize = 24;
/// Sweeps without a better order before giving up.
const PATIENCE: usize = 4;
/// The same, sweeping with ties turned round from an order swept already.
const TURNED_PATIENCE: usize = 2;

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
    /// Beside each of `up`, where the edge leaves that neighbour and enters this node
    /// ([`Proper::has_ends`]); empty while all of them meet both in the middle.
    up_at: Vec<Vec<(f64, f64)>>,
    /// Beside each of `down`, where the edge leaves this node and enters that neighbour;
    /// empty while all in the middle.
    down_at: Vec<Vec<(f64, f64)>>,
    /// Whether any edge meets an end off its middle: where an edge leaves its upper end and
    /// enters its lower one across the flow, as an offset from the node's place in its
    /// layer, under half a place either way, is a group's port, so that the lines to a group
    /// take the order of the members they run to (Graphviz's ports in its crossing
    /// minimisation); 0 is the middle.
    has_ends: bool,
    /// Per edge, its dummy nodes from the upper end down.
    pub chains: Vec<Vec<usize>>,
    /// How many nodes are real.
    pub real: usize,
    /// Per edge, whether it shares its dummies with the other such edges from its upper end.
    pub shared: Vec<bool>,
    /// Whether the first layer and the last keep their order as given (a group's ports,
    /// ordered by where their lines run on outside it).
    pub pinned: (bool, bool),
    /// Per edge, whether it carries a link's label (on its middle dummy, given the label's
    /// room after the order): the sifting leaves such a chain where it is.
    pub labelled: Vec<bool>,
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
        Proper::sharing(n, rank, edges, &vec![false; edges.len()], &[])
    }

    /// Builds the proper graph of `n` nodes on layers `rank`, edges given (upper, lower); the
    /// edges marked in `shared` that leave one node share one dummy on each layer they pass
    /// together, so that they run down as one line until they part (Graphviz's
    /// `concentrate`, for the fan-outs a too broad layer folds into the layers below); `ends`
    /// per edge where it meets its ends ([`Proper::has_ends`]; none: all in the middle).
    pub(crate) fn sharing(
        n: usize,
        rank: &[usize],
        edges: &[(usize, usize)],
        shared: &[bool],
        ends: &[(f64, f64)],
    ) -> Proper {
        let ends: Vec<(f64, f64)> = (0..edges.len())
            .map(|e| ends.get(e).copied().unwrap_or_default())
            .collect();
        let depth = rank.iter().copied().max().map_or(0, |m| m + 1);
        let mut p = Proper {
            layer_of: rank.to_vec(),
            layers: vec![Vec::new(); depth],
            up: vec![Vec::new(); n],
            down: vec![Vec::new(); n],
            up_at: vec![Vec::new(); n],
            down_at: vec![Vec::new(); n],
            has_ends: ends.iter().any(|&e| e != (0.0, 0.0)),
            chains: Vec::with_capacity(edges.len()),
            real: n,
            shared: shared.to_vec(),
            pinned: (false, false),
            labelled: vec![false; edges.len()],
        };
        for (v, &r) in rank.iter().enumerate().take(n) {
            p.layers[r].push(v);
        }
        // The dummy a node's shared edges pass each layer by: (upper end, layer) -> dummy.
        let mut trunk: HashMap<(usize, usize), usize> = HashMap::new();
        for ((&(a, b), &share), &(at_a, at_b)) in edges.iter().zip(shared).zip(&ends) {
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
                    p.join(last, d, if last == a { at_a } else { 0.0 }, 0.0);
                }
                chain.push(d);
                last = d;
            }
            p.join(last, b, if last == a { at_a } else { 0.0 }, at_b);
            p.chains.push(chain);
        }
        p
    }

    /// Edge `e`'s nodes from its upper end (`upper`) down to its lower one (`lower`), one a
    /// layer.
    pub(crate) fn path(&self, e: usize, upper: usize, lower: usize) -> Vec<usize> {
        (std::iter::once(upper).chain(self.chains[e].iter().copied()))
            .chain(std::iter::once(lower))
            .collect()
    }

    /// A new dummy node on `layer`.
    fn dummy(&mut self, layer: usize) -> usize {
        let d = self.layer_of.len();
        self.layer_of.push(layer);
        self.layers[layer].push(d);
        self.up.push(Vec::new());
        self.down.push(Vec::new());
        self.up_at.push(Vec::new());
        self.down_at.push(Vec::new());
        d
    }

    /// An edge from `a` down to `b`, leaving `a` at `at_a` and entering `b` at `at_b`.
    fn join(&mut self, a: usize, b: usize, at_a: f64, at_b: f64) {
        let w = weight(self.real, a, b);
        self.down[a].push((b, w));
        self.up[b].push((a, w));
        let at = (at_a, at_b);
        for (list, len) in [
            (&mut self.down_at[a], self.down[a].len()),
            (&mut self.up_at[b], self.up[b].len()),
        ] {
            if at != (0.0, 0.0) || !list.is_empty() {
                list.resize(len - 1, (0.0, 0.0));
                list.push(at);
            }
        }
    }

    /// Where the `k`th edge of a node's list `at` (its `up_at` or `down_at`) meets its ends.
    fn at(at: &[(f64, f64)], k: usize) -> (f64, f64) {
        at.get(k).copied().unwrap_or_default()
    }

    /// Each of `v`'s neighbours above (`up`) or below, with the place the edge meets it at
    /// (its place in its layer, `pos`, moved by where the edge meets it).
    fn neighbours<'p>(
        &'p self,
        v: usize,
        up: bool,
        pos: &'p [f64],
    ) -> impl Iterator<Item = (usize, f64)> + 'p {
        let (n, at) = if up {
            (&self.up[v], &self.up_at[v])
        } else {
            (&self.down[v], &self.down_at[v])
        };
        n.iter().enumerate().map(move |(k, &(w, _))| {
            let (upper, lower) = Self::at(at, k);
            (w, pos[w] + if up { upper } else { lower })
        })
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

    /// Crossings between layer `l` and the next.
    fn crossings_below(&self, l: usize, pos: &[usize]) -> usize {
        if !self.has_ends {
            // The layer in order, each node's edges sorted by their lower ends: all sorted.
            let mut ends = Vec::new();
            for &v in &self.layers[l] {
                let first = ends.len();
                ends.extend(self.down[v].iter().map(|&(w, _)| (pos[v], pos[w])));
                ends[first..].sort_unstable();
            }
            return inversions(&ends, self.layers[l + 1].len());
        }
        // Where an edge meets a node counts: each end as a rank among the places edges meet
        // its layer at.
        let places: Vec<(f64, f64)> = (self.layers[l].iter())
            .flat_map(|&v| {
                (self.down[v].iter().enumerate()).map(move |(k, &(w, _))| {
                    let (at_v, at_w) = Self::at(&self.down_at[v], k);
                    (pos[v] as f64 + at_v, pos[w] as f64 + at_w)
                })
            })
            .collect();
        let ranks = |of: &dyn Fn(&(f64, f64)) -> f64| {
            let mut sorted: Vec<f64> = places.iter().map(of).collect();
            sorted.sort_by(f64::total_cmp);
            sorted.dedup();
            let ranks: Vec<usize> = (places.iter())
                .map(|p| sorted.partition_point(|&y| y < of(p)))
                .collect();
            (ranks, sorted.len())
        };
        let (upper, _) = ranks(&|p| p.0);
        let (lower, size) = ranks(&|p| p.1);
        let mut ends: Vec<(usize, usize)> = upper.into_iter().zip(lower).collect();
        ends.sort_unstable();
        inversions(&ends, size)
    }

    /// Reorders the layers to cut crossings, or takes the order found before for the same
    /// layers and edges.
    pub(crate) fn reduce_crossings_once(&mut self, orders: &Orders, edges: &[(usize, usize)]) {
        let key = (
            self.layer_of[..self.real].to_vec(),
            edges.to_vec(),
            self.shared.clone(),
            self.has_ends,
            self.pinned,
        );
        if let Some(layers) = orders.0.borrow().get(&key) {
            self.layers = layers.clone();
            return;
        }
        // With the groups' ports, from the order found without them, which mostly stands: the
        // sweeps from there only (a whole search again would double the cost of a big
        // diagram for the few lines to a group that change places).
        let found = self.has_ends.then(|| {
            let without_ports = (key.0.clone(), key.1.clone(), key.2.clone(), false, key.4);
            orders.0.borrow().get(&without_ports).cloned()
        });
        match found.flatten() {
            Some(start) => self.layers = self.swept(start, false).0,
            None => self.reduce_crossings(),
        }
        self.sift_chains(edges);
        orders.0.borrow_mut().insert(key, self.layers.clone());
    }

    /// Reorders the layers to cut crossings: from the order given, and, when that leaves
    /// some, from its mirror (each layer reversed), keeping the better (sweeps from one start
    /// can settle where a line runs on the wrong side of a whole chain; dot also starts more
    /// than once); when that leaves some, from the better with ties turned round.
    pub(crate) fn reduce_crossings(&mut self) {
        let start = self.layers.clone();
        let (given, given_crossings) = self.swept(start.clone(), false);
        if given_crossings == 0 {
            self.layers = given;
            return;
        }
        let (mirror, mirror_crossings) = self.swept(self.mirrored(start), false);
        let (best, fewest) = if mirror_crossings < given_crossings {
            (mirror, mirror_crossings)
        } else {
            (given, given_crossings)
        };
        if fewest == 0 {
            self.layers = best;
            return;
        }
        // Equal keys turned round, from the better: a tie settled one way only can hold a
        // whole chain on the wrong side (dagre too alternates the way it settles ties).
        let (turned, turned_crossings) = self.swept(best.clone(), true);
        self.layers = if turned_crossings < fewest {
            turned
        } else {
            best
        };
    }

    /// `layers` with each layer but the pinned ones reversed.
    fn mirrored(&self, layers: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
        (layers.into_iter().enumerate())
            .map(|(l, mut layer)| {
                if !self.is_pinned(l) {
                    layer.reverse();
                }
                layer
            })
            .collect()
    }

    /// The order with the fewest crossings the sweeps find from `start`, equal keys settled
    /// in the order given, or turned round (`ties_turned`), and its crossings.
    fn swept(&mut self, start: Vec<Vec<usize>>, ties_turned: bool) -> (Vec<Vec<usize>>, usize) {
        self.layers = start;
        let mut best = self.layers.clone();
        let mut fewest = self.crossings();
        let mut idle = 0;
        let patience = if ties_turned {
            TURNED_PATIENCE
        } else {
            PATIENCE
        };
        for iteration in 0..ITERATIONS {
            if fewest == 0 || idle >= patience {
                break;
            }
            let down = iteration % 2 == 0;
            self.sweep(down, ties_turned);
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

    /// One sweep: down sorts each layer by its neighbours above, up by those below (equal
    /// keys in the order they were in, or turned round).
    fn sweep(&mut self, down: bool, ties_turned: bool) {
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
            let mut keyed: Vec<(f64, usize)> = self.layers[l]
                .iter()
                .map(|&v| {
                    let count = if down { &self.up } else { &self.down }[v].len();
                    let key = if count == 0 {
                        pos[v]
                    } else {
                        let sum: f64 = self.neighbours(v, down, &pos).map(|(_, p)| p).sum();
                        sum / count as f64
                    };
                    (key, v)
                })
                .collect();
            if ties_turned {
                keyed.reverse();
            }
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            self.layers[l] = keyed.into_iter().map(|(_, v)| v).collect();
            for (i, &v) in self.layers[l].iter().enumerate() {
                pos[v] = i as f64;
            }
        }
    }

    /// Swaps neighbours in a layer while that removes crossings.
    fn transpose(&mut self) {
        let mut pos = vec![0f64; self.layer_of.len()];
        for layer in &self.layers {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i as f64;
            }
        }
        // A layer is looked at again only once it or a neighbour changed: until then its
        // swaps would remove no crossing.
        let count = self.layers.len();
        let mut changed = vec![true; count];
        for _ in 0..8 {
            let mut improved = false;
            for l in 0..count {
                if self.is_pinned(l) || !changed[l] {
                    continue;
                }
                changed[l] = false;
                for i in 0..self.layers[l].len().saturating_sub(1) {
                    let (u, v) = (self.layers[l][i], self.layers[l][i + 1]);
                    let (kept, swapped) = self.pair_crossings(u, v, &pos);
                    if swapped < kept {
                        self.layers[l].swap(i, i + 1);
                        pos[u] = (i + 1) as f64;
                        pos[v] = i as f64;
                        improved = true;
                        changed[l.saturating_sub(1)..(l + 2).min(count)].fill(true);
                    }
                }
            }
            if !improved {
                break;
            }
        }
    }

    /// Crossings between the edges of `u` and of `v`: with `u` left of `v`, and with `v` left
    /// of `u`.
    fn pair_crossings(&self, u: usize, v: usize, pos: &[f64]) -> (usize, usize) {
        let (up_kept, up_swapped) = self.side_crossings(u, v, pos, true);
        let (down_kept, down_swapped) = self.side_crossings(u, v, pos, false);
        (up_kept + down_kept, up_swapped + down_swapped)
    }

    /// Crossings between the edges of `u` and of `v` to the layer above (`up`) or below:
    /// with `u` left of `v`, and with `v` left of `u` (pairs of edges that end apart cross
    /// one way or the other; those that meet in one point, neither).
    #[inline]
    fn side_crossings(&self, u: usize, v: usize, pos: &[f64], up: bool) -> (usize, usize) {
        let (n, at) = if up {
            (&self.up, &self.up_at)
        } else {
            (&self.down, &self.down_at)
        };
        let (mut kept, mut swapped) = (0, 0);
        if at[u].is_empty() && at[v].is_empty() {
            for &(a, _) in &n[u] {
                let a = pos[a];
                for &(b, _) in &n[v] {
                    kept += usize::from(a > pos[b]);
                    swapped += usize::from(a < pos[b]);
                }
            }
            return (kept, swapped);
        }
        for (_, a) in self.neighbours(u, up, pos) {
            for (_, b) in self.neighbours(v, up, pos) {
                kept += usize::from(a > b);
                swapped += usize::from(a < b);
            }
        }
        (kept, swapped)
    }

    /// Whether any edge meets an end off its middle ([`Proper::has_ends`]).
    pub(super) fn has_ends(&self) -> bool {
        self.has_ends
    }

    /// Whether layer `l` keeps its order ([`Proper::pinned`]).
    fn is_pinned(&self, l: usize) -> bool {
        (self.pinned.0 && l == 0) || (self.pinned.1 && l + 1 == self.layers.len())
    }
}

/// The pairs of `ends` (upper, lower; sorted) that cross: one left of the other at the upper
/// end and right of it at the lower (ends below `size`; Barth, Jünger and Mutzel's
/// accumulator tree).
fn inversions(ends: &[(usize, usize)], size: usize) -> usize {
    let size = size.max(1);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_edges_from_one_node_pass_a_layer_by_one_dummy() {
        // a on layer 0 feeds b (layer 2) and c (layer 3), and d (layer 0) feeds c: a's two
        // edges share the dummy on layer 1 and part on layer 2; d's edge has its own.
        let rank = [0, 2, 3, 0];
        let edges = [(0, 1), (0, 2), (3, 2)];
        let p = Proper::sharing(4, &rank, &edges, &[true; 3], &[]);
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
        let apart = Proper::sharing(4, &rank, &edges, &[false; 3], &[]);
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
    fn ties_settled_both_ways_let_a_whole_chain_change_sides() {
        // The layers of the Terraform graph in tests/data/dot/terraform-legacy.dot: node 12's
        // long edge to 9 must pass left of 0's children, and the barycentres tie all along
        // it; settled the given way only, the sweeps leave one crossing from either start.
        let rank = [3, 4, 2, 4, 1, 7, 4, 8, 6, 5, 7, 4, 1, 0];
        let edges = [
            (2, 0),
            (0, 1),
            (0, 3),
            (0, 6),
            (0, 11),
            (1, 8),
            (3, 5),
            (8, 10),
            (8, 5),
            (9, 8),
            (11, 9),
            (4, 2),
            (5, 7),
            (12, 2),
            (12, 9),
            (13, 4),
            (13, 12),
        ];
        let mut p = Proper::new(14, &rank, &edges);
        let start = p.layers.clone();
        assert_eq!(p.swept(start.clone(), false).1, 1, "ties settled as given");
        assert_eq!(p.swept(p.mirrored(start), false).1, 1, "from the mirror");
        let mut p = Proper::new(14, &rank, &edges);
        p.reduce_crossings();
        assert_eq!(p.crossings(), 0, "{:?}", p.layers);
    }

    #[test]
    fn lines_to_a_group_take_the_order_of_its_ports() {
        // a and b above, a group g below whose port for a's line lies right of b's: in the
        // order given the lines cross inside g's place, so the layer above turns round.
        let (rank, edges) = ([0, 0, 1], [(0, 2), (1, 2)]);
        let ends = [(0.0, 0.4), (0.0, -0.4)];
        let mut p = Proper::sharing(3, &rank, &edges, &[false; 2], &ends);
        assert_eq!(p.crossings(), 1);
        p.reduce_crossings();
        assert_eq!(p.crossings(), 0);
        assert_eq!(p.layers[0], vec![1, 0]);
        // Without ports the two lines meet g in its middle and do not cross.
        assert_eq!(Proper::new(3, &rank, &edges).crossings(), 0);
    }

    #[test]
    fn the_order_with_ports_is_swept_from_the_one_found_without_them() {
        // a..d above all run to g below, at ports in the order d c b a; e stands alone. Found
        // without ports: e first, then d c b a, which has no crossing with the ports either,
        // so the order with ports keeps it (searched whole, e would go last).
        let (rank, edges) = ([0, 0, 0, 0, 0, 1], [(0, 5), (1, 5), (2, 5), (3, 5)]);
        let ends = [(0.0, 0.3), (0.0, 0.1), (0.0, -0.1), (0.0, -0.3)];
        let without_ports = (
            rank.to_vec(),
            edges.to_vec(),
            vec![false; 4],
            false,
            (false, false),
        );
        let orders = Orders::default();
        let found = vec![vec![4, 3, 2, 1, 0], vec![5]];
        orders.0.borrow_mut().insert(without_ports, found.clone());
        let mut ported = Proper::sharing(6, &rank, &edges, &[false; 4], &ends);
        ported.reduce_crossings_once(&orders, &edges);
        assert_eq!(ported.layers, found);
        assert_eq!(orders.0.borrow().len(), 2, "kept under its own key");
        let mut whole = Proper::sharing(6, &rank, &edges, &[false; 4], &ends);
        whole.reduce_crossings();
        assert_eq!(whole.crossings(), 0);
        assert_ne!(whole.layers, found, "a whole search orders e elsewhere");
    }

    #[test]
    fn an_order_the_sweeps_miss_from_the_given_start_is_found_from_its_mirror() {
        // Found by a search over small graphs: from the order given, the sweeps settle at one
        // crossing, however they settle ties; from the mirror, at none.
        let (rank, edges) = ([0, 2, 0, 3, 3, 1, 0, 3], [(0, 4), (6, 4), (2, 7), (2, 1)]);
        let mut p = Proper::new(8, &rank, &edges);
        let start = p.layers.clone();
        assert_eq!(p.swept(start.clone(), false).1, 1, "the given start alone");
        assert_eq!(p.swept(start.clone(), true).1, 1, "ties turned round");
        assert_eq!(p.swept(p.mirrored(start), false).1, 0, "the mirror");
        let mut p = Proper::new(8, &rank, &edges);
        p.reduce_crossings();
        assert_eq!(p.crossings(), 0, "{:?}", p.layers);
    }
}
