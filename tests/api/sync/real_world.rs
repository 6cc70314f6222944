//! Schedules as outside testers met them in the wild (issue 26): a cache's
//! line after `END:VCALENDAR`, club feeds titled "Us vs. Them (Away)",
//! team names shouted in capitals, places written twice. Fixtures in
//! `tests/fixtures/schedules/`.

use super::league;
use super::source::our_fixture;
use crate::helpers::*;
use serde_json::{Value, json};

#[actix_web::test]
async fn a_calendar_with_a_line_a_cache_appended_after_its_end_syncs() {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.source.put("/cached.ics", "text/calendar", our_fixture("cache-appended.ics"));
    league.point_at(&app, "/cached.ics").await;
    let report = league.synced(&app).await;
    assert_eq!(report["format"], "ICALENDAR");
    assert_eq!(report["games"]["created"], 2, "{report}");
    let games = league.games(&app).await;
    let ids: Vec<&str> = games.iter().map(|g| g["externalId"].as_str().unwrap()).collect();
    assert_eq!(ids, ["game-880001@scheduler.example", "game-880002@scheduler.example"]);
}

#[actix_web::test]
async fn a_club_feed_titled_us_vs_them_away_gets_the_home_side_right_and_each_opponent_once() {
    let app = spawn_app().await;
    let league = league(&app).await;
    let owls = league.team(&app, &league.staff, "Ice Owls").await;
    league.source.put("/owls.ics", "text/calendar", our_fixture("club-home-away.ics"));
    league.point_at(&app, "/owls.ics").await;
    let report = league.synced(&app).await;
    assert_eq!(report["games"]["created"], 6, "{report}");
    assert_eq!(report["rosters"], json!({"created": 4, "updated": 0, "matched": 1, "unmatched": 3}), "{report}");

    let mut names: Vec<String> =
        league.rosters(&app).await.iter().map(|r| r["name"].as_str().unwrap().to_string()).collect();
    names.sort();
    assert_eq!(names, ["Backcheckers", "Blue Liners", "Ice Owls", "Top Shelf"], "each opponent once");

    let games = league.games(&app).await;
    let sides: Vec<(&str, &str, &str, Value, Value)> = games
        .iter()
        .map(|g| {
            (
                g["externalId"].as_str().unwrap(),
                g["homeName"].as_str().unwrap(),
                g["awayName"].as_str().unwrap(),
                g["homeGoals"].clone(),
                g["awayGoals"].clone(),
            )
        })
        .collect();
    assert_eq!(
        sides,
        [
            ("owls-1@club.example", "Backcheckers", "Ice Owls", json!(2), json!(3)),
            ("owls-2@club.example", "Ice Owls", "Blue Liners", Value::Null, Value::Null),
            ("owls-3@club.example", "Top Shelf", "Ice Owls", Value::Null, Value::Null),
            ("owls-4@club.example", "Ice Owls", "Backcheckers", Value::Null, Value::Null),
            ("owls-5@club.example", "Blue Liners", "Ice Owls", Value::Null, Value::Null),
            ("owls-6@club.example", "Ice Owls", "Top Shelf", Value::Null, Value::Null),
        ]
    );
    // Our team's events say which side it plays.
    for g in &games {
        let role = if g["homeName"] == "Ice Owls" { "HOME" } else { "AWAY" };
        let (_, e) = app.get(&format!("/api/v1/events/{}", g["eventId"].as_str().unwrap()), Some(&league.staff)).await;
        assert_eq!(e["title"], format!("{} vs {}", g["homeName"].as_str().unwrap(), g["awayName"].as_str().unwrap()));
        assert_eq!(e["teams"], json!([{"teamId": owls, "teamName": "Ice Owls", "role": role}]), "{e}");
    }
}

/// A calendar of `events` (VEVENT bodies), as a club's site writes one.
fn calendar(events: &[String]) -> String {
    let events: String = events.iter().map(|e| format!("BEGIN:VEVENT\r\n{e}\r\nEND:VEVENT\r\n")).collect();
    format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Club//EN\r\n{events}END:VCALENDAR\r\n")
}

fn vevent(uid: &str, start: chrono::DateTime<chrono::Utc>, summary: &str, location: &str) -> String {
    format!(
        "UID:{uid}\r\nDTSTART:{}\r\nDURATION:PT1H10M\r\nSUMMARY:{summary}\r\nLOCATION:{location}",
        start.format("%Y%m%dT%H%M%SZ")
    )
}

#[actix_web::test]
async fn a_shouted_team_name_takes_the_nicer_spelling_the_feed_has() {
    let app = spawn_app().await;
    let league = league(&app).await;
    let day = chrono::Utc::now() + chrono::Duration::days(3);
    let week = chrono::Duration::days(7);
    let body = calendar(&[
        vevent("s1", day, "ICE OWLS vs BLUE LINERS", "Rink A"),
        vevent("s2", day + week, "Top Shelf vs Ice Owls", "Rink A"),
        vevent("s3", day + week * 2, "ICE OWLS @ Top Shelf", "Rink A"),
    ]);
    league.source.put("/shouted.ics", "text/calendar", body);
    league.point_at(&app, "/shouted.ics").await;
    league.synced(&app).await;
    let mut names: Vec<String> =
        league.rosters(&app).await.iter().map(|r| r["name"].as_str().unwrap().to_string()).collect();
    names.sort();
    assert_eq!(names, ["BLUE LINERS", "Ice Owls", "Top Shelf"], "only ever shouted: kept as written");
    let sides: Vec<(String, String)> = league
        .games(&app)
        .await
        .iter()
        .map(|g| (g["homeName"].as_str().unwrap().into(), g["awayName"].as_str().unwrap().into()))
        .collect();
    let pair = |h: &str, a: &str| (h.to_string(), a.to_string());
    assert_eq!(sides, [pair("Ice Owls", "BLUE LINERS"), pair("Top Shelf", "Ice Owls"), pair("Top Shelf", "Ice Owls")]);
}

#[actix_web::test]
async fn a_place_the_source_writes_twice_is_written_once_in_the_game_and_the_calendar_feed() {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.team(&app, &league.staff, "Ice Owls").await;
    let start = chrono::Utc::now() + chrono::Duration::days(3);
    // The season's rink is "Example Ice Centre"; the club writes it into
    // every place, with the sheet after it.
    let body = calendar(&[vevent(
        "p1",
        start,
        "Ice Owls vs Blue Liners",
        "Example Ice Centre - Rink 2\\, 100 River Rd\\, Toronto",
    )]);
    league.source.put("/club.ics", "text/calendar", body);
    league.point_at(&app, "/club.ics").await;
    league.synced(&app).await;
    let games = league.games(&app).await;
    assert_eq!(games[0]["rink"], "Rink 2", "{games:?}");
    let event = games[0]["eventId"].as_str().unwrap().to_string();
    let (_, e) = app.get(&format!("/api/v1/events/{event}"), Some(&league.staff)).await;
    assert_eq!(e["externalRink"], "Rink 2");

    let (s, r) = app
        .put(&format!("/api/v1/events/{event}/rsvp"), Some(&league.staff), Some(json!({"action": "ATTENDING"})))
        .await;
    assert_eq!(s, 200, "{r}");
    let (s, made) = app.post("/api/v1/me/calendar-feed", Some(&league.staff), json!({})).await;
    assert_eq!(s, 201, "{made}");
    let res = app.http.get(app.url(made["path"].as_str().unwrap())).send().await.unwrap();
    let text = res.text().await.unwrap().replace("\r\n ", "");
    let vevent = &text[text.find("BEGIN:VEVENT").unwrap()..];
    assert!(vevent.contains("\r\nLOCATION:Rink 2\\, Example Ice Centre\r\n"), "{vevent}");
    assert!(vevent.contains("\r\nDESCRIPTION:Ice Owls vs Blue Liners\r\n"), "no rink in the description: {vevent}");
}
