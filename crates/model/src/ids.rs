//! Identifiers and timestamps in the shapes the API uses.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use time::OffsetDateTime;
use time::format_description::well_known::Iso8601;
use time::format_description::well_known::iso8601::{Config, EncodedConfig, TimePrecision};

const BASE36: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
/// Width of the time part: base-36 milliseconds fit in 9 digits until the year 5188.
const TIME_DIGITS: usize = 9;
const RANDOM_DIGITS: usize = 9;

fn base36(mut n: u64, width: usize) -> String {
    let mut digits = vec![b'0'; width];
    for slot in digits.iter_mut().rev() {
        *slot = BASE36[(n % 36) as usize];
        n /= 36;
    }
    String::from_utf8(digits).expect("base-36 digits are ASCII")
}

/// The last time part handed out, so that ids made in one millisecond still sort in order.
static LAST_TICK: Mutex<u64> = Mutex::new(0);

/// A new object id such as `0mi8f3k2a-q6lfvkevo`: lowercase base-36, a time-ordered part, `-`,
/// a random part. Ids made by one process sort by creation time.
pub fn new_object_id() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default();
    let tick = {
        let mut last = LAST_TICK.lock().unwrap_or_else(|e| e.into_inner());
        *last = (*last + 1).max(now);
        *last
    };
    let random: String = random_bytes::<RANDOM_DIGITS>()
        .iter()
        .map(|byte| BASE36[usize::from(*byte) % 36] as char)
        .collect();
    format!("{}-{random}", base36(tick, TIME_DIGITS))
}

/// `N` bytes from the operating system's random source. (A byte modulo 36 leans slightly
/// toward the first four digits, which does not matter for the random part of an object id.)
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes
}

/// A new document, folder or user id: a random UUID.
pub fn new_uuid() -> String {
    uuid::Uuid::new_v4().to_string()
}

const TIMESTAMP: EncodedConfig = Config::DEFAULT
    .set_time_precision(TimePrecision::Second {
        decimal_digits: std::num::NonZeroU8::new(3),
    })
    .encode();

/// Formats a time as ISO 8601 UTC with milliseconds: `2026-11-21T11:08:13.123Z`.
pub fn format_timestamp(at: OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC)
        .format(&Iso8601::<TIMESTAMP>)
        .expect("every UTC time formats")
}

/// The current time as ISO 8601 UTC with milliseconds.
pub fn now_timestamp() -> String {
    format_timestamp(OffsetDateTime::now_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_ids_have_the_shape_and_sort_by_creation() {
        let ids: Vec<String> = (0..1000).map(|_| new_object_id()).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted);
        for id in &ids {
            let (t, r) = id.split_once('-').unwrap();
            assert_eq!((t.len(), r.len()), (TIME_DIGITS, RANDOM_DIGITS));
            assert!(
                id.chars()
                    .all(|c| c == '-' || c.is_ascii_digit() || c.is_ascii_lowercase())
            );
        }
    }

    #[test]
    fn timestamps_are_utc_with_milliseconds() {
        let t = OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_123_456_789).unwrap();
        assert_eq!(format_timestamp(t), "2023-11-14T22:13:20.123Z");
    }
}
