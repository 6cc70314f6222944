//! What the floor sends in a round ([`Mirror`]): the documents Rinkside
//! sent in the round before, in frames of the same lengths.

use anyhow::{Context, Result, anyhow, bail};
use serde_json::Value;

use super::Captured;

/// An update for the floor to send: Rinkside's `data`, in a frame as long as
/// Rinkside's was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorFrame {
    pub data: String,
    pub bytes: usize,
}

/// What the floor sends in a round: the documents Rinkside sent in the round
/// before, in the same order.
#[derive(Debug, Clone)]
pub struct Mirror {
    /// The snapshot's `data`, seeded as the topic's document.
    pub snapshot_data: Option<String>,
    /// Never empty.
    updates: Vec<MirrorFrame>,
}

/// The `data` of a frame, as compact JSON text.
pub fn data_of(frame: &str) -> Result<String> {
    let v: Value = serde_json::from_str(frame).context("a captured frame is not JSON")?;
    v.get("data").map(Value::to_string).ok_or_else(|| anyhow!("a captured frame has no data"))
}

impl Mirror {
    pub fn from_captured(captured: &Captured) -> Result<Self> {
        if captured.updates.is_empty() {
            bail!("the probe received no update from Rinkside, so the floor's frames cannot be sized like them");
        }
        let updates = captured
            .updates
            .iter()
            .map(|f| Ok(MirrorFrame { data: data_of(f)?, bytes: f.len() }))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { snapshot_data: data_of(&captured.snapshot).ok(), updates })
    }

    /// The `i`th update (cycling, should the floor's round need more than
    /// Rinkside's probe saw — a coalesced frame, say).
    pub fn update(&self, i: usize) -> &MirrorFrame {
        &self.updates[i % self.updates.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirror_keeps_rinkside_data_and_frame_lengths() {
        let update = r#"{"data":{"homeScore":1,"logTail":[]},"seq":9,"topic":"game:g","type":"update"}"#;
        let captured = Captured {
            snapshot: r#"{"data":{"log":[1,2]},"seq":8,"topic":"game:g","type":"snapshot"}"#.into(),
            updates: vec![update.into(), r#"{"type":"update","seq":10,"data":{"x":"y"}}"#.into()],
        };
        let mirror = Mirror::from_captured(&captured).unwrap();
        assert_eq!(mirror.snapshot_data.as_deref(), Some(r#"{"log":[1,2]}"#));
        assert_eq!(
            mirror.update(0),
            &MirrorFrame { data: r#"{"homeScore":1,"logTail":[]}"#.into(), bytes: update.len() }
        );
        assert_eq!(mirror.update(1).data, r#"{"x":"y"}"#);
        assert_eq!(mirror.update(2), mirror.update(0));
        assert!(Mirror::from_captured(&Captured::default()).is_err());
    }
}
