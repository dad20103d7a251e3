//! The object model's unit tests.

use super::*;
use serde_json::json;

#[test]
fn content_read_in_parts_on_several_threads_is_the_content_read_whole() {
    // More than two parts' worth, types interleaved, one not among the known types.
    let kinds = ["label", "component", "sticker", "area"];
    let content: Content = (0..3 * PER_THREAD + 7)
        .map(|i| {
            let data = json!({"name": format!("n{i}"), "meta": {"k": i % 3}});
            let object = DiagramObject {
                kind: kinds[i % kinds.len()].into(),
                data: serde_json::from_value(data).unwrap(),
            };
            (format!("o{i:06}"), object)
        })
        .collect();
    let text = serde_json::to_vec(&content).unwrap();
    // Three threads, whatever the machine has: the parts are three, not one.
    let parts = ObjectModel::from_json_on(&text, 3).unwrap();
    let whole = ObjectModel::new(content);
    assert_eq!(parts.len(), whole.len());
    assert_eq!(parts.groups(), whole.groups());
    for i in [0, 1, PER_THREAD, 2 * PER_THREAD + 1, whole.len() - 1] {
        assert_eq!(parts.entry(i).id, whole.entry(i).id);
        assert_eq!(parts.entry(i).kind, whole.entry(i).kind);
        assert_eq!(parts.entry(i).data(), whole.entry(i).data());
    }
}

#[test]
fn data_named_reads_only_the_named_properties_in_the_datas_order() {
    let model = ObjectModel::from_json(
        br#"{"c1": {"type": "component", "data": {"name": "a", "m\u0065ta": {"x": [1]}, "z": 1, "text": "t"}}}"#,
    )
    .unwrap();
    let names = json!({"text": 0, "meta": 0, "absent": 0});
    let named = model.entry(0).data_named(names.as_object().unwrap());
    assert_eq!(
        serde_json::to_string(&named).unwrap(),
        r#"{"meta":{"x":[1]},"text":"t"}"#
    );
}
