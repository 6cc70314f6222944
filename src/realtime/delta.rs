//! Merging two queued `game:` updates into one (CONTRACT.md › Update frames
//! stay small): a slow reader's outbox holds at most one update per game,
//! and it still continues from the version the reader has.
//!
//! An update says what changed `since` a version: the newer one's fields
//! describe the state now, `entries` and `undone` add up, `penalties` and
//! `goalies` (present only when they changed) take the newer one's, else
//! the older one's, and `since` stays the older one's. An entry the newer
//! update took back goes from the older one's list.

use bytestring::ByteString;
use serde_json::{Map, Value};

use super::frame::{Frame, FrameKind};

/// The merge of `older` and `newer` (both updates of one topic). If either
/// is not an update we can read, the newer one alone: its `since` is then
/// past what the reader has, and the client repairs with a re-subscribe.
pub fn merge(older: &Frame, newer: Frame) -> Frame {
    let (Some(topic), Some(merged)) = (newer.topic().cloned(), merge_text(older.bytes(), newer.bytes())) else {
        return newer;
    };
    Frame::of_topic(FrameKind::Update, topic, newer.seq(), ByteString::from(merged))
}

fn merge_text(older: &[u8], newer: &[u8]) -> Option<String> {
    let older: Value = serde_json::from_slice(older).ok()?;
    let mut newer: Value = serde_json::from_slice(newer).ok()?;
    let old = older.get("data")?.as_object()?;
    let data = newer.get_mut("data")?.as_object_mut()?;
    merge_data(old, data);
    Some(newer.to_string())
}

fn merge_data(old: &Map<String, Value>, data: &mut Map<String, Value>) {
    if let Some(since) = old.get("since") {
        data.insert("since".into(), since.clone());
    }
    let undone_now: Vec<Value> = data.get("undone").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut entries: Vec<Value> = old
        .get("entries")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|e| !e.get("seq").is_some_and(|seq| undone_now.contains(seq)))
        .cloned()
        .collect();
    entries.extend(data.get("entries").and_then(Value::as_array).into_iter().flatten().cloned());
    data.insert("entries".into(), Value::Array(entries));
    let mut undone: Vec<Value> = old.get("undone").and_then(Value::as_array).cloned().unwrap_or_default();
    undone.extend(undone_now);
    if !undone.is_empty() {
        data.insert("undone".into(), Value::Array(undone));
    }
    for key in ["penalties", "goalies"] {
        if !data.contains_key(key)
            && let Some(value) = old.get(key)
        {
            data.insert(key.into(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;
    use std::sync::Arc;

    fn update(seq: i64, data: Value) -> Frame {
        let text = json!({"type": "update", "topic": "game:g", "seq": seq, "data": data}).to_string();
        Frame::of_topic(FrameKind::Update, Arc::from("game:g"), seq, ByteString::from(text))
    }

    fn data(frame: &Frame) -> Value {
        serde_json::from_slice::<Value>(frame.bytes()).unwrap()["data"].clone()
    }

    #[test]
    fn two_updates_merge_into_one_that_continues_from_the_older() {
        let older = update(
            5,
            json!({"since": 4, "version": 5, "homeScore": 1, "entries": [{"seq": 9}], "penalties": [{"seq": 7}]}),
        );
        let newer = update(6, json!({"since": 5, "version": 6, "homeScore": 2, "entries": [{"seq": 10}]}));
        let merged = merge(&older, newer);
        assert_eq!(merged.seq(), 6);
        let d = data(&merged);
        assert_eq!((d["since"].clone(), d["version"].clone(), d["homeScore"].clone()), (json!(4), json!(6), json!(2)));
        assert_eq!(d["entries"], json!([{"seq": 9}, {"seq": 10}]));
        assert_eq!(d["penalties"], json!([{"seq": 7}]), "the older list stands when the newer has none");
    }

    #[test]
    fn an_entry_the_newer_update_undid_leaves_the_merge() {
        let older = update(5, json!({"since": 4, "entries": [{"seq": 9}]}));
        let newer = update(6, json!({"since": 5, "entries": [], "undone": [9], "penalties": []}));
        let d = data(&merge(&older, newer));
        assert_eq!((d["entries"].clone(), d["undone"].clone()), (json!([]), json!([9])));
        assert_eq!(d["penalties"], json!([]));
    }

    #[test]
    fn an_unreadable_update_leaves_the_newer_alone() {
        let older = Frame::of_topic(FrameKind::Update, Arc::from("game:g"), 5, ByteString::from("not json"));
        let newer = update(6, json!({"since": 5}));
        assert_eq!(data(&merge(&older, newer))["since"], 5);
    }
}
