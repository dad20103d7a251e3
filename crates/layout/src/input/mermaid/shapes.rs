//! Node shapes: the bracket forms (`[..]`, `(..)`, `([..])`, `[(..)]`, `{{..}}`, …) and the
//! shape names of `@{ shape: … }` (Mermaid 11's list, with their aliases), each mapped onto
//! the catalogue's [`Shape`]. A shape with no close component is drawn as a box and noted.

use crate::catalogue::Shape;

/// The bracket forms: opener, closers (the first found ends the text) and the shape.
/// Longer openers come first so `((` is not read as `(`.
const BRACKETS: [(&str, &[&str], Shape); 13] = [
    ("(((", &[")))"], Shape::Circle),
    ("((", &["))"], Shape::Circle),
    ("(-", &["-)"], Shape::Rounded),
    ("([", &["])"], Shape::Rounded),
    ("(", &[")"], Shape::Rounded),
    ("[[", &["]]"], Shape::Subroutine),
    ("[(", &[")]"], Shape::Cylinder),
    ("[/", &["/]", "\\]"], Shape::Parallelogram),
    ("[\\", &["\\]", "/]"], Shape::Parallelogram),
    ("[", &["]"], Shape::Rectangle),
    ("{{", &["}}"], Shape::Hexagon),
    ("{", &["}"], Shape::Rhombus),
    (">", &["]"], Shape::Flag),
];

/// A bracket form at the start of `s`: its opener's length, closers and shape.
pub(super) fn bracket(s: &str) -> Option<(usize, &'static [&'static str], Shape)> {
    BRACKETS
        .iter()
        .find(|(open, ..)| s.starts_with(open))
        .map(|(open, close, shape)| (open.len(), *close, *shape))
}

/// The shape a `shape:` name stands for; `Err(())` for a name with no close component (drawn
/// as a box), `None` for a name Mermaid does not know.
pub(super) fn named(name: &str) -> Option<Result<Shape, ()>> {
    let shape = match name {
        "rect" | "proc" | "process" | "rectangle" | "square" | "notch-rect" | "card"
        | "notched-rectangle" | "div-rect" | "div-proc" | "divided-rectangle"
        | "divided-process" | "win-pane" | "internal-storage" | "window-pane" | "tag-rect"
        | "tagged-rectangle" | "tag-proc" | "tagged-process" | "lin-rect" | "lined-rectangle"
        | "lined-process" | "lin-proc" | "shaded-process" => Shape::Rectangle,
        "rounded"
        | "event"
        | "round"
        | "stadium"
        | "terminal"
        | "pill"
        | "delay"
        | "half-rounded-rectangle"
        | "ellipse" => Shape::Rounded,
        "fr-rect" | "subprocess" | "subproc" | "framed-rectangle" | "subroutine" | "st-rect"
        | "procs" | "processes" | "stacked-rectangle" => Shape::Subroutine,
        "cyl"
        | "db"
        | "database"
        | "cylinder"
        | "datastore"
        | "data-store"
        | "h-cyl"
        | "das"
        | "horizontal-cylinder"
        | "lin-cyl"
        | "disk"
        | "lined-cylinder"
        | "bow-rect"
        | "stored-data"
        | "bow-tie-rectangle" => Shape::Cylinder,
        "circle" | "circ" | "doublecircle" | "dbl-circ" | "double-circle" | "sm-circ" | "start"
        | "small-circle" | "fr-circ" | "stop" | "framed-circle" | "f-circ" | "junction"
        | "filled-circle" | "cross-circ" | "summary" | "crossed-circle" => Shape::Circle,
        "diam" | "decision" | "diamond" | "question" => Shape::Rhombus,
        "hex" | "hexagon" | "prepare" => Shape::Hexagon,
        "lean-r" | "lean-right" | "in-out" | "lean_right" | "lean-l" | "lean-left" | "out-in"
        | "lean_left" | "trap-b" | "priority" | "trapezoid-bottom" | "trapezoid" | "trap-t"
        | "manual" | "trapezoid-top" | "inv-trapezoid" | "inv_trapezoid" | "sl-rect"
        | "manual-input" | "sloped-rectangle" | "curv-trap" | "curved-trapezoid" | "display"
        | "notch-pent" | "loop-limit" | "notched-pentagon" => Shape::Parallelogram,
        "odd" | "flag" | "paper-tape" => Shape::Flag,
        "doc" | "document" | "docs" | "documents" | "st-doc" | "stacked-document" | "tag-doc"
        | "tagged-document" | "lin-doc" | "lined-document" | "manual-file" | "flip-tri"
        | "flipped-triangle" => Shape::Document,
        "bang" | "cloud" | "text" | "fork" | "join" | "hourglass" | "collate" | "brace"
        | "comment" | "brace-l" | "brace-r" | "braces" | "bolt" | "com-link" | "lightning-bolt"
        | "tri" | "extract" | "triangle" | "icon" | "image" | "anchor" => {
            return Some(Err(()));
        }
        _ => return None,
    };
    Some(Ok(shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_prefer_the_longest_opener() {
        for (s, shape) in [
            ("(((x)))", Shape::Circle),
            ("((x))", Shape::Circle),
            ("([x])", Shape::Rounded),
            ("(x)", Shape::Rounded),
            ("[[x]]", Shape::Subroutine),
            ("[(x)]", Shape::Cylinder),
            ("[/x/]", Shape::Parallelogram),
            ("[\\x\\]", Shape::Parallelogram),
            ("[x]", Shape::Rectangle),
            ("{{x}}", Shape::Hexagon),
            ("{x}", Shape::Rhombus),
            (">x]", Shape::Flag),
        ] {
            assert_eq!(bracket(s).map(|b| b.2), Some(shape), "{s}");
        }
        assert!(bracket("@{ shape: rect }").is_none());
    }

    #[test]
    fn every_name_in_the_brief_is_known() {
        for name in [
            "rect",
            "rounded",
            "stadium",
            "fr-rect",
            "cyl",
            "circle",
            "diam",
            "hex",
            "lean-r",
            "lean-l",
            "trap-b",
            "trap-t",
            "doc",
            "docs",
            "procs",
            "das",
            "manual-file",
            "manual-input",
            "paper-tape",
        ] {
            assert!(matches!(named(name), Some(Ok(_))), "{name}");
        }
        assert_eq!(named("cyl"), Some(Ok(Shape::Cylinder)));
        assert_eq!(named("hex"), Some(Ok(Shape::Hexagon)));
        assert_eq!(named("cloud"), Some(Err(())));
        assert_eq!(named("blob"), None);
    }
}
