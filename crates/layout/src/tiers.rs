//! A component's default tier: 0 (front) to 6 (rearmost), from the category of its
//! `componentId`; `generic.*` components by what their name says (ours, see
//! docs/create-diagram.md).

/// Categories and their tiers, as the hosted service documented them.
const CATEGORIES: [(&str, f64); 17] = [
    ("ai", 6.0),
    ("analytics", 6.0),
    ("storage", 6.0),
    ("database", 5.0),
    ("data-processing", 4.0),
    ("monitoring", 4.0),
    ("devops", 4.0),
    ("media", 3.0),
    ("messaging", 3.0),
    ("computation", 2.0),
    ("container", 2.0),
    ("cache", 2.0),
    ("security", 1.0),
    ("api", 1.0),
    ("networking", 1.0),
    ("iot", 0.0),
    ("client", 0.0),
];

/// Words in a `generic.*` name and the tier of the category they belong to; the first that
/// the name contains wins.
const GENERIC_WORDS: [(&str, f64); 29] = [
    ("pc", 0.0),
    ("smartphone", 0.0),
    ("billboard", 0.0),
    ("database", 5.0),
    ("db", 5.0),
    ("keyvalue", 5.0),
    ("analytics", 6.0),
    ("warehouse", 6.0),
    ("bucket", 6.0),
    ("storage", 6.0),
    ("neural", 6.0),
    ("brain", 6.0),
    ("vision", 6.0),
    ("speech", 6.0),
    ("mapreduce", 4.0),
    ("stream-processor", 4.0),
    ("batch", 4.0),
    ("event-processing", 4.0),
    ("logging", 4.0),
    ("monitoring", 4.0),
    ("message", 3.0),
    ("event-hub", 3.0),
    ("service-bus", 3.0),
    ("gateway", 1.0),
    ("loadbalancer", 1.0),
    ("firewall", 1.0),
    ("router", 1.0),
    ("switch", 1.0),
    ("cdn", 1.0),
];

/// The tier of everything else.
pub const FALLBACK_TIER: f64 = 2.0;

/// The default tier of a component of this `componentId`.
pub fn default_tier(component_id: &str) -> f64 {
    let (category, name) = component_id.split_once('.').unwrap_or((component_id, ""));
    if category == "generic" {
        return GENERIC_WORDS
            .iter()
            .find(|(word, _)| name.contains(word))
            .map_or(FALLBACK_TIER, |(_, tier)| *tier);
    }
    CATEGORIES
        .iter()
        .find(|(known, _)| *known == category)
        .map_or(FALLBACK_TIER, |(_, tier)| *tier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_by_category_and_generic_name() {
        assert_eq!(default_tier("database.postgres"), 5.0);
        assert_eq!(default_tier("ai.sagemaker"), 6.0);
        assert_eq!(default_tier("networking.haproxy"), 1.0);
        assert_eq!(default_tier("iot.sensor"), 0.0);
        assert_eq!(default_tier("generic.pc"), 0.0);
        assert_eq!(default_tier("generic.database"), 5.0);
        assert_eq!(default_tier("generic.timeseriesdb"), 5.0);
        assert_eq!(default_tier("generic.message-queue"), 3.0);
        assert_eq!(default_tier("generic.server"), 2.0);
        assert_eq!(default_tier("aws.ec2"), 2.0);
    }
}
