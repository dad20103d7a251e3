//! Reading a Prometheus scrape: the text of `/metrics` and one series' value.

use reqwest::StatusCode;

/// The metrics text of a metrics listener.
pub async fn scrape(http: &reqwest::Client, metrics: &str) -> String {
    let answer = http.get(format!("{metrics}/metrics")).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let kind = answer.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(kind.starts_with("application/openmetrics-text"), "{kind}");
    answer.text().await.unwrap()
}

/// The value of the series line starting with `series` (name and labels), if present.
pub fn value_of(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map(|value| value.parse().unwrap())
}
