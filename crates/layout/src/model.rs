//! An input checked and resolved: components, groups (a tree) and links, each referring to the
//! others by index. Built by [`check`](crate::check); laid out by [`place`](crate::place).

use serde_json::{Map, Value};

/// The direction a flow runs in: where a link's target goes from its source.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Top to bottom (`TB`, `TD`): the default.
    #[default]
    TopBottom,
    /// Bottom to top (`BT`).
    BottomTop,
    /// Left to right (`LR`).
    LeftRight,
    /// Right to left (`RL`).
    RightLeft,
}

impl Direction {
    /// The names entries use, with the direction each stands for.
    pub const NAMES: [(&'static str, Direction); 5] = [
        ("TB", Direction::TopBottom),
        ("TD", Direction::TopBottom),
        ("BT", Direction::BottomTop),
        ("LR", Direction::LeftRight),
        ("RL", Direction::RightLeft),
    ];

    /// Its name: `TB`, `BT`, `LR` or `RL`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::TopBottom => "TB",
            Direction::BottomTop => "BT",
            Direction::LeftRight => "LR",
            Direction::RightLeft => "RL",
        }
    }

    /// The direction across this one: `LR` for `TB`, `RL` for `BT`, and back.
    pub fn turned(self) -> Direction {
        match self {
            Direction::TopBottom => Direction::LeftRight,
            Direction::BottomTop => Direction::RightLeft,
            Direction::LeftRight => Direction::TopBottom,
            Direction::RightLeft => Direction::BottomTop,
        }
    }

    /// The direction a name (`TB`, `TD`, `BT`, `LR`, `RL`, any case) stands for.
    pub fn from_name(name: &str) -> Option<Direction> {
        let name = name.trim();
        Direction::NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, d)| d)
    }

    /// Whether the flow runs along the x axis.
    pub fn is_horizontal(self) -> bool {
        matches!(self, Direction::LeftRight | Direction::RightLeft)
    }
}

/// A checked input.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// The direction of the whole diagram's flow.
    pub direction: Direction,
    /// The components, in input order.
    pub components: Vec<Component>,
    /// The groups, in the order they were first named.
    pub groups: Vec<Group>,
    /// The links, in the order they were first declared.
    pub links: Vec<Link>,
    /// The links from a component to itself, in the order they were declared: left out of the
    /// layout and drawn as a small loop beside their component ([`crate::objects`]).
    pub loops: Vec<Link>,
}

impl Model {
    /// Whether the diagram keeps the tier layout: some component gives its `tier`. Else it is
    /// laid out in layers along its flow.
    pub fn uses_tiers(&self) -> bool {
        self.components.iter().any(|c| c.tier_given)
    }

    /// The direction of the flow inside a container (a group, or the diagram for `None`): its
    /// own, else its parent's.
    pub fn direction_in(&self, mut container: Option<usize>) -> Direction {
        while let Some(g) = container {
            if let Some(d) = self.groups[g].direction {
                return d;
            }
            container = self.groups[g].parent;
        }
        self.direction
    }

    /// How many groups hold group `g` (0: it lies in the diagram itself).
    pub fn depth(&self, mut g: usize) -> usize {
        let mut d = 0;
        while let Some(p) = self.groups[g].parent {
            d += 1;
            g = p;
        }
        d
    }
}

/// A component entry.
#[derive(Debug, Clone)]
pub struct Component {
    /// Its id (the object's id).
    pub id: String,
    /// Its `componentType`.
    pub component_id: String,
    /// The innermost group it sits in, if any.
    pub group: Option<usize>,
    /// Its tier (0 front to 6 rear by default; any number given).
    pub tier: f64,
    /// Whether the entry gave its `tier` (then the diagram keeps the tier layout).
    pub tier_given: bool,
    /// Text shown under it.
    pub label: Option<String>,
    /// How it is placed.
    pub position: Position,
    /// The component object's other properties (`meta` among them).
    pub props: Map<String, Value>,
}

/// How a component is placed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Position {
    /// By the layout.
    Auto,
    /// At these coordinates.
    Absolute {
        /// x.
        x: f64,
        /// y.
        y: f64,
    },
    /// Offset from another component or a point of a group's border.
    Relative {
        /// What it is placed from.
        to: Anchor,
        /// The x offset.
        x: f64,
        /// The y offset.
        y: f64,
    },
}

/// What a relative position starts from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Anchor {
    /// A component's position (its index).
    Component(usize),
    /// A point of a group's border: the group's index and the point's fractions across and
    /// down (0, 0.5 or 1).
    Group(usize, f64, f64),
}

/// A group, explicit or implied.
#[derive(Debug, Clone)]
pub struct Group {
    /// Its id (the area's id).
    pub id: String,
    /// The group it sits in, if any.
    pub parent: Option<usize>,
    /// The direction of the flow inside it, when it has its own (else its parent's).
    pub direction: Option<Direction>,
    /// Its caption and how it is drawn.
    pub label: Option<GroupLabel>,
    /// The area's properties.
    pub props: Map<String, Value>,
}

/// A group's caption.
#[derive(Debug, Clone)]
pub struct GroupLabel {
    /// The text.
    pub text: String,
    /// A band below the bottom edge (`block`), or text on an edge (`inline`).
    pub block: bool,
    /// `left`, `center` or `right` along the edge (inline).
    pub align: &'static str,
    /// The edge, top when true (inline).
    pub top: bool,
    /// `above`, `on` or `below` the border line (inline).
    pub placement: &'static str,
    /// The text's font size.
    pub font_size: f64,
    /// The label object's other properties (colour, font style, outline).
    pub props: Map<String, Value>,
    /// Whether the entry gave the text's colour (`labelFontColor`).
    pub colour_given: bool,
}

/// Something a link ends at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    /// A component (its index).
    Component(usize),
    /// A group (its index).
    Group(usize),
}

/// A link between two ends, drawn as a line group.
#[derive(Debug, Clone)]
pub struct Link {
    /// The line group's id: the connection entry's, else `from->to`.
    pub id: String,
    /// Where it starts.
    pub from: End,
    /// Where it ends.
    pub to: End,
    /// An arrowhead at the start.
    pub arrow_start: bool,
    /// An arrowhead at the end.
    pub arrow_end: bool,
    /// The line group's properties (`strokeStyle`, `lineWidth`, `lineDash`, ...).
    pub props: Map<String, Value>,
    /// A component drawn on the middle of the line (its `componentType`).
    pub middle: Option<String>,
    /// A caption on the middle of the line (under the component, if there is one).
    pub label: Option<String>,
    /// Laid out as a link but not drawn (Mermaid's `~~~`, DOT's `style=invis`).
    pub invisible: bool,
    /// The least number of layers the link spans in the layered layout (1 unless given).
    pub min_length: usize,
}
