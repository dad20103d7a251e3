//! The bundled glyph set: one small line drawing per component category (the first part of
//! its `componentId`), drawn on the top of a component's block in the 3D picture. Each is SVG
//! path data in a box from −1 to 1 each way, drawn as strokes without fill.

/// The glyph of a category (`database` of `database.postgres`); a plain ring for the rest.
pub(super) fn glyph(category: &str) -> &'static str {
    match category {
        // A cylinder.
        "database" => {
            "M-0.7 -0.5A0.7 0.25 0 0 0 0.7 -0.5A0.7 0.25 0 0 0 -0.7 -0.5V0.5A0.7 0.25 0 0 0 0.7 0.5V-0.5"
        }
        // A bucket.
        "storage" => "M-0.75 -0.55H0.75L0.5 0.75H-0.5ZM-0.68 -0.2H0.68",
        // A globe.
        "networking" => {
            "M-0.8 0A0.8 0.8 0 1 0 0.8 0A0.8 0.8 0 1 0 -0.8 0ZM-0.8 0H0.8M0 -0.8A0.35 0.8 0 0 0 0 0.8A0.35 0.8 0 0 0 0 -0.8"
        }
        // A chip with pins.
        "computation" | "container" => {
            "M-0.5 -0.5H0.5V0.5H-0.5ZM-0.2 -0.5V-0.8M0.2 -0.5V-0.8M-0.2 0.5V0.8M0.2 0.5V0.8M-0.5 -0.2H-0.8M-0.5 0.2H-0.8M0.5 -0.2H0.8M0.5 0.2H0.8"
        }
        // A lightning bolt.
        "cache" => "M0.15 -0.8L-0.45 0.1H0L-0.15 0.8L0.45 -0.1H0Z",
        // An envelope.
        "messaging" => "M-0.8 -0.5H0.8V0.5H-0.8ZM-0.8 -0.5L0 0.1L0.8 -0.5",
        // A shield.
        "security" => {
            "M0 -0.8L0.65 -0.5V0C0.65 0.45 0.3 0.7 0 0.85C-0.3 0.7 -0.65 0.45 -0.65 0V-0.5Z"
        }
        // A pulse.
        "monitoring" => "M-0.8 0H-0.4L-0.2 -0.6L0.1 0.6L0.3 0H0.8",
        // Bars.
        "analytics" => "M-0.8 0.7H0.8M-0.5 0.7V0M-0.1 0.7V-0.6M0.3 0.7V-0.2M0.65 0.7V-0.8",
        // A wheel.
        "data-processing" => {
            "M-0.35 0A0.35 0.35 0 1 0 0.35 0A0.35 0.35 0 1 0 -0.35 0ZM0 -0.8V-0.35M0 0.35V0.8M-0.8 0H-0.35M0.35 0H0.8"
        }
        // A spark.
        "ai" => "M0 -0.8Q0.1 -0.1 0.8 0Q0.1 0.1 0 0.8Q-0.1 0.1 -0.8 0Q-0.1 -0.1 0 -0.8Z",
        // Braces.
        "api" => {
            "M-0.3 -0.7Q-0.6 -0.7 -0.5 -0.3Q-0.45 0 -0.75 0Q-0.45 0 -0.5 0.3Q-0.6 0.7 -0.3 0.7M0.3 -0.7Q0.6 -0.7 0.5 -0.3Q0.45 0 0.75 0Q0.45 0 0.5 0.3Q0.6 0.7 0.3 0.7"
        }
        _ => "M-0.6 0A0.6 0.6 0 1 0 0.6 0A0.6 0.6 0 1 0 -0.6 0Z",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_have_their_own_glyphs_and_the_rest_share_one() {
        assert_ne!(glyph("database"), glyph("storage"));
        assert_eq!(glyph("generic"), glyph("no such category"));
        assert_ne!(glyph("generic"), glyph("networking"));
    }
}
