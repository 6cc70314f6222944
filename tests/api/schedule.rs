//! My schedule and the calendar feed (docs/schedule.md): my rosters'
//! league games, my teams' imported games and events with my answer on
//! each, my skates with my waitlist place, nobody else's answers; the feed
//! read by a real iCalendar parser, following every change, and refused
//! once revoked.

use crate::helpers::*;
use crate::rosters::{add, facility, id, roster, season};
use crate::sync::league;
use chrono::{DateTime, Duration, Utc};
use icalendar::{Calendar, CalendarComponent, Component};
use serde_json::{Value, json};

fn at(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A near window: from an hour ago to ten days ahead.
fn soon() -> String {
    let now = Utc::now();
    format!("from={}&to={}", at(now - Duration::hours(1)), at(now + Duration::days(10)))
}

async fn schedule(app: &TestApp, who: &TestUser, path: &str, window: &str) -> Vec<Value> {
    let (s, b) = app.get(&format!("{path}?{window}"), Some(who)).await;
    assert_eq!(s, 200, "{b}");
    b["items"].as_array().unwrap().clone()
}

fn find<'a>(items: &'a [Value], id: &str) -> Option<&'a Value> {
    items.iter().find(|i| i["id"] == id)
}

async fn event(app: &TestApp, org: &TestUser, body: Value) -> String {
    let (s, e) = app.post("/api/v1/events", Some(org), body).await;
    assert_eq!(s, 201, "{e}");
    id(&e)
}

async fn answer(app: &TestApp, who: &TestUser, event: &str, action: &str) -> Value {
    let (s, r) = app.put(&format!("/api/v1/events/{event}/rsvp"), Some(who), Some(json!({"action": action}))).await;
    assert_eq!(s, 200, "{r}");
    r
}

/// A Tuesday pickup two days ahead with one skater place, taken; then
/// `first` and `second` waitlisted in that order.
async fn full_pickup(app: &TestApp, org: &TestUser, facility: &str, first: &TestUser, second: &TestUser) -> String {
    let start = Utc::now() + Duration::days(2);
    let pickup = event(
        app,
        org,
        json!({"title": "Tuesday pickup", "startDate": at(start), "endDate": at(start + Duration::minutes(90)),
               "eventType": "OTHER", "facilityId": facility, "maxSkaters": 1, "location": "Rink 2, Maple Arena"}),
    )
    .await;
    let filler = app.user("filler").await;
    assert_eq!(answer(app, &filler, &pickup, "ATTENDING").await["status"], "ATTENDING");
    assert_eq!(answer(app, first, &pickup, "ATTENDING").await["waitlistRank"], 1);
    assert_eq!(answer(app, second, &pickup, "ATTENDING").await["waitlistRank"], 2);
    pickup
}

#[actix_web::test]
async fn my_schedule_has_my_league_game_my_imported_games_my_answers_and_nobody_elses_skates() {
    let app = spawn_app().await;
    // The league: a rink whose season imports its schedule; Blue Liners
    // (ours, run by the rink's staff here) play ten of its games.
    let league = league(&app).await;
    let blue = league.team(&app, &league.staff, "Blue Liners").await;
    let rivals = league.team(&app, &league.staff, "Rivals").await;
    league.point_at(&app, "/league.csv").await;
    league.synced(&app).await;
    let blue_roster = roster(&app, &league.staff, &blue, &league.season, json!({"name": "Blue Liners A"})).await;
    let rival_roster = roster(&app, &league.staff, &rivals, &league.season, json!({"name": "Rivals"})).await;
    let me = app.user("skater9").await;
    let (s, b) = add(&app, &league.staff, &blue_roster, &me, json!({"jerseyNumber": 9})).await;
    assert_eq!(s, 201, "{b}");

    // A league game between the rosters, three days ahead.
    let (s, g) = app
        .post(
            "/api/v1/games",
            Some(&league.staff),
            json!({"homeRosterId": blue_roster, "awayRosterId": rival_roster, "seasonId": league.season,
                   "scheduledAt": at(Utc::now() + Duration::days(3))}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    let game = id(&g);

    // Skates: I am second in line for a pickup; someone else's skate and
    // a skate I declined are not mine.
    let first = app.user("firstinline").await;
    let pickup = full_pickup(&app, &league.staff, &league.facility, &first, &me).await;
    let other = app.user("otherskater").await;
    let start = at(Utc::now() + Duration::days(4));
    let theirs =
        event(&app, &other, json!({"title": "Private skate", "startDate": start, "eventType": "PRACTICE"})).await;
    answer(&app, &other, &theirs, "ATTENDING").await;
    let declined =
        event(&app, &other, json!({"title": "Sunday shinny", "startDate": start, "eventType": "OTHER"})).await;
    answer(&app, &me, &declined, "DECLINED").await;

    let items = schedule(&app, &me, "/api/v1/me/schedule", &soon()).await;
    let g = find(&items, &game).unwrap_or_else(|| panic!("the league game in {items:?}"));
    assert_eq!(g["kind"], "GAME");
    assert_eq!(g["title"], "Blue Liners A vs Rivals");
    assert_eq!((g["myState"].as_str(), g["side"].as_str()), (Some("NOT_ANSWERED"), Some("HOME")));
    assert_eq!(g["timeZone"], "America/Toronto");
    assert_eq!(g["teamName"], "Blue Liners A");
    let p = find(&items, &pickup).unwrap_or_else(|| panic!("the pickup in {items:?}"));
    assert_eq!((p["myState"].as_str(), p["waitlistRank"].as_i64()), (Some("WAITLISTED"), Some(2)));
    assert_eq!((p["kind"].as_str(), p["eventType"].as_str()), (Some("EVENT"), Some("OTHER")));
    assert_eq!(p["place"], "Rink 2, Maple Arena");
    assert!(find(&items, &theirs).is_none() && find(&items, &declined).is_none(), "{items:?}");
    let starts: Vec<&str> = items.iter().map(|i| i["startsAt"].as_str().unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "soonest first: {starts:?}");
    assert_eq!(items.len(), 2, "{items:?}");

    // The imported games of my team, in the season: not answered until I
    // answer; an answer shows, a "no" stays (my team's game) to change.
    let season = "from=2026-09-01T00:00:00Z&to=2026-12-01T00:00:00Z";
    let imported = schedule(&app, &me, "/api/v1/me/schedule", season).await;
    let imported: Vec<&Value> = imported.iter().filter(|i| i["eventType"] == "EXTERNAL_GAME").collect();
    assert_eq!(imported.len(), 10, "Blue Liners play ten games: {imported:?}");
    assert!(imported.iter().all(|i| i["teamName"] == "Blue Liners" && i["myState"] == "NOT_ANSWERED"), "{imported:?}");
    assert!(imported.iter().all(|i| i["timeZone"] == "America/Toronto"));
    let (going, not_going) = (imported[0]["id"].as_str().unwrap(), imported[1]["id"].as_str().unwrap());
    answer(&app, &me, going, "ATTENDING").await;
    answer(&app, &me, not_going, "DECLINED").await;
    let after = schedule(&app, &me, "/api/v1/me/schedule", season).await;
    assert_eq!(find(&after, going).unwrap()["myState"], "ATTENDING");
    assert_eq!(find(&after, not_going).unwrap()["myState"], "DECLINED");
    let name = |i: &Value| (i["homeName"].as_str().map(String::from), i["awayName"].as_str().map(String::from));
    let (home, away) = name(find(&after, going).unwrap());
    assert!(home.as_deref() == Some("Blue Liners") || away.as_deref() == Some("Blue Liners"), "{home:?} {away:?}");

    // What anyone sees of me: my teams' games, not my skates, no answers.
    let stranger = app.user("stranger").await;
    let public = schedule(&app, &stranger, &format!("/api/v1/users/{}/schedule", me.id), &soon()).await;
    assert!(find(&public, &game).is_some(), "{public:?}");
    assert!(find(&public, &pickup).is_none(), "my skates are mine: {public:?}");
    let public_season = schedule(&app, &stranger, &format!("/api/v1/users/{}/schedule", me.id), season).await;
    assert_eq!(public_season.iter().filter(|i| i["eventType"] == "EXTERNAL_GAME").count(), 10);
    assert!(public.iter().chain(&public_season).all(|i| i["myState"].is_null() && i["waitlistRank"].is_null()));
    // The other skater's own schedule has their skate, not mine.
    let theirs_now = schedule(&app, &other, "/api/v1/me/schedule", &soon()).await;
    assert!(find(&theirs_now, &theirs).is_some() && find(&theirs_now, &pickup).is_none(), "{theirs_now:?}");

    // The team's upcoming: its imported games and its league game.
    let team = schedule(&app, &stranger, &format!("/api/v1/teams/{blue}/upcoming"), season).await;
    assert_eq!(team.iter().filter(|i| i["eventType"] == "EXTERNAL_GAME").count(), 10);
    let team_soon = schedule(&app, &stranger, &format!("/api/v1/teams/{blue}/upcoming"), &soon()).await;
    assert_eq!(team_soon.len(), 1, "{team_soon:?}");
    assert_eq!((team_soon[0]["id"].as_str(), team_soon[0]["myState"].is_null()), (Some(game.as_str()), true));

    // "Your teams": the rosters I play on.
    let (s, rosters) = app.get("/api/v1/me/rosters", Some(&me)).await;
    assert_eq!(s, 200);
    assert_eq!(
        rosters,
        json!([{"rosterId": blue_roster, "rosterName": "Blue Liners A", "teamId": blue,
        "teamName": "Blue Liners", "logoUrl": null, "seasonId": league.season, "seasonName": "Fall 2026 Adult League",
        "status": "DRAFT"}])
    );
}

#[actix_web::test]
async fn a_schedule_window_is_checked_and_a_schedule_needs_a_signed_in_reader() {
    let app = spawn_app().await;
    let me = app.user("reader").await;
    for (window, field) in [
        ("from=2026-09-01T00:00:00Z&to=2026-09-01T00:00:00Z", "to"),
        ("from=2026-09-01T00:00:00Z&to=2026-12-03T00:00:00Z", "to"),
        ("from=9999-12-31T00:00:00Z", "from"),
        ("from=next%20tuesday", "from"),
    ] {
        let (s, b) = app.get(&format!("/api/v1/me/schedule?{window}"), Some(&me)).await;
        assert_error(s, &b, 422, "validation_failed");
        assert!(b["error"]["details"][field].is_string(), "{window}: {b}");
    }
    let (s, b) = app.get("/api/v1/me/schedule", None).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.get("/api/v1/users/nobody/schedule", Some(&me)).await;
    assert_error(s, &b, 404, "not_found");
    let (s, b) = app.get("/api/v1/teams/nothing/upcoming", Some(&me)).await;
    assert_error(s, &b, 404, "not_found");
    let (s, b) = app.get("/api/v1/me/schedule", Some(&me)).await;
    assert_eq!((s, b["items"].clone()), (200, json!([])), "{b}");
}

fn events_of(calendar: &Calendar) -> Vec<&icalendar::Event> {
    calendar
        .components
        .iter()
        .filter_map(|c| match c {
            CalendarComponent::Event(e) => Some(e),
            _ => None,
        })
        .collect()
}

/// The feed as a real iCalendar parser reads it: (uid, summary, start) of
/// each event.
async fn feed(app: &TestApp, path: &str) -> Vec<(String, String, DateTime<Utc>, String)> {
    let res = app.http.get(app.url(path)).send().await.unwrap();
    assert_eq!(res.status(), 200, "{path}");
    let kind = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("text/calendar"), "{kind}");
    let text = res.text().await.unwrap();
    assert!(text.lines().all(|l| l.len() <= 75), "folded at 75 octets");
    let calendar: Calendar = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
    events_of(&calendar)
        .into_iter()
        .map(|e| {
            let start = match e.get_start() {
                Some(icalendar::DatePerhapsTime::DateTime(icalendar::CalendarDateTime::Utc(t))) => t,
                other => panic!("a UTC start, not {other:?}"),
            };
            let status = e.property_value("STATUS").unwrap_or_default().to_string();
            (e.get_uid().unwrap().to_string(), e.get_summary().unwrap().to_string(), start, status)
        })
        .collect()
}

#[actix_web::test]
async fn my_calendar_feed_reads_as_icalendar_follows_my_answers_and_dies_when_revoked() {
    let app = spawn_app().await;
    let rink = app.user("rinkowner").await;
    let facility = facility(&app, &rink).await;
    let season = season(&app, &rink, &facility).await;
    let me = app.user("skater9").await;
    let first = app.user("firstinline").await;
    let pickup = full_pickup(&app, &rink, &facility, &first, &me).await;

    let (s, b) = app.get("/api/v1/me/calendar-feed", Some(&me)).await;
    assert_eq!((s, b), (200, json!({"active": false, "createdAt": null})));
    let (s, made) = app.post("/api/v1/me/calendar-feed", Some(&me), json!({})).await;
    assert_eq!(s, 201, "{made}");
    let path = made["path"].as_str().unwrap().to_string();
    assert!(path.starts_with("/api/v1/calendar/") && path.ends_with(".ics"), "{path}");
    let (_, b) = app.get("/api/v1/me/calendar-feed", Some(&me)).await;
    assert_eq!(b["active"], true);

    // Read without a session, by a parser: my place in line in the title.
    let events = feed(&app, &path).await;
    assert_eq!(events.len(), 1, "{events:?}");
    let (uid, summary, start, status) = &events[0];
    assert_eq!(uid, &format!("event-{pickup}@rinkside"));
    assert_eq!(summary, "Tuesday pickup — waitlist #2");
    assert_eq!(status, "TENTATIVE");
    let (_, e) = app.get(&format!("/api/v1/events/{pickup}"), Some(&me)).await;
    assert_eq!(
        start.timestamp_millis(),
        DateTime::parse_from_rfc3339(e["startDate"].as_str().unwrap()).unwrap().timestamp_millis()
    );

    // The line moves: one ahead leaves, then the place frees up.
    answer(&app, &first, &pickup, "DECLINED").await;
    assert_eq!(feed(&app, &path).await[0].1, "Tuesday pickup — waitlist #1");
    let (_, attending) = app.get(&format!("/api/v1/events/{pickup}/attendees"), Some(&rink)).await;
    let filler = attending["attending"][0]["userId"].as_str().unwrap().to_string();
    let (s, b) = app.delete(&format!("/api/v1/events/{pickup}/attendees/{filler}"), Some(&rink)).await;
    assert_eq!(s, 200, "{b}");
    let now_in = feed(&app, &path).await;
    assert_eq!((now_in[0].0.as_str(), now_in[0].1.as_str()), (uid.as_str(), "Tuesday pickup — in"), "same UID");
    assert_eq!(now_in[0].3, "CONFIRMED");

    // A league game of mine joins the feed, titled as the game.
    let coach = app.user("coach").await;
    let owls = crate::rosters::team(&app, &coach, Some(&facility)).await;
    let owls_roster = roster(&app, &coach, &owls, &season, json!({"name": "Ice Owls"})).await;
    let (s, t) = app.post("/api/v1/teams", Some(&coach), json!({"name": "Hawks"})).await;
    assert_eq!(s, 201, "{t}");
    let hawks_roster = roster(&app, &coach, &id(&t), &season, json!({"name": "Hawks, Night; Crew"})).await;
    let (s, b) = add(&app, &coach, &owls_roster, &me, json!({})).await;
    assert_eq!(s, 201, "{b}");
    let (s, g) = app
        .post(
            "/api/v1/games",
            Some(&coach),
            json!({"homeRosterId": hawks_roster, "awayRosterId": owls_roster, "seasonId": season,
                   "scheduledAt": at(Utc::now() + Duration::days(5))}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    let with_game = feed(&app, &path).await;
    let game = with_game.iter().find(|e| e.0 == format!("game-{}@rinkside", id(&g))).expect("the game");
    // My availability for the game rides along, as an event's answer does
    // (docs/availability.md).
    assert_eq!(game.1, "Hawks, Night; Crew vs Ice Owls — not answered", "escaped and read back");

    // A new URL: the old one stops working; revoked: the new one too.
    let (s, again) = app.post("/api/v1/me/calendar-feed", Some(&me), json!({})).await;
    assert_eq!(s, 201);
    let fresh = again["path"].as_str().unwrap().to_string();
    assert_ne!(fresh, path);
    let (s, b) = app.get(&path, None).await;
    assert_error(s, &b, 404, "not_found");
    assert_eq!(feed(&app, &fresh).await.len(), 2);
    let (s, _) = app.delete("/api/v1/me/calendar-feed", Some(&me)).await;
    assert_eq!(s, 204);
    let (s, b) = app.get(&fresh, None).await;
    assert_error(s, &b, 404, "not_found");
    let (s, b) = app.delete("/api/v1/me/calendar-feed", Some(&me)).await;
    assert_error(s, &b, 404, "not_found");
    for junk in ["/api/v1/calendar/abc.ics", "/api/v1/calendar/x", &fresh.replace(".ics", "")] {
        let (s, b) = app.get(junk, None).await;
        assert_error(s, &b, 404, "not_found");
    }
    let (s, b) = app.post("/api/v1/me/calendar-feed", None, json!({})).await;
    assert_error(s, &b, 401, "unauthorized");
}

#[actix_web::test]
async fn add_to_calendar_downloads_one_event_with_my_standing() {
    let app = spawn_app().await;
    let rink = app.user("rinkowner").await;
    let facility = facility(&app, &rink).await;
    let me = app.user("skater9").await;
    let first = app.user("firstinline").await;
    let pickup = full_pickup(&app, &rink, &facility, &first, &me).await;
    let res = app
        .req(reqwest::Method::GET, &format!("/api/v1/events/{pickup}/calendar.ics"), Some(&me))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-disposition"], "attachment; filename=\"tuesday-pickup.ics\"");
    let calendar: Calendar = res.text().await.unwrap().parse().unwrap();
    let events = events_of(&calendar);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].get_summary(), Some("Tuesday pickup — waitlist #2"));
    assert_eq!(events[0].property_value("LOCATION"), Some("Rink 2, Maple Arena"));
    // Someone with no answer gets the event as it is.
    let stranger = app.user("stranger").await;
    let res = app
        .req(reqwest::Method::GET, &format!("/api/v1/events/{pickup}/calendar.ics"), Some(&stranger))
        .send()
        .await
        .unwrap();
    let calendar: Calendar = res.text().await.unwrap().parse().unwrap();
    assert_eq!(events_of(&calendar)[0].get_summary(), Some("Tuesday pickup — not answered"));
    let (s, b) = app.get(&format!("/api/v1/events/{pickup}/calendar.ics"), None).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.get("/api/v1/events/nothing/calendar.ics", Some(&me)).await;
    assert_error(s, &b, 404, "not_found");
}

#[actix_web::test]
async fn the_calendar_feed_keeps_a_tab_in_a_title_and_exports_the_events_description_with_an_organizer() {
    let app = spawn_app_with(&[("SMTP_FROM", "Rinkside <notifications@rinks.example.com>")]).await;
    let rink = app.user("rinkowner").await;
    let facility = facility(&app, &rink).await;
    let me = app.user("skater9").await;
    let start = Utc::now() + Duration::days(2);
    let pickup = event(
        &app,
        &rink,
        json!({"title": "Tuesday\tpickup", "startDate": at(start), "endDate": at(start + Duration::minutes(90)),
               "eventType": "OTHER", "facilityId": facility, "location": "Rink 2",
               "description": "Bring a dark and a light jersey.\nPay at the door; cash, please."}),
    )
    .await;
    answer(&app, &me, &pickup, "ATTENDING").await;
    let (s, made) = app.post("/api/v1/me/calendar-feed", Some(&me), json!({})).await;
    assert_eq!(s, 201, "{made}");
    let path = made["path"].as_str().unwrap();

    // As written: the tab kept, the description escaped, the place once.
    let text = app.http.get(app.url(path)).send().await.unwrap().text().await.unwrap();
    assert!(text.lines().all(|l| l.len() <= 75), "folded at 75 octets");
    let unfolded = text.replace("\r\n ", "");
    assert!(unfolded.contains("\r\nSUMMARY:Tuesday\tpickup — in\r\n"), "{unfolded}");
    assert!(
        unfolded.contains("\r\nDESCRIPTION:Bring a dark and a light jersey.\\nPay at the door\\; cash\\, please.\r\n"),
        "{unfolded}"
    );
    assert!(unfolded.contains("\r\nLOCATION:Rink 2\\, Maple Arena\r\n"), "{unfolded}");
    assert!(unfolded.contains("\r\nORGANIZER;CN=Rinkside:mailto:no-reply@rinks.example.com\r\n"), "{unfolded}");
    // As a calendar app reads it.
    let calendar: Calendar = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
    let events = events_of(&calendar);
    assert_eq!(events[0].get_summary(), Some("Tuesday\tpickup — in"));
    assert!(events[0].property_value("DESCRIPTION").unwrap().starts_with("Bring a dark and a light jersey."));
    assert_eq!(events[0].property_value("LOCATION"), Some("Rink 2, Maple Arena"));
}
