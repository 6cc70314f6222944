//! Fuzz targets of the request bodies and query strings owned by the
//! resource modules without private parsing of their own (those that have
//! it — `me`, `seasons`, `events`, `rosters`, `webhooks` — keep their
//! targets beside it). See `crate::fuzzing`.

use super::{PageQuery, SearchQuery, field_in_serde_message};
use crate::commands::{event::RsvpInput, game::GameActionInput};
use crate::fuzzing::{self, json_bodies, query_string, text};
use actix_web::web;
use proptest::prelude::*;

json_bodies! {
    new_team: super::teams::NewTeam => |body| body.parse().map(drop);
    team_patch: super::teams::TeamPatch;
    new_facility: super::facilities::NewFacility => |body| body.parse().map(drop);
    facility_patch: super::facilities::FacilityPatch;
    accept_legal: super::me::AcceptLegal;
    new_position: super::me::NewPosition;
    patch_position: super::me::PatchPosition;
    new_game: super::games::NewGame => |body| crate::time::parse_rfc3339_checked(&body.scheduled_at)
        .map(drop)
        .map_err(|m| crate::error::AppError::field("scheduledAt", m));
    game_patch: super::games::GamePatch;
    lineup: super::games::LineupInput;
    new_division_mapping: super::divisions::NewDivisionMapping;
    division_mapping_patch: super::divisions::DivisionMappingPatch;
    dev_token: super::dev::DevTokenRequest;
    transfer_ownership: super::staff::TransferOwnership;
    rsvp: RsvpInput;
    game_action: GameActionInput => |body| {
        // A clock action is pinned to the moment it arrived, or to a tap
        // within the window before it: never a time from the future.
        use rinkside_actors::game::{CLOCK_AT_WINDOW_MS, GameAction};
        let now = 1_000_000;
        if let GameAction::ClockStart { at }
        | GameAction::ClockStop { at }
        | GameAction::ClockSet { at, .. }
        | GameAction::Intermission { at, .. } = body.into_action(now)
        {
            assert!(at.is_some_and(|at| (now - CLOCK_AT_WINDOW_MS..=now).contains(&at)), "pinned at {at:?}");
        }
        Ok(())
    };
}

const PAGE: &[&str] = &["limit", "cursor", "q", "position", "skillLevel"];
const EVENTS: &[&str] = &[
    "facilityId",
    "seasonId",
    "eventType",
    "from",
    "to",
    "createdBy",
    "attending",
    "includeCancelled",
    "limit",
    "cursor",
];
const SCHEDULE: &[&str] = &["seasonId", "limit", "cursor"];

proptest! {
    #![proptest_config(fuzzing::config(1_000))]

    /// `?limit=&cursor=` and `?q=&limit=&cursor=`: the extractor parses or
    /// refuses, and what it parsed becomes a page size, a cursor and a
    /// search term, or a 422 naming the field.
    #[test]
    fn any_page_query_becomes_a_page_or_a_422(query in query_string(PAGE)) {
        if let Ok(page) = web::Query::<PageQuery>::from_query(&query) {
            for outcome in [page.rows().map(drop), page.cursor().map(drop)] {
                if let Err(e) = outcome {
                    prop_assert_eq!(e.code(), "validation_failed");
                }
            }
        }
        if let Ok(search) = web::Query::<SearchQuery>::from_query(&query)
            && let Err(e) = search.term()
        {
            prop_assert_eq!(e.code(), "validation_failed");
        }
    }

    /// The other list queries parse to exactly what the query says, or are
    /// refused for a reason the query shows: a field given twice, or a
    /// value that is not what the field takes.
    #[test]
    fn any_list_query_parses_or_is_refused(events in query_string(EVENTS), schedule in query_string(SCHEDULE)) {
        let pairs = |q: &str| -> Vec<(String, String)> { url::form_urlencoded::parse(q.as_bytes()).into_owned().collect() };
        let value = |pairs: &[(String, String)], key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        let repeated = |pairs: &[(String, String)], keys: &[&str]| {
            keys.iter().any(|key| pairs.iter().filter(|(k, _)| k == key).count() > 1)
        };
        let unknown = |pairs: &[(String, String)], keys: &[&str]| pairs.iter().any(|(k, _)| !keys.contains(&k.as_str()));
        // A whole number as docs/openapi.md says a query takes one: decimal
        // digits fitting an `i64`, optionally followed by a point and zeros.
        let whole = |v: &str| {
            let digits = match v.split_once('.') {
                None => v,
                Some((digits, zeros)) if !zeros.is_empty() && zeros.bytes().all(|b| b == b'0') => digits,
                Some(_) => return None,
            };
            digits.parse::<i64>().ok()
        };
        let (schedule_pairs, event_pairs) = (pairs(&schedule), pairs(&events));

        match web::Query::<crate::api::SeasonPageQuery>::from_query(&schedule) {
            Ok(q) => {
                prop_assert_eq!(&q.season_id, &value(&schedule_pairs, "seasonId"));
                prop_assert_eq!(&q.cursor, &value(&schedule_pairs, "cursor"));
                prop_assert_eq!(q.limit, value(&schedule_pairs, "limit").and_then(|v| whole(&v)));
            }
            Err(_) => prop_assert!(
                repeated(&schedule_pairs, SCHEDULE)
                    || unknown(&schedule_pairs, SCHEDULE)
                    || value(&schedule_pairs, "limit").is_some_and(|v| whole(&v).is_none()),
                "refused {:?}", schedule
            ),
        }
        match web::Query::<super::season_views::LeadersQuery>::from_query(&schedule) {
            Ok(q) => prop_assert_eq!(q.limit, value(&schedule_pairs, "limit").and_then(|v| whole(&v))),
            Err(_) => prop_assert!(
                repeated(&schedule_pairs, &["limit"])
                    || unknown(&schedule_pairs, &["limit"])
                    || value(&schedule_pairs, "limit").is_some_and(|v| whole(&v).is_none()),
                "refused {:?}", schedule
            ),
        }
        match web::Query::<super::events::listing::EventQuery>::from_query(&events) {
            Ok(q) => {
                prop_assert_eq!(&q.facility_id, &value(&event_pairs, "facilityId"));
                prop_assert_eq!(&q.season_id, &value(&event_pairs, "seasonId"));
                prop_assert_eq!(&q.from, &value(&event_pairs, "from"));
                prop_assert_eq!(q.limit, value(&event_pairs, "limit").and_then(|v| whole(&v)));
                prop_assert_eq!(q.event_type.map(|t| t.as_str().to_string()), value(&event_pairs, "eventType"));
            }
            Err(_) => prop_assert!(
                repeated(&event_pairs, EVENTS)
                    || unknown(&event_pairs, EVENTS)
                    || value(&event_pairs, "limit").is_some_and(|v| whole(&v).is_none())
                    || value(&event_pairs, "eventType").is_some_and(|v| crate::domain::EventType::parse(&v).is_none())
                    || value(&event_pairs, "includeCancelled").is_some_and(|v| v != "true" && v != "false"),
                "refused {:?}", events
            ),
        }
    }

    /// Naming the field of a refused body reads serde's message, which
    /// quotes the client's input: any message, no panic.
    #[test]
    fn any_serde_message_names_a_field_or_none(message in text()) {
        if let Some(field) = field_in_serde_message(&message) {
            prop_assert!(!field.is_empty() && message.contains(&field));
        }
    }

    /// `Idempotency-Key` is 1–128 visible characters, or a 422.
    #[test]
    fn any_idempotency_key_is_taken_or_refused(raw in prop::collection::vec(any::<u8>(), 0..200)) {
        let Ok(value) = actix_web::http::header::HeaderValue::from_bytes(&raw) else { return Ok(()) };
        let req = actix_web::test::TestRequest::default().insert_header(("idempotency-key", value)).to_http_request();
        match super::idempotency_header(&req) {
            Ok(Some(key)) => prop_assert!(!key.is_empty() && key.len() <= 128),
            Ok(None) => prop_assert!(false, "a key was sent"),
            Err(e) => prop_assert_eq!(e.code(), "validation_failed"),
        }
    }
}
