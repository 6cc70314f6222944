//! Text that must not get in, refused the same way on SQLite and PostgreSQL:
//! control characters anywhere (a NUL made PostgreSQL answer 500 while
//! SQLite stored it), invisible formatting in names, LIKE wildcards taken as
//! patterns, and page sizes or dates outside any sensible range.

use crate::helpers::*;
use serde_json::{Value, json};

const START: &str = "2026-09-01T00:00:00Z";
const END: &str = "2027-03-31T00:00:00Z";

/// Asserts a 422 whose details name `field`, and returns that message.
fn refused(status: u16, body: &Value, field: &str) -> String {
    assert_error(status, body, 422, "validation_failed");
    body["error"]["details"][field].as_str().unwrap_or_else(|| panic!("no details.{field} in {body}")).to_string()
}

fn id(body: &Value) -> String {
    body["id"].as_str().unwrap_or_else(|| panic!("no id in {body}")).to_string()
}

async fn create(app: &TestApp, by: &TestUser, path: &str, body: Value) -> String {
    let (s, b) = app.post(path, Some(by), body).await;
    assert_eq!(s, 201, "{path}: {b}");
    id(&b)
}

fn names(page: &Value, key: &str) -> Vec<String> {
    let items = page["items"].as_array().unwrap_or_else(|| panic!("no items in {page}"));
    let mut out: Vec<String> = items.iter().map(|i| i[key].as_str().unwrap().to_string()).collect();
    out.sort();
    out
}

#[actix_web::test]
async fn a_control_character_in_a_query_parameter_is_refused_naming_the_query() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    for path in [
        "/api/v1/facilities?q=%00",
        "/api/v1/teams?q=%00",
        "/api/v1/users?q=%00",
        "/api/v1/facilities?q=a%0Ab",
        "/api/v1/users?q=%7F",
        "/api/v1/events?cursor=%00",
    ] {
        for viewer in [None, Some(&alice)] {
            let (status, body) = app.get(path, viewer).await;
            refused(status, &body, "query");
        }
    }
}

#[actix_web::test]
async fn a_control_character_in_a_path_id_is_not_found() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    for path in [
        "/api/v1/events/%00",
        "/api/v1/facilities/%00",
        "/api/v1/teams/%01",
        "/api/v1/users/%00",
        "/api/v1/seasons/%00",
        "/api/v1/rosters/%00",
        "/api/v1/games/%00",
        "/api/v1/facilities/x%C2%85y",
    ] {
        for viewer in [None, Some(&alice)] {
            let (status, body) = app.get(path, viewer).await;
            assert_error(status, &body, 404, "not_found");
        }
    }
    // Unfollowing does not look the target up: the id itself must be refused.
    for path in ["/api/v1/users/%00/follow", "/api/v1/facilities/%00/follow", "/api/v1/teams/a%1Bb/follow"] {
        let (status, body) = app.delete(path, Some(&alice)).await;
        assert_error(status, &body, 404, "not_found");
    }
}

#[actix_web::test]
async fn a_nul_in_a_text_field_is_refused_naming_the_field_and_nothing_is_stored() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let (_, before) = app.get("/api/v1/me", Some(&alice)).await;

    let (s, b) = app.patch("/api/v1/me", Some(&alice), json!({"bio": "a\u{0}b"})).await;
    refused(s, &b, "bio");
    let (s, b) = app.patch("/api/v1/me", Some(&alice), json!({"firstName": "Al\u{0}"})).await;
    refused(s, &b, "firstName");
    let (_, after) = app.get("/api/v1/me", Some(&alice)).await;
    assert_eq!(after, before, "the profile is untouched");

    let (s, b) = app.post("/api/v1/facilities", Some(&alice), json!({"name": "Rink\u{0}", "timezone": "UTC"})).await;
    refused(s, &b, "name");
    let (s, b) = app
        .post("/api/v1/facilities", Some(&alice), json!({"name": "Rink", "timezone": "UTC", "description": "x\u{0}"}))
        .await;
    refused(s, &b, "description");
    let (s, b) = app.post("/api/v1/teams", Some(&alice), json!({"name": "Owls\u{0}"})).await;
    refused(s, &b, "name");
    assert_eq!(app.count("facilities").await + app.count("teams").await, 0);

    // Events are not parsed by the text types yet: the JSON guard refuses them.
    let (s, b) = app
        .post(
            "/api/v1/events",
            Some(&alice),
            json!({"title": "Skate\u{0}", "startDate": "2026-12-05T19:00:00Z", "eventType": "PRACTICE"}),
        )
        .await;
    refused(s, &b, "title");
    assert_eq!(app.count("events").await, 0);

    let rink = create(&app, &alice, "/api/v1/facilities", json!({"name": "Rink", "timezone": "UTC"})).await;
    let seasons = format!("/api/v1/facilities/{rink}/seasons");
    let (s, b) = app.post(&seasons, Some(&alice), json!({"name": "W\u{0}", "startDate": START, "endDate": END})).await;
    refused(s, &b, "name");
    let season = create(&app, &alice, &seasons, json!({"name": "Winter", "startDate": START, "endDate": END})).await;
    let (s, b) = app
        .post(
            &format!("/api/v1/seasons/{season}/division-mappings"),
            Some(&alice),
            json!({"facilityDivisionName": "C2", "universalDivisionScale": "NOVICE", "description": "\u{0}"}),
        )
        .await;
    refused(s, &b, "description");
    assert_eq!(app.count("division_mappings").await, 0);
}

#[actix_web::test]
async fn names_refuse_every_control_character_while_descriptions_keep_their_line_breaks() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    for name in ["Maple\tArena", "Maple\nArena", "Maple\rArena", "Maple\u{7}Arena", "Maple\u{85}Arena"] {
        let (s, b) = app.post("/api/v1/facilities", Some(&alice), json!({"name": name, "timezone": "UTC"})).await;
        refused(s, &b, "name");
        let (s, b) = app.post("/api/v1/teams", Some(&alice), json!({"name": name})).await;
        refused(s, &b, "name");
    }
    let (s, b) = app.patch("/api/v1/me", Some(&alice), json!({"bio": "ding\u{7}"})).await;
    refused(s, &b, "bio");
    let (s, b) = app.post("/api/v1/teams", Some(&alice), json!({"name": "Owls", "description": "\u{1b}[31mred"})).await;
    refused(s, &b, "description");

    let text = "Line one\r\nLine two\n\tindented";
    let (s, team) = app.post("/api/v1/teams", Some(&alice), json!({"name": "Owls", "description": text})).await;
    assert_eq!(s, 201, "{team}");
    assert_eq!(team["description"], text);
    let (s, me) = app.patch("/api/v1/me", Some(&alice), json!({"bio": text})).await;
    assert_eq!(s, 200, "{me}");
    assert_eq!(me["bio"], text);
}

#[actix_web::test]
async fn bidi_overrides_and_invisible_marks_are_refused_in_names() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let rink = create(&app, &alice, "/api/v1/facilities", json!({"name": "Rink", "timezone": "UTC"})).await;
    let team = create(&app, &alice, "/api/v1/teams", json!({"name": "Owls"})).await;
    let season = create(
        &app,
        &alice,
        &format!("/api/v1/facilities/{rink}/seasons"),
        json!({"name": "Winter", "startDate": START, "endDate": END}),
    )
    .await;
    let rosters = app.count("rosters").await;
    for mark in ['\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}']
        .into_iter()
        .chain(['\u{2069}', '\u{200E}', '\u{200F}'])
    {
        let name = format!("Evil{mark}gnp.exe");
        let (s, b) = app.patch("/api/v1/me", Some(&alice), json!({"firstName": name})).await;
        refused(s, &b, "firstName");
        let (s, b) = app.patch("/api/v1/me", Some(&alice), json!({"lastName": name})).await;
        refused(s, &b, "lastName");
        let (s, b) = app.post("/api/v1/facilities", Some(&alice), json!({"name": name, "timezone": "UTC"})).await;
        refused(s, &b, "name");
        let (s, b) = app.patch(&format!("/api/v1/facilities/{rink}"), Some(&alice), json!({"name": name})).await;
        refused(s, &b, "name");
        let (s, b) = app.post("/api/v1/teams", Some(&alice), json!({"name": name})).await;
        refused(s, &b, "name");
        let (s, b) = app.patch(&format!("/api/v1/teams/{team}"), Some(&alice), json!({"name": name})).await;
        refused(s, &b, "name");
        let (s, b) = app.patch(&format!("/api/v1/seasons/{season}"), Some(&alice), json!({"name": name})).await;
        refused(s, &b, "name");
        let (s, b) = app
            .post(
                &format!("/api/v1/seasons/{season}/division-mappings"),
                Some(&alice),
                json!({"facilityDivisionName": name, "universalDivisionScale": "NOVICE"}),
            )
            .await;
        refused(s, &b, "facilityDivisionName");
        let (s, b) =
            app.post("/api/v1/rosters", Some(&alice), json!({"teamId": team, "seasonId": season, "name": name})).await;
        refused(s, &b, "name");
    }
    assert_eq!(app.count("rosters").await, rosters);
    assert_eq!(app.count("division_mappings").await, 0);

    // Right-to-left scripts and emoji joined with a zero-width joiner are names.
    for name in ["\u{645}\u{631}\u{62d}\u{628}\u{627}", "Family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"] {
        let (s, b) = app.post("/api/v1/teams", Some(&alice), json!({"name": name})).await;
        assert_eq!(s, 201, "{b}");
        assert_eq!(b["name"], name);
    }
}

#[actix_web::test]
async fn percent_underscore_and_backslash_in_a_search_match_only_themselves() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    for name in ["100% Ice", "Ice Palace", "Maple_Arena", "Maple Arena", "Back\\Slash Rink"] {
        create(&app, &alice, "/api/v1/facilities", json!({"name": name, "timezone": "UTC"})).await;
    }
    for name in ["A_Team", "AB Team"] {
        create(&app, &alice, "/api/v1/teams", json!({"name": name})).await;
    }
    app.user("sam_goalie").await;
    app.user("samxgoalie").await;

    for (path, key, want) in [
        ("/api/v1/facilities?q=%25", "name", vec!["100% Ice"]),
        ("/api/v1/facilities?q=_", "name", vec!["Maple_Arena"]),
        ("/api/v1/facilities?q=maple_", "name", vec!["Maple_Arena"]),
        ("/api/v1/facilities?q=%5C", "name", vec!["Back\\Slash Rink"]),
        ("/api/v1/facilities?q=ice", "name", vec!["100% Ice", "Ice Palace"]),
        ("/api/v1/teams?q=_", "name", vec!["A_Team"]),
        ("/api/v1/teams?q=%25", "name", vec![]),
        ("/api/v1/users?q=sam_goalie", "username", vec!["sam_goalie"]),
        ("/api/v1/users?q=_", "username", vec!["sam_goalie"]),
        ("/api/v1/users?q=samxgoalie", "username", vec!["samxgoalie"]),
    ] {
        let (s, page) = app.get(path, None).await;
        assert_eq!(s, 200, "{path}: {page}");
        assert_eq!(names(&page, key), want, "{path}");
    }
}

#[actix_web::test]
async fn a_page_size_outside_1_to_100_is_refused_naming_the_limit() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let rink = create(&app, &alice, "/api/v1/facilities", json!({"name": "Rink", "timezone": "UTC"})).await;
    let lists = [
        "/api/v1/facilities".to_string(),
        "/api/v1/teams".to_string(),
        "/api/v1/users".to_string(),
        format!("/api/v1/users/{}/followers", alice.id),
        format!("/api/v1/users/{}/following", alice.id),
        format!("/api/v1/users/{}/following/facilities", alice.id),
        format!("/api/v1/users/{}/following/teams", alice.id),
        format!("/api/v1/facilities/{rink}/followers"),
        format!("/api/v1/facilities/{rink}/seasons"),
        format!("/api/v1/facilities/{rink}/teams"),
    ];
    for list in &lists {
        for bad in ["-1", "0", "101", "1000"] {
            let (s, b) = app.get(&format!("{list}?limit={bad}"), Some(&alice)).await;
            let message = refused(s, &b, "limit");
            assert!(message.contains("100"), "{list}?limit={bad}: {message}");
        }
        for good in ["1", "100"] {
            let (s, b) = app.get(&format!("{list}?limit={good}"), Some(&alice)).await;
            assert_eq!(s, 200, "{list}?limit={good}: {b}");
        }
    }
}

#[actix_web::test]
async fn season_dates_outside_1900_to_2200_are_refused_in_words() {
    let app = spawn_app().await;
    let alice = app.user("alice").await;
    let rink = create(&app, &alice, "/api/v1/facilities", json!({"name": "Rink", "timezone": "UTC"})).await;
    let seasons = format!("/api/v1/facilities/{rink}/seasons");

    for (start, end, field) in [
        ("0000-01-01T00:00:00Z", END, "startDate"),
        ("1899-12-31T23:59:59Z", END, "startDate"),
        (START, "2201-01-01T00:00:00Z", "endDate"),
        (START, "9999-12-31T23:59:59Z", "endDate"),
    ] {
        let (s, b) = app.post(&seasons, Some(&alice), json!({"name": "Odd", "startDate": start, "endDate": end})).await;
        let message = refused(s, &b, field);
        assert!(message.contains("1900") && message.contains("2200"), "{start}..{end}: {message}");
    }
    assert_eq!(app.count("seasons").await, 0);

    let season = create(
        &app,
        &alice,
        &seasons,
        json!({"name": "Long", "startDate": "1900-01-01T00:00:00Z", "endDate": "2200-12-31T00:00:00Z"}),
    )
    .await;
    let (s, b) = app
        .patch(&format!("/api/v1/seasons/{season}"), Some(&alice), json!({"startDate": "0001-01-01T00:00:00Z"}))
        .await;
    refused(s, &b, "startDate");

    // Every other time the API reads has the same bounds.
    let (s, b) = app
        .post(
            "/api/v1/events",
            Some(&alice),
            json!({"title": "Ancient skate", "startDate": "0000-01-01T00:00:00Z", "eventType": "PRACTICE"}),
        )
        .await;
    refused(s, &b, "startDate");
}
