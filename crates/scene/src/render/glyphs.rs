//! The bundled glyph set: one small line drawing per component category (the first part of
//! its `componentId`), drawn on a component's box in 2D and on the top of its block in 3D. A
//! generic component (`generic.*`) takes the glyph of the kind its type names
//! (`generic.database` a cylinder, `generic.loadbalancer` a globe). Each is SVG path data in
//! a box from −1 to 1 each way, drawn as strokes without fill.

use std::fmt::Write as _;

use crate::Rgb;

/// Writes the glyph of `component_id`, mapped by `matrix` (the SVG `matrix(a b c d e f)`
/// taking the glyph's box to the picture), stroked in `colour`.
pub(super) fn draw(out: &mut String, component_id: &str, matrix: [f64; 6], colour: Rgb) {
    let [a, b, c, d, e, f] = matrix;
    let _ = write!(
        out,
        "<path d=\"{}\" transform=\"matrix({a:.4} {b:.4} {c:.4} {d:.4} {e:.2} {f:.2})\" \
         fill=\"none\" stroke=\"{}\" stroke-width=\"0.12\" stroke-linejoin=\"round\" \
         stroke-linecap=\"round\"/>",
        glyph(component_id),
        colour.hex()
    );
}

/// The glyph of a componentId: its category's (`database` of `database.postgres`), or for a
/// generic component its kind's.
pub(super) fn glyph(component_id: &str) -> &'static str {
    let (category, rest) = component_id.split_once('.').unwrap_or((component_id, ""));
    match category {
        "generic" => shape(generic_kind(rest)),
        category => shape(category),
    }
}

/// The kind a generic type (`database` of `generic.database`) is drawn as: a category's
/// glyph, or one of the glyphs only generic types use.
fn generic_kind(kind: &str) -> &str {
    match kind.strip_prefix("generic-").unwrap_or(kind) {
        "database" | "objectdb" | "timeseriesdb" | "data-warehouse" | "keyvalue" => "database",
        "bucket" | "disk-storage" | "physical-data-transfer-device" => "storage",
        "cache" => "cache",
        "message-queue" | "enterprise-service-bus" | "message-bus" | "event-hub" | "email" => {
            "messaging"
        }
        "loadbalancer" | "loadbalancer-alt" | "gateway" | "cdn" | "router" | "network-router"
        | "network-switch" => "networking",
        "api-gateway" => "api",
        "server" | "processor" | "batch-processor" | "stream-processor" | "mapreduce"
        | "scheduler" | "orchestrator" | "container" | "container-registry" | "cube" => {
            "computation"
        }
        "firewall" | "vault" | "identity-provider" => "security",
        "monitoring" | "logging" => "monitoring",
        "analytics" | "piechart" | "funnel" => "analytics",
        "event-processing-engine" => "data-processing",
        "neural-net" | "brain" | "bot" | "speech" | "vision" | "genetics" => "ai",
        "pc" | "smartphone" | "billboard" | "billboard-large" | "media-player" => "screen",
        "search" => "search",
        "cloud" => "cloud",
        "connection" => "point",
        _ => "",
    }
}

/// The drawing of a category or kind; a plain ring for the rest.
fn shape(kind: &str) -> &'static str {
    match kind {
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
        // A screen on a stand.
        "screen" => "M-0.8 -0.6H0.8V0.4H-0.8ZM0 0.4V0.75M-0.4 0.75H0.4",
        // A magnifying glass.
        "search" => {
            "M-0.65 -0.2A0.45 0.45 0 1 0 0.25 -0.2A0.45 0.45 0 1 0 -0.65 -0.2ZM0.12 0.12L0.7 0.7"
        }
        // A cloud.
        "cloud" => {
            "M-0.55 0.45H0.55A0.3 0.3 0 0 0 0.6 -0.15A0.4 0.4 0 0 0 -0.05 -0.45A0.35 0.35 0 0 0 -0.6 -0.1A0.28 0.28 0 0 0 -0.55 0.45Z"
        }
        // A point where a flow starts, ends or joins: a ring round a dot.
        "point" => {
            "M-0.6 0A0.6 0.6 0 1 0 0.6 0A0.6 0.6 0 1 0 -0.6 0ZM-0.15 0A0.15 0.15 0 1 0 0.15 0A0.15 0.15 0 1 0 -0.15 0Z"
        }
        _ => "M-0.6 0A0.6 0.6 0 1 0 0.6 0A0.6 0.6 0 1 0 -0.6 0Z",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_have_their_own_glyphs_and_the_rest_share_one() {
        assert_ne!(glyph("database.postgres"), glyph("storage.aws-s3"));
        assert_eq!(glyph("generic.block"), glyph("no-such-category.x"));
        assert_eq!(glyph("generic.block"), glyph(""));
        assert_ne!(glyph("generic.block"), glyph("networking.nginx"));
    }

    #[test]
    fn generic_types_take_the_glyph_of_their_kind() {
        assert_eq!(glyph("generic.database"), glyph("database.postgres"));
        assert_eq!(glyph("generic.cache"), glyph("cache.redis"));
        assert_eq!(glyph("generic.message-queue"), glyph("messaging.rabbitmq"));
        assert_eq!(glyph("generic.loadbalancer"), glyph("networking.nginx"));
        assert_eq!(
            glyph("generic.generic-monitoring"),
            glyph("monitoring.kibana")
        );
        assert_eq!(glyph("generic.server"), glyph("computation.aws-ec2"));
        for own in [
            "generic.pc",
            "generic.search",
            "generic.cloud",
            "generic.connection",
        ] {
            assert_ne!(glyph(own), glyph("generic.block"), "{own}");
        }
    }

    #[test]
    fn every_generic_type_of_the_catalogue_but_the_plain_ones_has_a_glyph_of_its_kind() {
        let plain = ["generic.block", "generic.image", "generic.generic-triangle"];
        let catalogue = include_str!("../../../../assets/component-ids.txt");
        for id in catalogue.lines().filter(|l| l.starts_with("generic.")) {
            let id = id.trim();
            if !plain.contains(&id) {
                assert_ne!(glyph(id), glyph("generic.block"), "{id}");
            }
        }
    }
}
