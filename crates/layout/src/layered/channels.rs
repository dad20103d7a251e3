//! Tracks in the channel between two layers. A line crossing the channel runs along the flow
//! from where it leaves the upper layer, across the flow on a track of the channel, then along
//! the flow to where it enters the lower layer. Lines that share an end (a fan out of one
//! corner, a fan into one) share a track, drawn as one bus; other lines whose pieces across
//! would meet get tracks of their own, ordered so that they cross as few pieces along as the
//! ends allow (none when the layers' order has no crossing), as the orthogonal routers of
//! layered layouts do (hyperedge segments ordered by the crossings each order would make).

use super::cycles::back_edges;

/// What two runs drawn on top of each other weigh against a crossing.
const OVERLAP: usize = 4;

/// One line's piece in a channel: where it leaves the upper layer and where it enters the
/// lower one, across the flow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Piece {
    /// Across the flow, at the upper layer.
    pub upper: f64,
    /// Across the flow, at the lower layer.
    pub lower: f64,
}

/// Pieces that share a track: where they leave the upper layer, where they enter the lower
/// one, and the stretch across the flow the track's line covers.
struct Bus {
    uppers: Vec<f64>,
    lowers: Vec<f64>,
    low: f64,
    high: f64,
}

impl Bus {
    /// Crossings if this bus's track lies nearer the upper layer than `other`'s: `other`'s
    /// pieces from the upper layer pass this track, this bus's pieces to the lower layer pass
    /// `other`'s; and runs drawn on top of each other, where this bus's piece to the lower
    /// layer and `other`'s from the upper one run at the same place across (worse: they
    /// weigh [`OVERLAP`] crossings).
    fn crossings_above(&self, other: &Bus) -> usize {
        other.uppers.iter().filter(|&&x| self.inside(x)).count()
            + self.lowers.iter().filter(|&&x| other.inside(x)).count()
            + OVERLAP
                * self
                    .lowers
                    .iter()
                    .filter(|x| other.uppers.contains(x))
                    .count()
    }

    fn inside(&self, x: f64) -> bool {
        x > self.low && x < self.high
    }

    fn meets(&self, other: &Bus) -> bool {
        self.low <= other.high && other.low <= self.high
    }
}

/// The track of each piece (0 nearest the upper layer), and how many tracks the channel
/// needs. A piece straight along the flow needs none (its track is 0 and unused).
pub(crate) fn tracks(pieces: &[Piece]) -> (Vec<usize>, usize) {
    let (buses, bus_of) = buses(pieces);
    let (track, count) = bus_tracks(&buses);
    let out = bus_of.iter().map(|b| b.map_or(0, |b| track[b])).collect();
    (out, count)
}

/// How many tracks each channel gets, given how many its buses `wanted`: up to `tracks`
/// each, then `extra` one by one to the channel whose buses would share its tracks most.
pub(crate) fn given_tracks(wanted: &[usize], tracks: usize, extra: usize) -> Vec<usize> {
    let mut given: Vec<usize> = wanted.iter().map(|&w| w.min(tracks)).collect();
    for _ in 0..extra {
        let share = |c: usize| wanted[c] as f64 / given[c].max(1) as f64;
        let neediest = (0..given.len())
            .filter(|&c| given[c] < wanted[c])
            .max_by(|&a, &b| share(a).total_cmp(&share(b)).then(b.cmp(&a)));
        match neediest {
            Some(c) => given[c] += 1,
            None => break,
        }
    }
    given
}

/// Per channel, where each of its tracks goes in the room it has (`room` of a channel, in
/// tracks; [`merged_tracks`]), given each edge's pieces (channel, piece) and their tracks.
pub(crate) fn merged_channels(
    pieces: &[Vec<(usize, Piece)>],
    track: &[Vec<usize>],
    wanted: &[usize],
    room: impl Fn(usize) -> usize,
) -> Vec<Vec<usize>> {
    let mut in_channel: Vec<(Vec<Piece>, Vec<usize>)> =
        vec![(Vec::new(), Vec::new()); wanted.len()];
    for (ps, ts) in pieces.iter().zip(track) {
        for (&(c, piece), &t) in ps.iter().zip(ts) {
            if let Some((list, on)) = in_channel.get_mut(c) {
                list.push(piece);
                on.push(t);
            }
        }
    }
    (in_channel.iter().enumerate())
        .map(|(c, (list, on))| merged_tracks(list, on, wanted[c].max(1), room(c)))
        .collect()
}

/// Where each of a channel's `wanted` tracks goes when the channel has `room` for fewer:
/// neighbouring tracks merge, in their order, so that sharing adds no crossing. The tracks
/// spread evenly over the room (`t × room / wanted`) unless grouping them otherwise puts
/// fewer pairs of `pieces` (on their `track`) from different tracks on one, where their runs
/// across would lie along each other.
pub(crate) fn merged_tracks(
    pieces: &[Piece],
    track: &[usize],
    wanted: usize,
    room: usize,
) -> Vec<usize> {
    let room = room.clamp(1, wanted.max(1));
    let even: Vec<usize> = (0..wanted).map(|t| t * room / wanted.max(1)).collect();
    if room == 1 || room >= wanted {
        return even;
    }
    // Pairs running along each other, by their tracks (lower first).
    let mut along = vec![vec![0usize; wanted]; wanted];
    let span = |p: &Piece| (p.upper.min(p.lower), p.upper.max(p.lower));
    for (i, p) in pieces.iter().enumerate() {
        for (j, q) in pieces.iter().enumerate().skip(i + 1) {
            let ((a0, a1), (b0, b1)) = (span(p), span(q));
            let (ti, tj) = (track[i], track[j]);
            if p.upper != p.lower && q.upper != q.lower && ti != tj && a0.max(b0) < a1.min(b1) {
                along[ti.min(tj)][ti.max(tj)] += 1;
            }
        }
    }
    // cost[i][j]: the pairs along each other once tracks i..j are one.
    let mut cost = vec![vec![0usize; wanted + 1]; wanted + 1];
    for (i, row) in cost.iter_mut().enumerate().take(wanted) {
        for j in i + 1..wanted {
            row[j + 1] = row[j] + (i..j).map(|a| along[a][j]).sum::<usize>();
        }
    }
    let cost_of = |map: &[usize]| -> usize {
        (0..wanted)
            .flat_map(|a| (a + 1..wanted).map(move |b| (a, b)))
            .filter(|&(a, b)| map[a] == map[b])
            .map(|(a, b)| along[a][b])
            .sum()
    };
    // The least over `room` groups in order (best[r][j]: tracks 0..j in r groups).
    let mut best = vec![vec![usize::MAX; wanted + 1]; room + 1];
    let mut cut = vec![vec![0usize; wanted + 1]; room + 1];
    best[0][0] = 0;
    for r in 1..=room {
        for j in r..=wanted {
            for i in r - 1..j {
                if best[r - 1][i] == usize::MAX {
                    continue;
                }
                let c = best[r - 1][i] + cost[i][j];
                if c < best[r][j] {
                    (best[r][j], cut[r][j]) = (c, i);
                }
            }
        }
    }
    if best[room][wanted] >= cost_of(&even) {
        return even;
    }
    let mut grouped = vec![0; wanted];
    let mut j = wanted;
    for r in (1..=room).rev() {
        let i = cut[r][j];
        grouped[i..j].fill(r - 1);
        j = i;
    }
    grouped
}

/// The buses of a channel: pieces across the flow that share an end share one. Also each
/// piece's bus (none for a piece straight along the flow).
fn buses(pieces: &[Piece]) -> (Vec<Bus>, Vec<Option<usize>>) {
    let n = pieces.len();
    let bent: Vec<usize> = (0..n)
        .filter(|&i| pieces[i].upper != pieces[i].lower)
        .collect();
    // Pieces sharing an end share a bus.
    let mut bus_of: Vec<usize> = (0..n).collect();
    fn root(bus_of: &mut [usize], mut i: usize) -> usize {
        while bus_of[i] != i {
            bus_of[i] = bus_of[bus_of[i]];
            i = bus_of[i];
        }
        i
    }
    for (k, &i) in bent.iter().enumerate() {
        for &j in &bent[k + 1..] {
            if pieces[i].upper == pieces[j].upper || pieces[i].lower == pieces[j].lower {
                let (a, b) = (root(&mut bus_of, i), root(&mut bus_of, j));
                bus_of[a] = b;
            }
        }
    }
    let mut index = vec![usize::MAX; n];
    let mut buses: Vec<Bus> = Vec::new();
    for &i in &bent {
        let r = root(&mut bus_of, i);
        if index[r] == usize::MAX {
            index[r] = buses.len();
            buses.push(Bus {
                uppers: Vec::new(),
                lowers: Vec::new(),
                low: f64::INFINITY,
                high: f64::NEG_INFINITY,
            });
        }
        let bus = &mut buses[index[r]];
        let p = pieces[i];
        if !bus.uppers.contains(&p.upper) {
            bus.uppers.push(p.upper);
        }
        if !bus.lowers.contains(&p.lower) {
            bus.lowers.push(p.lower);
        }
        bus.low = bus.low.min(p.upper).min(p.lower);
        bus.high = bus.high.max(p.upper).max(p.lower);
    }
    let of = (0..n)
        .map(|i| Some(index[root(&mut bus_of, i)]).filter(|&b| b != usize::MAX))
        .collect();
    (buses, of)
}

/// Each bus's track (0 nearest the upper layer), and how many tracks there are.
fn bus_tracks(buses: &[Bus]) -> (Vec<usize>, usize) {
    // Buses that meet get different tracks, the one whose order crosses less nearer the
    // upper layer (ties: the one starting further left, for a stable drawing).
    let mut before: Vec<(usize, usize)> = Vec::new();
    for a in 0..buses.len() {
        for b in a + 1..buses.len() {
            if !buses[a].meets(&buses[b]) {
                continue;
            }
            let (ab, ba) = (
                buses[a].crossings_above(&buses[b]),
                buses[b].crossings_above(&buses[a]),
            );
            if ab < ba || (ab == ba && buses[a].low <= buses[b].low) {
                before.push((a, b));
            } else {
                before.push((b, a));
            }
        }
    }
    let turned = back_edges(buses.len(), &before);
    let mut above: Vec<Vec<usize>> = vec![Vec::new(); buses.len()];
    for (&(a, b), t) in before.iter().zip(turned) {
        if t {
            above[a].push(b);
        } else {
            above[b].push(a);
        }
    }
    let mut track: Vec<Option<usize>> = vec![None; buses.len()];
    fn track_of(b: usize, above: &[Vec<usize>], track: &mut [Option<usize>]) -> usize {
        if let Some(t) = track[b] {
            return t;
        }
        let t = above[b]
            .clone()
            .into_iter()
            .map(|a| track_of(a, above, track) + 1)
            .max()
            .unwrap_or(0);
        track[b] = Some(t);
        t
    }
    let mut count = 0;
    for b in 0..buses.len() {
        count = count.max(track_of(b, &above, &mut track) + 1);
    }
    (track.into_iter().map(|t| t.unwrap_or(0)).collect(), count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(upper: f64, lower: f64) -> Piece {
        Piece { upper, lower }
    }

    #[test]
    fn extra_tracks_go_where_the_most_buses_share_one() {
        // Channels wanting 1, 6, 3 and 0 tracks, one each at most: the three extra go to the
        // second channel twice (6 on 1, then 6 on 2) and then the third (3 on 1 against 6 on
        // 3); none goes where nothing is wanted.
        assert_eq!(given_tracks(&[1, 6, 3, 0], 1, 0), vec![1, 1, 1, 0]);
        assert_eq!(given_tracks(&[1, 6, 3, 0], 1, 3), vec![1, 3, 2, 0]);
        // More extra than wanted: each channel its own tracks, no more.
        assert_eq!(given_tracks(&[1, 6, 3, 0], 1, 50), vec![1, 6, 3, 0]);
    }

    #[test]
    fn tracks_merge_in_order_where_the_fewest_runs_fall_on_one_another() {
        // Three tracks in room for two: spread evenly, the first two would share one, and the
        // runs 0..2 and 1..3 would lie along each other; the last two share instead.
        let pieces = [piece(0.0, 2.0), piece(1.0, 3.0), piece(5.0, 8.0)];
        assert_eq!(merged_tracks(&pieces, &[0, 1, 2], 3, 2), vec![0, 1, 1]);
        // Nothing along each other either way: spread evenly.
        let apart = [piece(0.0, 2.0), piece(3.0, 4.0), piece(5.0, 8.0)];
        assert_eq!(merged_tracks(&apart, &[0, 1, 2], 3, 2), vec![0, 0, 1]);
        // One track: all on it; room for all: each its own.
        assert_eq!(merged_tracks(&pieces, &[0, 1, 2], 3, 1), vec![0, 0, 0]);
        assert_eq!(merged_tracks(&pieces, &[0, 1, 2], 3, 5), vec![0, 1, 2]);
    }

    /// Crossings of the pieces drawn on their tracks (further from the upper layer as the
    /// track grows): a piece's runs along the flow against another's run across it.
    fn crossings(pieces: &[Piece], track: &[usize]) -> usize {
        let mut count = 0;
        for (i, a) in pieces.iter().enumerate() {
            if a.upper == a.lower {
                continue;
            }
            let (lo, hi) = (a.upper.min(a.lower), a.upper.max(a.lower));
            let inside = |x: f64| x > lo && x < hi;
            for (j, b) in pieces.iter().enumerate() {
                if i == j {
                    continue;
                }
                if b.upper == b.lower {
                    count += usize::from(inside(b.upper));
                    continue;
                }
                count += usize::from(inside(b.upper) && track[j] > track[i]);
                count += usize::from(inside(b.lower) && track[j] < track[i]);
            }
        }
        count
    }

    #[test]
    fn a_piece_ending_where_another_starts_goes_below_it() {
        // The first piece enters the lower layer at 4, where the second leaves the upper one:
        // with the first nearer the upper layer, their runs along the flow would overlap.
        let (t, _) = tracks(&[piece(0.0, 4.0), piece(4.0, 9.0)]);
        assert!(t[0] > t[1], "{t:?}");
        let (t, _) = tracks(&[piece(4.0, 9.0), piece(0.0, 4.0)]);
        assert!(t[1] > t[0], "{t:?}");
    }

    #[test]
    fn straight_pieces_need_no_track() {
        let (t, count) = tracks(&[piece(1.0, 1.0), piece(3.0, 3.0)]);
        assert_eq!((t, count), (vec![0, 0], 0));
    }

    #[test]
    fn pieces_that_do_not_meet_share_a_track() {
        let (t, count) = tracks(&[piece(0.0, 2.0), piece(5.0, 8.0)]);
        assert_eq!((t, count), (vec![0, 0], 1));
    }

    #[test]
    fn a_fan_is_one_bus() {
        let (t, count) = tracks(&[piece(5.0, 0.0), piece(5.0, 4.0), piece(5.0, 9.0)]);
        assert_eq!((t, count), (vec![0, 0, 0], 1));
    }

    #[test]
    fn pieces_in_order_are_tracked_without_crossings() {
        // Three lines all going right, overlapping: the one leaving furthest right goes
        // nearest the upper layer; and two going left.
        let pieces = [
            piece(0.0, 6.0),
            piece(2.0, 8.0),
            piece(4.0, 10.0),
            piece(20.0, 12.0),
            piece(22.0, 14.0),
        ];
        let (t, count) = tracks(&pieces);
        assert_eq!(crossings(&pieces, &t), 0, "{t:?}");
        assert_eq!(count, 3);
        assert!(t[2] < t[1] && t[1] < t[0], "{t:?}");
        assert!(t[3] < t[4], "{t:?}");
    }
}
