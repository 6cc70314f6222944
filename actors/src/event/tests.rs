//! Unit tests of the RSVP rules, one behaviour each, named as sentences.

// A failed unwrap is a failed test, which is what we want here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use super::*;
use crate::hockey::{Position, Role};

const NOW: i64 = 1_793_734_200_000;

fn event(max_skaters: Option<i64>, max_goalies: Option<i64>) -> EventState {
    EventState::new(StoredEvent {
        event_id: "ev1".into(),
        version: 1,
        max_skaters,
        max_goalies,
        cancelled: false,
        rsvps: Vec::new(),
        ..Default::default()
    })
}

fn rsvp(user: &str, answer: RsvpAnswer, position: Option<Position>) -> EventCommand {
    EventCommand::Rsvp {
        user_id: user.into(),
        answer,
        position,
        person: Some(Person { display_name: format!("Name {user}"), preferred_position: None }),
        unlocked: false,
    }
}

/// Decides and closes the batch, as one committed command would.
fn run(state: &mut EventState, command: EventCommand) -> Result<Outcome, Rejection> {
    let outcome = decide(state, &command, NOW);
    state.seal();
    outcome
}

fn attend(state: &mut EventState, user: &str, position: Position) -> Outcome {
    run(state, rsvp(user, RsvpAnswer::Attending, Some(position))).unwrap()
}

fn decline(state: &mut EventState, user: &str) -> Outcome {
    run(state, rsvp(user, RsvpAnswer::Declined, None)).unwrap()
}

fn status(state: &EventState, user: &str) -> RsvpStatus {
    state.rsvp(user).unwrap().status
}

fn users<'a>(rows: impl Iterator<Item = &'a Rsvp>) -> Vec<&'a str> {
    rows.map(|r| r.user_id.as_str()).collect()
}

fn reply(outcome: &Outcome) -> &RsvpReply {
    match &outcome.reply {
        EventReply::Rsvp(r) => r,
        other => panic!("expected an RSVP reply, got {other:?}"),
    }
}

#[test]
fn last_skater_slot_goes_to_the_first_request() {
    let mut state = event(Some(2), None);
    attend(&mut state, "a", Position::Center);
    let second = attend(&mut state, "b", Position::LeftWing);
    let third = attend(&mut state, "c", Position::RightWing);
    assert_eq!(reply(&second).status, RsvpStatus::Attending);
    assert_eq!(reply(&third).status, RsvpStatus::Waitlisted);
    assert_eq!(reply(&third).waitlist_rank, Some(1));
    assert_eq!(users(state.attending(Role::Skater)), ["a", "b"]);
}

#[test]
fn a_full_role_queues_new_requests_in_the_order_they_were_accepted() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    let ranks: Vec<_> =
        ["b", "c", "d"].iter().map(|u| reply(&attend(&mut state, u, Position::Center)).waitlist_rank).collect();
    assert_eq!(ranks, [Some(1), Some(2), Some(3)]);
    assert_eq!(users(state.waitlist(Role::Skater)), ["b", "c", "d"]);
    let added: Vec<_> = ["b", "c", "d"].iter().map(|u| state.rsvp(u).unwrap().accepted_seq).collect();
    assert!(added.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn goalies_and_skaters_have_their_own_limits_and_waitlists() {
    let mut state = event(Some(1), Some(1));
    attend(&mut state, "s1", Position::Center);
    attend(&mut state, "g1", Position::Goalie);
    let s2 = attend(&mut state, "s2", Position::LeftDefense);
    let g2 = attend(&mut state, "g2", Position::Goalie);
    assert_eq!(reply(&s2).waitlist_rank, Some(1));
    assert_eq!(reply(&g2).waitlist_rank, Some(1), "ranks count per role");
    assert_eq!(state.attending_count(Role::Skater), 1);
    assert_eq!(state.attending_count(Role::Goalie), 1);
}

#[test]
fn an_unlimited_role_never_waitlists() {
    let mut state = event(None, Some(0));
    for i in 0..50 {
        attend(&mut state, &format!("s{i}"), Position::Center);
    }
    assert_eq!(state.attending_count(Role::Skater), 50);
    let goalie = run(&mut state, rsvp("g", RsvpAnswer::Attending, Some(Position::Goalie)));
    assert_eq!(goalie.unwrap_err(), Rejection::NoPlaces { role: Role::Goalie }, "a limit of 0 has no places");
}

#[test]
fn declining_a_place_promotes_the_head_of_that_roles_waitlist_and_records_it() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    attend(&mut state, "b", Position::RightWing);
    attend(&mut state, "c", Position::Center);
    let out = decline(&mut state, "a");
    assert_eq!(status(&state, "b"), RsvpStatus::Attending);
    assert_eq!(state.waitlist_rank("c"), Some(1));
    assert_eq!(
        out.effects.waitlist_history,
        [WaitlistHistory {
            user_id: "b".into(),
            action: WaitlistAction::Promoted,
            position: Position::RightWing,
            created_at: NOW,
        }]
    );
    assert_eq!(out.effects.rsvp_history[0].action, RsvpAction::Declined);
}

#[test]
fn a_promoted_person_keeps_their_acceptance_order() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    attend(&mut state, "b", Position::Center);
    let b_seq = state.rsvp("b").unwrap().accepted_seq;
    decline(&mut state, "a");
    assert_eq!(state.rsvp("b").unwrap().accepted_seq, b_seq);
}

#[test]
fn removal_by_the_organiser_frees_the_place_for_the_head_of_the_waitlist() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    attend(&mut state, "b", Position::Center);
    let out = run(&mut state, EventCommand::Remove { user_id: "a".into() }).unwrap();
    assert_eq!(reply(&out).status, RsvpStatus::Removed);
    assert_eq!(status(&state, "b"), RsvpStatus::Attending);
    assert_eq!(out.effects.rsvp_history[0].action, RsvpAction::Removed);
    assert_eq!(out.effects.waitlist_history[0].action, WaitlistAction::Promoted);
}

#[test]
fn removing_a_waitlisted_person_takes_them_off_the_waitlist() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    attend(&mut state, "b", Position::Center);
    attend(&mut state, "c", Position::Center);
    let out = run(&mut state, EventCommand::Remove { user_id: "b".into() }).unwrap();
    assert_eq!(users(state.waitlist(Role::Skater)), ["c"]);
    assert_eq!(out.effects.waitlist_history[0].action, WaitlistAction::Removed);
    assert_eq!(state.attending_count(Role::Skater), 1, "nobody is promoted: no place was freed");
}

#[test]
fn removing_someone_who_never_answered_is_not_found() {
    let mut state = event(Some(1), None);
    let before = state.clone();
    let err = run(&mut state, EventCommand::Remove { user_id: "x".into() }).unwrap_err();
    assert_eq!(err, Rejection::NoRsvp { user_id: "x".into() });
    assert_eq!(crate::ActorError::from(err).code(), "not_found");
    assert_eq!(state, before);
}

#[test]
fn a_removed_person_may_answer_again_and_queues_as_a_new_request() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    attend(&mut state, "b", Position::Center);
    run(&mut state, EventCommand::Remove { user_id: "a".into() }).unwrap();
    let again = attend(&mut state, "a", Position::Center);
    assert_eq!(reply(&again).status, RsvpStatus::Waitlisted);
}

#[test]
fn raising_a_limit_promotes_as_many_as_now_fit_in_order() {
    let mut state = event(Some(1), None);
    for u in ["a", "b", "c", "d"] {
        attend(&mut state, u, Position::Center);
    }
    let out = run(&mut state, EventCommand::SetLimits { max_skaters: Some(3), max_goalies: None }).unwrap();
    assert_eq!(users(state.attending(Role::Skater)), ["a", "b", "c"]);
    assert_eq!(users(state.waitlist(Role::Skater)), ["d"]);
    let promoted: Vec<_> = out.effects.waitlist_history.iter().map(|h| h.user_id.as_str()).collect();
    assert_eq!(promoted, ["b", "c"]);
    assert!(out.effects.limits_changed);
}

#[test]
fn lowering_a_limit_evicts_nobody_and_admits_nobody_until_below_it() {
    let mut state = event(Some(3), None);
    for u in ["a", "b", "c"] {
        attend(&mut state, u, Position::Center);
    }
    run(&mut state, EventCommand::SetLimits { max_skaters: Some(1), max_goalies: None }).unwrap();
    assert_eq!(state.attending_count(Role::Skater), 3);
    attend(&mut state, "d", Position::Center);
    decline(&mut state, "a");
    assert_eq!(status(&state, "d"), RsvpStatus::Waitlisted, "2 attending is still over 1");
    decline(&mut state, "b");
    assert_eq!(status(&state, "d"), RsvpStatus::Waitlisted, "1 attending is not below 1");
    decline(&mut state, "c");
    assert_eq!(status(&state, "d"), RsvpStatus::Attending);
}

#[test]
fn negative_limits_are_rejected_as_validation_failures() {
    let mut state = event(Some(3), None);
    let err = run(&mut state, EventCommand::SetLimits { max_skaters: Some(-1), max_goalies: None }).unwrap_err();
    assert_eq!(crate::ActorError::from(err).code(), "validation_failed");
    assert_eq!(state.max_skaters(), Some(3));
}

#[test]
fn declining_from_the_waitlist_leaves_it_and_moves_everyone_behind_up() {
    let mut state = event(Some(1), None);
    for u in ["a", "b", "c"] {
        attend(&mut state, u, Position::Center);
    }
    let out = decline(&mut state, "b");
    assert_eq!(state.waitlist_rank("c"), Some(1));
    assert_eq!(out.effects.waitlist_history[0].action, WaitlistAction::Removed);
    assert_eq!(status(&state, "a"), RsvpStatus::Attending);
}

#[test]
fn repeating_the_same_rsvp_changes_nothing_and_answers_the_same() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    let first = attend(&mut state, "b", Position::Center);
    let before = state.clone();
    let again = attend(&mut state, "b", Position::Center);
    assert_eq!(again.reply, first.reply);
    assert!(again.effects.is_empty());
    assert_eq!(state, before);

    decline(&mut state, "a");
    let before = state.clone();
    let again = decline(&mut state, "a");
    assert!(again.effects.is_empty());
    assert_eq!(state, before);
}

#[test]
fn changing_position_within_a_role_keeps_the_place() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    attend(&mut state, "b", Position::Center);
    let out = attend(&mut state, "a", Position::LeftDefense);
    assert_eq!(reply(&out).status, RsvpStatus::Attending);
    assert_eq!(state.rsvp("a").unwrap().position, Position::LeftDefense);
    assert_eq!(status(&state, "b"), RsvpStatus::Waitlisted);
    assert_eq!(out.effects.rsvp_history[0].position, Position::LeftDefense);
}

#[test]
fn switching_to_a_full_role_waitlists_there_and_frees_the_old_place() {
    let mut state = event(Some(1), Some(1));
    attend(&mut state, "skater", Position::Center);
    attend(&mut state, "next", Position::Center);
    attend(&mut state, "goalie", Position::Goalie);
    let out = attend(&mut state, "skater", Position::Goalie);
    assert_eq!(reply(&out).status, RsvpStatus::Waitlisted);
    assert_eq!(state.waitlist_rank("skater"), Some(1));
    assert_eq!(status(&state, "next"), RsvpStatus::Attending);
}

#[test]
fn switching_to_a_role_with_room_keeps_attending_at_the_back_of_the_order() {
    let mut state = event(Some(2), Some(1));
    attend(&mut state, "a", Position::Center);
    attend(&mut state, "b", Position::Center);
    attend(&mut state, "a", Position::Goalie);
    assert_eq!(status(&state, "a"), RsvpStatus::Attending);
    assert_eq!(users(state.attending(Role::Goalie)), ["a"]);
    assert!(state.rsvp("a").unwrap().accepted_seq > state.rsvp("b").unwrap().accepted_seq);
}

#[test]
fn without_a_position_an_answer_keeps_the_one_already_given() {
    let mut state = event(None, None);
    attend(&mut state, "a", Position::RightWing);
    let out = run(&mut state, rsvp("a", RsvpAnswer::Attending, None)).unwrap();
    assert!(out.effects.is_empty());
    assert_eq!(state.rsvp("a").unwrap().position, Position::RightWing);
    run(&mut state, rsvp("new", RsvpAnswer::Attending, None)).unwrap();
    assert_eq!(state.rsvp("new").unwrap().position, Position::Center, "the caller's default");
}

#[test]
fn declining_without_ever_attending_records_a_declined_answer() {
    let mut state = event(None, None);
    let out = decline(&mut state, "a");
    assert_eq!(reply(&out).status, RsvpStatus::Declined);
    assert_eq!(out.effects.rsvp_history[0].action, RsvpAction::Declined);
    assert!(out.effects.waitlist_history.is_empty());
}

#[test]
fn a_cancellation_carries_its_reason_once_and_a_repeated_cancel_changes_nothing() {
    let mut state = event(Some(1), None);
    let out = run(&mut state, EventCommand::Cancel { reason: Some("Zamboni broke down.".into()) }).unwrap();
    assert!(out.effects.cancelled);
    assert_eq!(out.effects.cancel_reason.as_deref(), Some("Zamboni broke down."));
    let again = run(&mut state, EventCommand::Cancel { reason: Some("Another story".into()) }).unwrap();
    assert!(again.effects.is_empty());
    assert_eq!(again.effects.cancel_reason, None, "the first reason stands");
    // In one batch, the cancellation that took effect says why.
    let mut first = out.effects;
    first.absorb(again.effects);
    assert_eq!(first.cancel_reason.as_deref(), Some("Zamboni broke down."));
}

#[test]
fn every_command_on_a_cancelled_event_is_rejected_without_changing_anything() {
    let mut state = event(Some(1), None);
    attend(&mut state, "a", Position::Center);
    let out = run(&mut state, EventCommand::Cancel { reason: None }).unwrap();
    assert!(out.effects.cancelled);
    let before = state.clone();
    let err = run(&mut state, rsvp("b", RsvpAnswer::Attending, None)).unwrap_err();
    assert_eq!(err, Rejection::Cancelled);
    assert_eq!(crate::ActorError::from(err).code(), "conflict");
    assert!(run(&mut state, EventCommand::Remove { user_id: "a".into() }).is_err());
    assert!(run(&mut state, EventCommand::SetLimits { max_skaters: None, max_goalies: None }).is_err());
    assert!(run(&mut state, EventCommand::Cancel { reason: None }).unwrap().effects.is_empty());
    assert_eq!(state, before);
}

#[test]
fn a_batch_of_changes_bumps_the_version_once() {
    let mut state = event(None, None);
    let a = decide(&mut state, &rsvp("a", RsvpAnswer::Attending, None), NOW).unwrap();
    let b = decide(&mut state, &rsvp("b", RsvpAnswer::Attending, None), NOW).unwrap();
    assert_eq!((a.reply.version(), b.reply.version()), (2, 2));
    state.seal();
    let c = decide(&mut state, &rsvp("c", RsvpAnswer::Attending, None), NOW).unwrap();
    assert_eq!(c.reply.version(), 3);
}

#[test]
fn a_command_that_changes_nothing_keeps_the_version() {
    let mut state = event(None, None);
    attend(&mut state, "a", Position::Center);
    let again = attend(&mut state, "a", Position::Center);
    assert_eq!(again.reply.version(), 2);
    assert_eq!(state.version(), 2);
}

#[test]
fn the_state_rebuilt_from_its_rows_is_the_state_that_wrote_them() {
    let mut state = event(Some(2), Some(1));
    for (u, p) in [("a", Position::Center), ("g", Position::Goalie), ("b", Position::LeftWing)] {
        attend(&mut state, u, p);
    }
    attend(&mut state, "c", Position::Center);
    attend(&mut state, "h", Position::Goalie);
    decline(&mut state, "a");
    let rebuilt = EventState::new(StoredEvent {
        event_id: "ev1".into(),
        version: state.version(),
        max_skaters: state.max_skaters(),
        max_goalies: state.max_goalies(),
        cancelled: false,
        rsvps: state.rsvps().cloned().collect(),
        ..Default::default()
    });
    assert_eq!(rebuilt, state);
}

#[test]
fn the_attendees_document_has_exactly_the_contract_shape() {
    let mut state = event(Some(1), Some(1));
    attend(&mut state, "a", Position::Center);
    attend(&mut state, "g", Position::Goalie);
    attend(&mut state, "b", Position::LeftWing);
    let doc = serde_json::to_value(state.attendees_document()).unwrap();
    assert_eq!(
        doc,
        json!({
            "version": 4,
            "cancelled": false,
            "attending": [
                {"userId": "a", "displayName": "Name a", "position": "CENTER",
                 "respondedAt": "2026-11-03T19:30:00.000Z", "isPaid": null},
                {"userId": "g", "displayName": "Name g", "position": "GOALIE",
                 "respondedAt": "2026-11-03T19:30:00.000Z", "isPaid": null},
            ],
            "waitlist": [
                {"userId": "b", "displayName": "Name b", "position": "LEFT_WING",
                 "rank": 1,
                "regular": false, "addedAt": "2026-11-03T19:30:00.000Z"},
            ],
            "counts": {"skaters": 1, "goalies": 1, "maxSkaters": 1, "maxGoalies": 1,
                       "waitlistSkaters": 1, "waitlistGoalies": 0},
        })
    );
}

#[test]
fn the_reply_has_exactly_the_contract_shape() {
    let mut state = event(Some(1), None);
    attend(&mut state, "x", Position::Center);
    let out = attend(&mut state, "a", Position::Center);
    assert_eq!(
        serde_json::to_value(&out.reply).unwrap(),
        json!({"status": "WAITLISTED", "waitlistRank": 1, "version": 3})
    );
    let back: EventReply = serde_json::from_value(json!({"version": 7})).unwrap();
    assert_eq!(back, EventReply::Event { version: 7 });
}

#[test]
fn a_batch_reports_the_open_places_only_when_they_change() {
    use crate::store::OpenPlaces;
    // Decided but not yet sealed, as the actor holds a batch at commit.
    let decide_only = |state: &mut EventState, command: EventCommand| decide(state, &command, NOW).unwrap();
    let mut state = event(Some(2), Some(1));
    assert_eq!(state.open_places(), OpenPlaces { skaters: Some(2), goalies: Some(1) });
    assert_eq!(state.open_places_changed(), None);
    decide_only(&mut state, rsvp("g", RsvpAnswer::Attending, Some(Position::Goalie)));
    assert_eq!(state.open_places_changed(), Some(OpenPlaces { skaters: Some(2), goalies: Some(0) }));
    state.seal();
    assert_eq!(state.open_places_changed(), None);
    // A second goalie is waitlisted: nothing opens or closes.
    decide_only(&mut state, rsvp("g2", RsvpAnswer::Attending, Some(Position::Goalie)));
    assert_eq!(state.open_places_changed(), None);
    state.seal();
    // The first leaves, the second is promoted: still full.
    decide_only(&mut state, rsvp("g", RsvpAnswer::Declined, None));
    assert_eq!(state.open_places_changed(), None);
    state.seal();
    decide_only(&mut state, EventCommand::Cancel { reason: None });
    assert_eq!(state.open_places_changed(), Some(OpenPlaces { skaters: Some(0), goalies: Some(0) }));
}

#[test]
fn a_role_with_no_places_refuses_new_requests_instead_of_queueing_them() {
    let mut state = event(Some(2), Some(0));
    let refused = run(&mut state, rsvp("g", RsvpAnswer::Attending, Some(Position::Goalie))).unwrap_err();
    assert_eq!(refused, Rejection::NoPlaces { role: Role::Goalie });
    assert_eq!(refused.to_string(), "this event has no goalie places; answer as a skater");
    assert!(state.rsvp("g").is_none(), "nothing written");
    // A skater switching to goalie is refused too, and keeps the skater place.
    attend(&mut state, "s", Position::Center);
    assert!(run(&mut state, rsvp("s", RsvpAnswer::Attending, Some(Position::Goalie))).is_err());
    assert_eq!((status(&state, "s"), state.rsvp("s").unwrap().position), (RsvpStatus::Attending, Position::Center));
    // Goalies-only events say so to skaters.
    let mut goalies_only = event(Some(0), Some(1));
    let refused = run(&mut goalies_only, rsvp("s", RsvpAnswer::Attending, None)).unwrap_err();
    assert_eq!(refused.to_string(), "this event has no skater places; it is for goalies only");
}

#[test]
fn a_goalie_already_in_keeps_the_place_when_the_limit_drops_to_zero() {
    let mut state = event(None, Some(1));
    attend(&mut state, "g", Position::Goalie);
    run(&mut state, EventCommand::SetLimits { max_skaters: None, max_goalies: Some(0) }).unwrap();
    assert_eq!(status(&state, "g"), RsvpStatus::Attending, "a lowered limit evicts nobody");
    let again = attend(&mut state, "g", Position::Goalie);
    assert!(again.effects.is_empty(), "the same answer again changes nothing");
}

#[test]
fn a_touch_moves_only_the_version_even_on_a_cancelled_event() {
    let mut state = event(Some(2), None);
    attend(&mut state, "a", Position::Center);
    let before = state.version();
    let out = run(&mut state, EventCommand::Touch).unwrap();
    assert!(out.effects.touched && out.effects.rsvps.is_empty() && out.effects.rsvp_history.is_empty());
    assert_eq!(state.version(), before + 1);
    assert_eq!(status(&state, "a"), RsvpStatus::Attending);
    run(&mut state, EventCommand::Cancel { reason: None }).unwrap();
    let cancelled = state.version();
    run(&mut state, EventCommand::Touch).unwrap();
    assert_eq!(state.version(), cancelled + 1);
}
