//! A container's items: its own components and the inner groups it holds (each an item,
//! whatever it holds), and the edges the links make between them.

use crate::model::{End, Position};
use crate::place::{COMPONENT_LABEL_FONT, text_box};

use super::{ItemEdge, Layout};

impl Layout<'_> {
    /// The item of `container` that holds group `g` (or is it), if any.
    fn item_group(&self, container: Option<usize>, mut g: usize) -> Option<usize> {
        loop {
            let parent = self.model.groups[g].parent;
            if parent == container {
                return Some(g);
            }
            g = parent?;
        }
    }

    /// The item of `container` (its components `comps`, then its inner groups `groups`) that
    /// holds `end`, if any.
    pub(super) fn item_of(
        &self,
        container: Option<usize>,
        comps: &[usize],
        groups: &[usize],
        end: End,
    ) -> Option<usize> {
        match end {
            End::Component(c) => {
                let comp = &self.model.components[c];
                if comp.position != Position::Auto {
                    return None;
                }
                if comp.group == container {
                    return comps.iter().position(|&x| x == c);
                }
                let g = self.item_group(container, comp.group?)?;
                groups.iter().position(|&x| x == g).map(|i| comps.len() + i)
            }
            End::Group(g) if Some(g) == container => None,
            End::Group(g) => {
                let g = self.item_group(container, g)?;
                groups.iter().position(|&x| x == g).map(|i| comps.len() + i)
            }
        }
    }

    /// The edges between the items of `container` (its components `comps`, then its inner
    /// groups `groups`): a link whose ends lie in two of them, with its label's size when
    /// labels take layers.
    pub(super) fn item_edges(
        &self,
        container: Option<usize>,
        comps: &[usize],
        groups: &[usize],
    ) -> Vec<ItemEdge> {
        let item_of = |end: End| self.item_of(container, comps, groups, end);
        let mut edges = Vec::new();
        for (l, link) in self.model.links.iter().enumerate() {
            let (Some(from), Some(to)) = (item_of(link.from), item_of(link.to)) else {
                continue;
            };
            if from == to {
                continue;
            }
            let label = link
                .label
                .as_deref()
                .filter(|_| self.gaps.label_layers)
                .map(|t| text_box(t, COMPONENT_LABEL_FONT));
            let min_length = link.min_length.max(if label.is_some() { 2 } else { 1 });
            edges.push(ItemEdge {
                from,
                to,
                link: l,
                min_length,
                label,
            });
        }
        edges
    }
}
