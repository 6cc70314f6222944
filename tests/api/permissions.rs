//! The permission matrix, cell by cell over HTTP. The expected outcomes are
//! not written here: they are read from the table in docs/permissions.md, so
//! the documentation cannot drift from what the server does.
//!
//! Refused cells (401/403) all run against one shared set of objects and
//! must leave every table as it was; each allowed cell gets a fresh set, so
//! one cell's write (a delete, a transfer) cannot colour another's answer.

// Fixture helpers are not `#[test]` functions, so clippy.toml's
// allow-unwrap-in-tests does not reach them: a failed fixture should panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::helpers::*;
use crate::rosters::{add, facility, mapping, put_manager, request, season, team};
use reqwest::Method;
use serde_json::{Value, json};

const DOC: &str = include_str!("../../docs/permissions.md");

const ROLES: [&str; 10] = [
    "anonymous",
    "stranger",
    "member",
    "captain",
    "team manager",
    "team owner",
    "other team manager",
    "facility manager",
    "facility owner",
    "other facility manager",
];

/// Tables no refused request may change.
const TABLES: &[&str] = &[
    "facilities",
    "facility_managers",
    "facility_follows",
    "teams",
    "team_managers",
    "team_follows",
    "follows",
    "seasons",
    "division_mappings",
    "rosters",
    "roster_players",
    "roster_join_requests",
    "feed_items",
    "events",
    "event_series",
    "event_rsvps",
    "event_teams",
    "event_sides",
    "ice_bills",
    "event_check_ins",
    "series_regulars",
    "games",
    "game_scorekeepers",
    "game_log",
    "statuses",
    "status_positions",
    "game_availability",
    "availability_nudges",
    "chat_messages",
    "chat_marks",
    "invites",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Allowed,
    Forbidden,
    Unauthorized,
    /// Allowed by who, refused by a rule of what: 409.
    Conflict,
}

/// `(action, expectation per role)` rows of the documented matrix.
fn matrix() -> Vec<(String, Vec<Expect>)> {
    let mut lines = DOC.lines().skip_while(|l| !l.starts_with("| action |"));
    let header: Vec<String> = cells(lines.next().expect("the matrix header in docs/permissions.md"));
    assert_eq!(&header[2..], ROLES, "the matrix's role columns");
    lines.next(); // |---|
    let mut rows = Vec::new();
    for line in lines.take_while(|l| l.starts_with('|')) {
        let c = cells(line);
        let expect = c[2..]
            .iter()
            .map(|x| match x.as_str() {
                "Y" => Expect::Allowed,
                "N" => Expect::Forbidden,
                "U" => Expect::Unauthorized,
                "C" => Expect::Conflict,
                other => panic!("unknown cell {other:?} in row {line}"),
            })
            .collect::<Vec<_>>();
        assert_eq!(expect.len(), ROLES.len(), "row {line}");
        rows.push((c[0].clone(), expect));
    }
    assert!(rows.len() >= 30, "the matrix has {} rows", rows.len());
    rows
}

fn cells(line: &str) -> Vec<String> {
    line.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect()
}

/// Everyone who plays a role, plus the people actions point at.
struct Cast {
    roles: Vec<Option<TestUser>>,
    member: TestUser,
    captain: TestUser,
    team_manager: TestUser,
    team_owner: TestUser,
    facility_manager: TestUser,
    facility_owner: TestUser,
    /// Another player, for edit/remove player.
    victim: TestUser,
    /// Someone with nothing yet: the user added, promoted or followed.
    newbie: TestUser,
    /// A second manager of each, for the remove-manager rows.
    extra_facility_manager: TestUser,
    extra_team_manager: TestUser,
    /// Asks to join in every world.
    requester: TestUser,
    /// Owns the rival team of every world's games (no role in the matrix).
    rival: TestUser,
}

async fn cast(app: &TestApp) -> Cast {
    let mut roles = vec![None];
    for name in ["stranger", "member", "captain", "tmgr", "towner", "othertmgr", "fmgr", "fowner", "otherfmgr"] {
        roles.push(Some(app.user(name).await));
    }
    let r = |i: usize| roles[i].clone().expect("a signed-in role");
    let (other_team_manager, other_facility_manager) = (r(6), r(9));
    let cast = Cast {
        member: r(2),
        captain: r(3),
        team_manager: r(4),
        team_owner: r(5),
        facility_manager: r(7),
        facility_owner: r(8),
        victim: app.user("victim").await,
        newbie: app.user("newbie").await,
        extra_facility_manager: app.user("xfmgr").await,
        extra_team_manager: app.user("xtmgr").await,
        requester: app.user("requester").await,
        rival: app.user("gamerival").await,
        roles: roles.clone(),
    };
    // The "other" managers run a facility and a team of their own (owned by
    // a rival), so they are managers, just not of these objects.
    let rival = app.user("rival").await;
    let other_facility = facility(app, &rival).await;
    put_manager(app, &rival, "facilities", &other_facility, &other_facility_manager).await;
    let other_team = team(app, &rival, Some(&other_facility)).await;
    put_manager(app, &rival, "teams", &other_team, &other_team_manager).await;
    cast
}

/// The objects one cell acts on.
struct World {
    facility: String,
    team: String,
    season: String,
    mapping: String,
    roster: String,
    request: String,
    /// An event at the facility (created by its owner), the first of a
    /// two-week series, with the victim attending.
    event: String,
    /// The event's series.
    series: String,
    /// A rival team's roster in the same season: the other side of games.
    rival_roster: String,
    /// A game between the roster and the rival roster.
    game: String,
    /// The team's RECRUITING status (posted by its owner).
    team_status: String,
    /// The member's own AVAILABLE_TO_SUB.
    own_status: String,
}

/// `days` from today (UTC): the day (`YYYY-MM-DD`), or with `time` the
/// instant at that time (`YYYY-MM-DDTHH:MM:00Z`); the world's event and game
/// are always ahead, whatever day the tests run.
fn days_ahead(days: i64, time: &str) -> String {
    let day = (chrono::Utc::now() + chrono::Duration::days(days)).format("%Y-%m-%d");
    if time.is_empty() { day.to_string() } else { format!("{day}T{time}:00Z") }
}

async fn world(app: &TestApp, c: &Cast) -> World {
    let facility = facility(app, &c.facility_owner).await;
    put_manager(app, &c.facility_owner, "facilities", &facility, &c.facility_manager).await;
    put_manager(app, &c.facility_owner, "facilities", &facility, &c.extra_facility_manager).await;
    let team = team(app, &c.team_owner, Some(&facility)).await;
    put_manager(app, &c.team_owner, "teams", &team, &c.team_manager).await;
    put_manager(app, &c.team_owner, "teams", &team, &c.extra_team_manager).await;
    let season = season(app, &c.facility_owner, &facility).await;
    let mapping = mapping(app, &c.facility_owner, &season, "C1").await;
    let roster = crate::rosters::roster(app, &c.team_owner, &team, &season, json!({})).await;
    for (who, extra) in [(&c.member, json!({})), (&c.captain, json!({"captain": true})), (&c.victim, json!({}))] {
        let (s, b) = add(app, &c.team_owner, &roster, who, extra).await;
        assert_eq!(s, 201, "{b}");
    }
    let request = request(app, &c.requester, &roster).await;
    let (s, b) = app
        .post(
            "/api/v1/events",
            Some(&c.facility_owner),
            json!({"title": "Tuesday pickup", "startDate": days_ahead(2, "21:00"), "eventType": "OTHER", "facilityId": facility,
                   "repeat": {"frequency": "WEEKLY", "until": days_ahead(9, "")}}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let event = crate::rosters::id(&b);
    let series = b["seriesId"].as_str().unwrap().to_string();
    for player in [&c.victim, &c.member] {
        let (s, b) =
            app.put(&format!("/api/v1/events/{event}/rsvp"), Some(player), Some(json!({"action": "ATTENDING"}))).await;
        assert_eq!(s, 200, "{b}");
    }
    // The rink's staff may collect payments at the rink (granted by its owner).
    for staff in [&c.facility_owner, &c.facility_manager] {
        let (s, b) = app
            .put(
                &format!("/api/v1/users/{}/payment-collection", staff.id),
                Some(&c.facility_owner),
                Some(json!({"enabled": true})),
            )
            .await;
        assert_eq!(s, 200, "{b}");
    }
    let rival_team = crate::rosters::team(app, &c.rival, None).await;
    let rival_roster = crate::rosters::roster(app, &c.rival, &rival_team, &season, json!({})).await;
    let (s, b) = add(app, &c.rival, &rival_roster, &c.rival, json!({})).await;
    assert_eq!(s, 201, "{b}");
    let (s, b) = app
        .post(
            "/api/v1/games",
            Some(&c.facility_owner),
            json!({"homeRosterId": roster, "awayRosterId": rival_roster, "seasonId": season, "scheduledAt": days_ahead(3, "20:00")}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let game = crate::rosters::id(&b);
    let (s, b) = app
        .post(
            "/api/v1/statuses",
            Some(&c.team_owner),
            json!({"type": "RECRUITING", "entityType": "TEAM", "teamId": team}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let team_status = crate::rosters::id(&b);
    let (s, b) =
        app.post("/api/v1/statuses", Some(&c.member), json!({"type": "AVAILABLE_TO_SUB", "entityType": "USER"})).await;
    assert_eq!(s, 201, "{b}");
    let own_status = crate::rosters::id(&b);
    World {
        facility,
        team,
        season,
        mapping,
        roster,
        request,
        event,
        series,
        rival_roster,
        game,
        team_status,
        own_status,
    }
}

/// The HTTP request of an action, against a world.
fn call(action: &str, w: &World, c: &Cast) -> (Method, String, Option<Value>) {
    let (f, t, s, m, r, q) = (&w.facility, &w.team, &w.season, &w.mapping, &w.roster, &w.request);
    let newbie = &c.newbie.id;
    let season_body = json!({"name": "Spring", "startDate": crate::rosters::START, "endDate": crate::rosters::END});
    match action {
        "create_facility" => {
            (Method::POST, "/facilities".into(), Some(json!({"name": "New Rink", "timezone": "Europe/Helsinki"})))
        }
        "edit_facility" => (Method::PATCH, format!("/facilities/{f}"), Some(json!({"description": "Fresh ice"}))),
        "delete_facility" => (Method::DELETE, format!("/facilities/{f}"), None),
        "add_facility_manager" => (Method::PUT, format!("/facilities/{f}/managers/{newbie}"), None),
        "remove_facility_manager" => {
            (Method::DELETE, format!("/facilities/{f}/managers/{}", c.extra_facility_manager.id), None)
        }
        "transfer_facility" => {
            (Method::POST, format!("/facilities/{f}/transfer-ownership"), Some(json!({"userId": newbie})))
        }
        "create_team" => (Method::POST, "/teams".into(), Some(json!({"name": "New Team"}))),
        "edit_team" => (Method::PATCH, format!("/teams/{t}"), Some(json!({"description": "Fast and loose"}))),
        "delete_team" => (Method::DELETE, format!("/teams/{t}"), None),
        "add_team_manager" => (Method::PUT, format!("/teams/{t}/managers/{newbie}"), None),
        "remove_team_manager" => (Method::DELETE, format!("/teams/{t}/managers/{}", c.extra_team_manager.id), None),
        "transfer_team" => (Method::POST, format!("/teams/{t}/transfer-ownership"), Some(json!({"userId": newbie}))),
        "follow_user" => (Method::PUT, format!("/users/{newbie}/follow"), None),
        "follow_facility" => (Method::PUT, format!("/facilities/{f}/follow"), None),
        "follow_team" => (Method::PUT, format!("/teams/{t}/follow"), None),
        "edit_profile" => (Method::PATCH, "/me".into(), Some(json!({"bio": "Plays every Tuesday"}))),
        "read_schedule" => (Method::GET, format!("/users/{}/schedule", c.victim.id), None),
        "read_team_upcoming" => (Method::GET, format!("/teams/{t}/upcoming"), None),
        "make_calendar_feed" => (Method::POST, "/me/calendar-feed".into(), None),
        "create_season" => (Method::POST, format!("/facilities/{f}/seasons"), Some(season_body)),
        "edit_season" => (Method::PATCH, format!("/seasons/{s}"), Some(json!({"name": "Winter Renamed"}))),
        "sync_history" => (Method::GET, format!("/seasons/{s}/sync-runs"), None),
        "create_division_mapping" => (
            Method::POST,
            format!("/seasons/{s}/division-mappings"),
            Some(json!({"facilityDivisionName": "B2", "universalDivisionScale": "INTERMEDIATE"})),
        ),
        "edit_division_mapping" => {
            (Method::PATCH, format!("/division-mappings/{m}"), Some(json!({"description": "Tuesdays"})))
        }
        "delete_division_mapping" => (Method::DELETE, format!("/division-mappings/{m}"), None),
        "create_roster" => {
            (Method::POST, "/rosters".into(), Some(json!({"teamId": t, "seasonId": s, "name": "Owls B"})))
        }
        "edit_roster" => (Method::PATCH, format!("/rosters/{r}"), Some(json!({"description": "Sunday crew"}))),
        "add_player" => (Method::POST, format!("/rosters/{r}/players"), Some(json!({"userId": newbie}))),
        "edit_player" => {
            (Method::PATCH, format!("/rosters/{r}/players/{}", c.victim.id), Some(json!({"jerseyNumber": 12})))
        }
        "remove_player" => (Method::DELETE, format!("/rosters/{r}/players/{}", c.victim.id), None),
        "request_to_join" => (Method::POST, format!("/rosters/{r}/join-requests"), Some(json!({}))),
        "list_join_requests" => (Method::GET, format!("/rosters/{r}/join-requests"), None),
        "approve_join_request" => (Method::POST, format!("/join-requests/{q}/approve"), None),
        "reject_join_request" => (Method::POST, format!("/join-requests/{q}/reject"), None),
        "cancel_join_request" => (Method::DELETE, format!("/join-requests/{q}"), None),
        "create_season_event" => (
            Method::POST,
            "/events".into(),
            Some(
                json!({"title": "League night", "startDate": "2026-12-03T20:00:00Z", "eventType": "GAME", "seasonId": s}),
            ),
        ),
        "edit_event" => (Method::PATCH, format!("/events/{}", w.event), Some(json!({"location": "Rink 2"}))),
        "cancel_event" => (Method::POST, format!("/events/{}/cancel", w.event), None),
        "edit_series" => {
            (Method::PATCH, format!("/events/{}?scope=following", w.event), Some(json!({"location": "Rink 2"})))
        }
        "cancel_series" => (Method::POST, format!("/events/{}/cancel?scope=following", w.event), None),
        "delete_event" => (Method::DELETE, format!("/events/{}", w.event), None),
        "remove_attendee" => (Method::DELETE, format!("/events/{}/attendees/{}", w.event, c.victim.id), None),
        "create_event_at_facility" => (
            Method::POST,
            "/events".into(),
            Some(
                json!({"title": "Open skate", "startDate": "2026-12-04T18:00:00Z", "eventType": "OTHER", "facilityId": f}),
            ),
        ),
        "host_event" => (Method::PUT, format!("/events/{}/hosting", w.event), None),
        "unhost_event" => (Method::DELETE, format!("/events/{}/hosting", w.event), None),
        "link_event_team" => (Method::PUT, format!("/events/{}/teams/{t}", w.event), Some(json!({"role": "HOME"}))),
        "unlink_event_team" => (Method::DELETE, format!("/events/{}/teams/{t}", w.event), None),
        "schedule_game" => (
            Method::POST,
            "/games".into(),
            Some(
                json!({"homeRosterId": r, "awayRosterId": w.rival_roster, "seasonId": s, "scheduledAt": "2026-12-09T20:00:00Z"}),
            ),
        ),
        "edit_game" => (Method::PATCH, format!("/games/{}", w.game), Some(json!({"status": "POSTPONED"}))),
        "add_scorekeeper" => (Method::PUT, format!("/games/{}/scorekeepers/{newbie}", w.game), None),
        "score_game" => (Method::POST, format!("/games/{}/actions", w.game), Some(json!({"type": "START"}))),
        "set_home_lineup" => {
            (Method::PUT, format!("/games/{}/lineups/{r}", w.game), Some(json!({"userIds": [c.member.id]})))
        }
        "set_away_lineup" => (
            Method::PUT,
            format!("/games/{}/lineups/{}", w.game, w.rival_roster),
            Some(json!({"userIds": [c.rival.id]})),
        ),
        "post_own_status" => {
            (Method::POST, "/statuses".into(), Some(json!({"type": "LOOKING_FOR_TEAM", "entityType": "USER"})))
        }
        "post_team_status" => (
            Method::POST,
            "/statuses".into(),
            Some(json!({"type": "LOOKING_FOR_SUBS", "entityType": "TEAM", "teamId": t})),
        ),
        "post_event_call" => (
            Method::POST,
            "/statuses".into(),
            Some(json!({"type": "LOOKING_FOR_SUBS", "entityType": "USER", "eventId": w.event})),
        ),
        "make_sides" => (Method::POST, format!("/events/{}/sides", w.event), Some(json!({"action": "MAKE"}))),
        "set_bill" => (
            Method::PUT,
            format!("/events/{}/bill", w.event),
            Some(json!({"costCents": 30000, "goaliePolicy": "FREE"})),
        ),
        "grant_payment_collection" => (
            Method::PUT,
            format!("/users/{}/payment-collection", c.extra_facility_manager.id),
            Some(json!({"enabled": true})),
        ),
        "set_rsvp_rules" => (
            Method::PUT,
            format!("/events/{}/rsvp-rules", w.event),
            Some(json!({"regularsFirstMinutes": 2880, "cutoffMinutes": 120})),
        ),
        "keep_series_regulars" => (Method::PUT, format!("/event-series/{}/regulars/{}", w.series, c.member.id), None),
        "check_in_player" => (Method::PUT, format!("/events/{}/check-ins/{}", w.event, c.victim.id), None),
        "edit_team_status" => {
            (Method::PATCH, format!("/statuses/{}", w.team_status), Some(json!({"message": "Two D-men wanted"})))
        }
        "take_down_team_status" => (Method::DELETE, format!("/statuses/{}", w.team_status), None),
        "edit_own_status" => {
            (Method::PATCH, format!("/statuses/{}", w.own_status), Some(json!({"positions": ["GOALIE"]})))
        }
        "take_down_own_status" => (Method::DELETE, format!("/statuses/{}", w.own_status), None),
        "read_event_history" => (Method::GET, format!("/events/{}/history", w.event), None),
        "read_series_record" => (Method::GET, format!("/event-series/{}/record", w.series), None),
        "read_availability" => (Method::GET, format!("/rosters/{}/availability", w.roster), None),
        "set_availability_rules" => {
            (Method::PUT, format!("/rosters/{}/availability-rules", w.roster), Some(json!({"lockMinutes": 120})))
        }
        "answer_availability" => (
            Method::PUT,
            format!("/rosters/{}/availability/{}/players/{}", w.roster, w.game, c.member.id),
            Some(json!({"answer": "IN"})),
        ),
        "nudge_availability" => {
            (Method::POST, format!("/rosters/{}/availability/{}/nudge", w.roster, w.game), Some(json!({})))
        }
        "invite_to_roster" => (Method::POST, format!("/rosters/{}/invites", w.roster), Some(json!({}))),
        "invite_to_event" => (Method::POST, format!("/events/{}/invites", w.event), Some(json!({}))),
        "read_roster_chat" => (Method::GET, format!("/chats/roster-{}", w.roster), None),
        "post_roster_chat" => {
            (Method::POST, format!("/chats/roster-{}/messages", w.roster), Some(json!({"body": "Ice at 9"})))
        }
        other => panic!("docs/permissions.md names an action the test does not know: {other}"),
    }
}

/// Runs one cell; a description of the mismatch, if any.
async fn run(app: &TestApp, action: &str, role: usize, expect: Expect, w: &World, c: &Cast) -> Option<String> {
    let user = c.roles[role].as_ref();
    let (method, path, body) = call(action, w, c);
    let mut rb = app.req(method.clone(), &format!("/api/v1{path}"), user);
    if let Some(b) = body {
        rb = rb.json(&b);
    }
    let (status, answer) = send(rb).await;
    let ok = match expect {
        Expect::Allowed => (200..300).contains(&status),
        Expect::Forbidden => status == 403 && answer["error"]["code"] == "forbidden",
        Expect::Unauthorized => status == 401 && answer["error"]["code"] == "unauthorized",
        Expect::Conflict => status == 409,
    };
    (!ok).then(|| format!("{action} as {}: expected {expect:?}, got {status} {answer} ({method} {path})", ROLES[role]))
}

#[actix_web::test]
async fn every_refused_cell_of_the_permission_matrix_answers_401_or_403_and_changes_nothing() {
    let app = spawn_app_with(MATRIX_LIMITS).await;
    let c = cast(&app).await;
    let w = world(&app, &c).await;
    let mut failures = Vec::new();
    let mut checked = 0;
    for (action, expects) in matrix() {
        for (role, expect) in expects.into_iter().enumerate() {
            if !matches!(expect, Expect::Forbidden | Expect::Unauthorized) {
                continue;
            }
            let before = app.counts(TABLES).await;
            if let Some(f) = run(&app, &action, role, expect, &w, &c).await {
                failures.push(f);
            }
            let after = app.counts(TABLES).await;
            if before != after {
                failures.push(format!("{action} as {} changed rows: {before:?} → {after:?}", ROLES[role]));
            }
            checked += 1;
        }
    }
    assert!(checked > 150, "only {checked} refused cells");
    assert!(failures.is_empty(), "{} cells wrong:\n{}", failures.len(), failures.join("\n"));
}

/// The matrix builds a world per cell with the same cast, so the owners make
/// thousands of requests in seconds; what it tests is who may, not the rate
/// limits (tests/api/http_edges.rs has those): they are off here.
const MATRIX_LIMITS: &[(&str, &str)] = &[("HTTP_USER_RATE_PER_SEC", "0"), ("HTTP_ADDRESS_RATE_PER_SEC", "0")];

#[actix_web::test]
async fn every_allowed_cell_of_the_permission_matrix_succeeds() {
    use futures_util::StreamExt;
    let app = spawn_app_with(MATRIX_LIMITS).await;
    let c = cast(&app).await;
    let cells: Vec<(String, usize, Expect)> = matrix()
        .into_iter()
        .flat_map(|(action, expects)| expects.into_iter().enumerate().map(move |(role, e)| (action.clone(), role, e)))
        .filter(|(_, _, e)| matches!(e, Expect::Allowed | Expect::Conflict))
        .collect();
    assert!(cells.len() > 90, "only {} allowed cells", cells.len());
    // Cells are independent (each has its own world): a few at a time.
    let failures: Vec<String> = futures_util::stream::iter(cells.iter())
        .map(|(action, role, expect)| {
            let (app, c) = (&app, &c);
            async move {
                let w = world(app, c).await;
                run(app, action, *role, *expect, &w, c).await
            }
        })
        .buffer_unordered(4)
        .filter_map(|f| async move { f })
        .collect()
        .await;
    assert!(failures.is_empty(), "{} cells wrong:\n{}", failures.len(), failures.join("\n"));
}

#[actix_web::test]
async fn the_matrix_rows_cover_every_guarded_route() {
    // Each documented action maps to a request; each request the test knows
    // is documented (a route added without a row fails here).
    let rows: Vec<String> = matrix().into_iter().map(|(a, _)| a).collect();
    let known = [
        "create_facility",
        "edit_facility",
        "delete_facility",
        "add_facility_manager",
        "remove_facility_manager",
        "transfer_facility",
        "create_team",
        "edit_team",
        "delete_team",
        "add_team_manager",
        "remove_team_manager",
        "transfer_team",
        "follow_user",
        "follow_facility",
        "follow_team",
        "edit_profile",
        "read_schedule",
        "read_team_upcoming",
        "make_calendar_feed",
        "create_season",
        "edit_season",
        "sync_history",
        "create_division_mapping",
        "edit_division_mapping",
        "delete_division_mapping",
        "create_roster",
        "edit_roster",
        "add_player",
        "edit_player",
        "remove_player",
        "request_to_join",
        "list_join_requests",
        "approve_join_request",
        "reject_join_request",
        "cancel_join_request",
        "create_season_event",
        "edit_event",
        "cancel_event",
        "edit_series",
        "cancel_series",
        "delete_event",
        "remove_attendee",
        "create_event_at_facility",
        "host_event",
        "unhost_event",
        "link_event_team",
        "unlink_event_team",
        "schedule_game",
        "edit_game",
        "add_scorekeeper",
        "score_game",
        "set_home_lineup",
        "set_away_lineup",
        "post_own_status",
        "post_team_status",
        "post_event_call",
        "edit_team_status",
        "take_down_team_status",
        "edit_own_status",
        "take_down_own_status",
        "make_sides",
        "set_bill",
        "grant_payment_collection",
        "set_rsvp_rules",
        "keep_series_regulars",
        "check_in_player",
        "read_event_history",
        "read_series_record",
        "read_availability",
        "set_availability_rules",
        "answer_availability",
        "nudge_availability",
        "read_roster_chat",
        "post_roster_chat",
        "invite_to_roster",
        "invite_to_event",
    ];
    assert_eq!(rows, known);
}
