//! Wires the RSVP core into the group-commit actor: how an event loads,
//! decides, replies and commits. The actor itself is generic
//! ([`crate::group_commit::AggregateActor`]).
//!
//! Replies are built after the whole batch is decided, from the batch's
//! final state at the version it commits as. So a person waitlisted and
//! promoted within one batch is told ATTENDING, and every reply agrees with
//! the document published at its version.

use std::collections::HashSet;

use super::decide::{Effects, EventCommand, EventReply, decide};
use super::document::AttendeesDocument;
use super::model::{EventState, Rsvp};
use crate::aggregate::{Aggregate, Envelope};
use crate::error::ActorError;
use crate::group_commit::AggregateActor;
use crate::store::{BoxFuture, CommandResult, CommitResult, EventCommit, EventStore, Limits, StoreError};

/// Marker type naming the event aggregate.
#[derive(Debug)]
pub enum EventAggregate {}

/// The actor of one event.
pub type EventActor = AggregateActor<EventAggregate>;

impl Aggregate for EventAggregate {
    const KIND: &'static str = "event";
    type State = EventState;
    type Command = EventCommand;
    type Effects = Effects;
    /// The person whose standing the reply reports, if any.
    type Intent = Option<String>;
    type Reply = EventReply;
    type Document = AttendeesDocument;
    /// (decided) The whole list: it is the screen, and a list of a few
    /// hundred answers stays a few kilobytes (docs/realtime.md).
    type Update = AttendeesDocument;
    type Store = dyn EventStore;

    fn load<'a>(store: &'a Self::Store, id: &str) -> BoxFuture<'a, Result<Option<EventState>, StoreError>> {
        store.load(id.to_owned())
    }

    /// Fills in who is answering, for every RSVP of the batch, with one read.
    fn prepare<'a>(
        store: &'a Self::Store,
        commands: &'a mut [Envelope<EventCommand>],
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let wanted: HashSet<String> = commands
                .iter()
                .filter_map(|env| match &env.command {
                    EventCommand::Rsvp { user_id, person: None, .. } => Some(user_id.clone()),
                    _ => None,
                })
                .collect();
            if wanted.is_empty() {
                return Ok(());
            }
            let people = store.people(wanted.into_iter().collect()).await?;
            for env in commands.iter_mut() {
                if let EventCommand::Rsvp { user_id, person: person @ None, .. } = &mut env.command {
                    *person = people.get(user_id.as_str()).cloned();
                }
            }
            Ok(())
        })
    }

    fn decide(
        state: &mut EventState,
        effects: &mut Effects,
        command: &EventCommand,
        _actor_id: &str,
        now_ms: i64,
    ) -> Result<Option<String>, ActorError> {
        let outcome = decide(state, command, now_ms)?;
        effects.absorb(outcome.effects);
        Ok(match command {
            EventCommand::Rsvp { user_id, .. } | EventCommand::Remove { user_id } => Some(user_id.clone()),
            EventCommand::SetLimits { .. }
            | EventCommand::SetAccess { .. }
            | EventCommand::Refill
            | EventCommand::Cancel { .. }
            | EventCommand::Touch => None,
        })
    }

    fn reply(state: &EventState, subject: Option<String>) -> EventReply {
        match subject.and_then(|user| state.reply_for(&user)) {
            Some(reply) => EventReply::Rsvp(reply),
            None => EventReply::Event { version: state.version() },
        }
    }

    fn commit<'a>(
        store: &'a Self::Store,
        id: &str,
        expected_version: i64,
        state: &EventState,
        effects: Effects,
        results: Vec<CommandResult>,
    ) -> BoxFuture<'a, Result<CommitResult, StoreError>> {
        let commit = EventCommit {
            event_id: id.to_owned(),
            expected_version,
            new_version: state.version(),
            rsvps: last_row_per_user(effects.rsvps),
            rsvp_history: effects.rsvp_history,
            waitlist_history: effects.waitlist_history,
            limits: effects
                .limits_changed
                .then(|| Limits { max_skaters: state.max_skaters(), max_goalies: state.max_goalies() }),
            cancelled: effects.cancelled,
            cancel_reason: effects.cancel_reason,
            open_places: state.open_places_changed(),
            results,
        };
        store.commit(commit)
    }

    fn version(state: &EventState) -> i64 {
        state.version()
    }

    fn seal(state: &mut EventState) {
        state.seal();
    }

    fn document(state: &EventState) -> AttendeesDocument {
        state.attendees_document()
    }

    fn update(state: &EventState, _since: i64) -> AttendeesDocument {
        state.attendees_document()
    }
}

/// One upsert per user: the last copy is the row's state after the batch.
fn last_row_per_user(rows: Vec<Rsvp>) -> Vec<Rsvp> {
    let mut seen = HashSet::new();
    let mut kept: Vec<Rsvp> = rows.into_iter().rev().filter(|r| seen.insert(r.user_id.clone())).collect();
    kept.reverse();
    kept
}
