//! A small bounded memory of recent command-id replies, so a client's
//! retry (the common case: a reconnect right after a reply was lost) is
//! answered without a store lookup. The store remains the authority; this
//! only saves a query.

use std::collections::{HashMap, VecDeque};

use crate::store::StoredReply;

#[derive(Debug, Default)]
pub(crate) struct RecentReplies {
    replies: HashMap<String, StoredReply>,
    /// Insertion order, for first-in-first-out eviction.
    order: VecDeque<String>,
    capacity: usize,
}

impl RecentReplies {
    pub(crate) fn new(capacity: usize) -> Self {
        RecentReplies { replies: HashMap::new(), order: VecDeque::new(), capacity }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&StoredReply> {
        self.replies.get(key)
    }

    pub(crate) fn insert(&mut self, key: String, reply: StoredReply) {
        if self.capacity == 0 || self.replies.contains_key(&key) {
            return;
        }
        while self.order.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.replies.remove(&old);
            }
        }
        self.order.push_back(key.clone());
        self.replies.insert(key, reply);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reply(n: i64) -> StoredReply {
        StoredReply { ok: true, reply: json!({ "n": n }), fingerprint: None }
    }

    #[test]
    fn the_oldest_reply_is_forgotten_first() {
        let mut recent = RecentReplies::new(2);
        recent.insert("a".into(), reply(1));
        recent.insert("b".into(), reply(2));
        recent.insert("c".into(), reply(3));
        assert!(recent.get("a").is_none());
        assert_eq!(recent.get("b"), Some(&reply(2)));
        assert_eq!(recent.get("c"), Some(&reply(3)));
    }

    #[test]
    fn a_remembered_reply_is_never_replaced() {
        let mut recent = RecentReplies::new(2);
        recent.insert("a".into(), reply(1));
        recent.insert("a".into(), reply(9));
        assert_eq!(recent.get("a"), Some(&reply(1)));
    }
}
