//! Season sync (docs/sync.md): the fixture season in all three shapes from a
//! loopback schedule server, re-syncs that write nothing, moved, removed and
//! newly scored games, matching by hand and claims, refused sources.

mod real_world;
mod refused;
mod source;

use crate::helpers::*;
use crate::rosters::{END, START, id};
use serde_json::{Value, json};
use source::{Source, fixture};
use std::time::Duration;

/// A rink with a season whose schedule the loopback server publishes.
pub struct League {
    pub staff: TestUser,
    pub facility: String,
    pub season: String,
    pub source: Source,
}

pub async fn league(app: &TestApp) -> League {
    let staff = app.user("rinkstaff").await;
    let (s, b) = app
        .post("/api/v1/facilities", Some(&staff), json!({"name": "Example Ice Centre", "timezone": "America/Toronto"}))
        .await;
    assert_eq!(s, 201, "{b}");
    let facility = id(&b);
    let (s, b) = app
        .post(
            &format!("/api/v1/facilities/{facility}/seasons"),
            Some(&staff),
            json!({"name": "Fall 2026 Adult League", "startDate": START, "endDate": END}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let source = Source::start().await;
    source.put_fixtures();
    League { staff, facility, season: id(&b), source }
}

impl League {
    pub async fn point_at(&self, app: &TestApp, path: &str) {
        let (s, b) = app
            .patch(
                &format!("/api/v1/seasons/{}", self.season),
                Some(&self.staff),
                json!({"syncUrl": self.source.url(path)}),
            )
            .await;
        assert_eq!(s, 200, "{b}");
    }

    pub async fn sync(&self, app: &TestApp) -> (u16, Value) {
        app.post(&format!("/api/v1/seasons/{}/sync", self.season), Some(&self.staff), json!({})).await
    }

    pub async fn synced(&self, app: &TestApp) -> Value {
        let (s, b) = self.sync(app).await;
        assert_eq!(s, 200, "{b}");
        b
    }

    pub async fn games(&self, app: &TestApp) -> Vec<Value> {
        let (s, b) = app.get(&format!("/api/v1/seasons/{}/external-games", self.season), None).await;
        assert_eq!(s, 200, "{b}");
        b.as_array().unwrap().clone()
    }

    pub async fn rosters(&self, app: &TestApp) -> Vec<Value> {
        let (s, b) = app.get(&format!("/api/v1/seasons/{}/external-rosters", self.season), None).await;
        assert_eq!(s, 200, "{b}");
        b.as_array().unwrap().clone()
    }

    /// A team of ours at the rink, owned by `owner`.
    pub async fn team(&self, app: &TestApp, owner: &TestUser, name: &str) -> String {
        let (s, b) = app.post("/api/v1/teams", Some(owner), json!({"name": name, "facilityId": self.facility})).await;
        assert_eq!(s, 201, "{b}");
        id(&b)
    }
}

fn expected() -> Value {
    serde_json::from_str(&fixture("expected.json")).unwrap()
}

/// `2026-09-09T00:30:00.000Z` and `2026-09-09T00:30:00Z` are one instant.
fn utc(s: &Value) -> String {
    s.as_str().unwrap().replace(".000Z", "Z")
}

/// The season's games and teams are exactly the fixture's truth.
async fn assert_imports_expected(app: &TestApp, league: &League, ids_are_the_sources: bool) {
    let truth = expected();
    let games = league.games(app).await;
    let want = truth["games"].as_array().unwrap();
    assert_eq!(games.len(), want.len());
    for w in want {
        let g = games
            .iter()
            .find(|g| utc(&g["dateTime"]) == w["startUtc"].as_str().unwrap() && g["rink"] == w["rink"])
            .unwrap_or_else(|| panic!("no game at {} on {}", w["startUtc"], w["rink"]));
        assert_eq!(g["homeName"], w["home"], "{g}");
        assert_eq!(g["awayName"], w["away"], "{g}");
        assert_eq!(g["homeGoals"], w["home_goals"], "{g}");
        assert_eq!(g["awayGoals"], w["away_goals"], "{g}");
        assert_eq!(g["gameType"], w["type"], "{g}");
        assert_eq!(g["removed"], false);
        assert!(g["homeRosterId"].is_string() && g["awayRosterId"].is_string(), "{g}");
        if ids_are_the_sources {
            assert_eq!(g["externalId"], w["id"]);
        }
    }
    let mut teams: Vec<(String, String)> = league
        .rosters(app)
        .await
        .iter()
        .map(|r| (r["name"].as_str().unwrap().into(), r["originalDivision"].as_str().unwrap().into()))
        .collect();
    let mut want: Vec<(String, String)> = truth["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap().into(), t["division"].as_str().unwrap().into()))
        .collect();
    teams.sort();
    want.sort();
    assert_eq!(teams, want);
}

#[actix_web::test]
async fn a_csv_export_imports_to_the_fixture_truth() {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.point_at(&app, "/league.csv").await;
    let report = league.synced(&app).await;
    assert_eq!(report["format"], "CSV");
    assert_eq!(report["ok"], true);
    assert_eq!(report["games"], json!({"created": 40, "updated": 0, "unchanged": 0, "removed": 0}));
    assert_eq!(report["rosters"], json!({"created": 8, "updated": 0, "matched": 0, "unmatched": 8}));
    assert_imports_expected(&app, &league, true).await;
    let (_, season) = app.get(&format!("/api/v1/seasons/{}", league.season), Some(&league.staff)).await;
    assert!(season["lastSyncAt"].is_string(), "{season}");
    assert_eq!(season["lastSync"]["ok"], true);
}

#[actix_web::test]
async fn an_icalendar_feed_imports_to_the_fixture_truth() {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.point_at(&app, "/league.ics").await;
    let report = league.synced(&app).await;
    assert_eq!(report["format"], "ICALENDAR");
    assert_eq!(report["games"]["created"], 40);
    assert_imports_expected(&app, &league, false).await;
    let games = league.games(&app).await;
    assert!(games.iter().all(|g| g["externalId"].as_str().unwrap().ends_with("@scheduler.example")));
}

#[actix_web::test]
async fn a_daysmart_feed_is_followed_over_its_pages_and_imports_to_the_fixture_truth() {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.point_at(&app, "/dash/events?company=example&page[size]=30").await;
    let report = league.synced(&app).await;
    assert_eq!(report["format"], "DAYSMART");
    assert_eq!(report["games"]["created"], 40);
    assert_eq!(league.source.hits(), 2, "both pages, once each");
    assert_imports_expected(&app, &league, true).await;
    let rosters = league.rosters(&app).await;
    let mut ids: Vec<&str> = rosters.iter().map(|r| r["externalId"].as_str().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, ["2201", "2202", "2203", "2204", "2205", "2206", "2207", "2208"]);
}

#[actix_web::test]
async fn a_second_sync_of_an_unchanged_source_writes_nothing() {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.team(&app, &league.staff, "Blue Liners").await;
    league.point_at(&app, "/league.csv").await;
    let first = league.synced(&app).await;
    assert_eq!(first["events"]["created"], 10, "Blue Liners play 10 games: {first}");
    let games = app.count("external_games").await;
    let events = app.count("events").await;
    let second = league.synced(&app).await;
    assert_eq!(second["games"], json!({"created": 0, "updated": 0, "unchanged": 40, "removed": 0}));
    assert_eq!(second["rosters"], json!({"created": 0, "updated": 0, "matched": 1, "unmatched": 7}));
    assert_eq!(second["events"], json!({"created": 0, "updated": 0}));
    assert_eq!(second["statements"], 2, "only the run's record: {second}");
    assert_eq!((app.count("external_games").await, app.count("events").await), (games, events));
    let (s, runs) = app.get(&format!("/api/v1/seasons/{}/sync-runs", league.season), Some(&league.staff)).await;
    assert_eq!(s, 200);
    assert_eq!(runs["items"].as_array().unwrap().len(), 2);
    assert_eq!(runs["items"][0]["id"], second["id"], "newest first");
}

/// The fixture CSV with one line changed (by its game id).
fn csv_with(edits: &[(&str, Option<&str>)]) -> String {
    fixture("league.csv")
        .lines()
        .filter_map(|line| match edits.iter().find(|(id, _)| line.starts_with(&format!("{id},"))) {
            Some((_, replacement)) => replacement.map(String::from),
            None => Some(line.to_string()),
        })
        .map(|l| l + "\n")
        .collect()
}

#[actix_web::test]
async fn a_moved_game_updates_its_event_and_tells_its_people_a_removed_one_is_cancelled_a_score_fills_in() {
    let app = spawn_app().await;
    let league = league(&app).await;
    let blue = league.team(&app, &league.staff, "Blue Liners").await;
    // 770037 Frozen Assets – Blue Liners is not played yet at first.
    let unplayed = "770037,2026-11-10,20:30,21:40,Rink A,Adult C1,Frozen Assets,Blue Liners,,,Regular Season";
    league.source.put("/league.csv", "text/csv", csv_with(&[("770037", Some(unplayed))]));
    league.point_at(&app, "/league.csv").await;
    league.synced(&app).await;
    let games = league.games(&app).await;
    let event_of = |games: &[Value], ext: &str| -> String {
        let g = games.iter().find(|g| g["externalId"] == ext).unwrap();
        g["eventId"].as_str().unwrap_or_else(|| panic!("no event for {g}")).to_string()
    };
    let (moved, removed, scored) = (event_of(&games, "770005"), event_of(&games, "770001"), event_of(&games, "770037"));
    let (_, e) = app.get(&format!("/api/v1/events/{moved}"), Some(&league.staff)).await;
    assert_eq!(e["eventType"], "EXTERNAL_GAME");
    assert_eq!(e["title"], "Blue Liners vs Top Shelf");
    // Blue Liners are ours and at home; Top Shelf is not matched.
    assert_eq!(e["teams"], json!([{"teamId": blue, "teamName": "Blue Liners", "role": "HOME"}]));
    let (_, e) = app.get(&format!("/api/v1/events/{scored}"), Some(&league.staff)).await;
    assert_eq!((e["homeScore"].clone(), e["awayScore"].clone()), (Value::Null, Value::Null));
    // A Blue Liners player is going to the game that will move, and to the
    // one that will disappear.
    let player = app.user("bluedman").await;
    for event in [&moved, &removed] {
        let (s, b) =
            app.put(&format!("/api/v1/events/{event}/rsvp"), Some(&player), Some(json!({"action": "ATTENDING"}))).await;
        assert_eq!(s, 200, "{b}");
    }
    let mut ws = app.ws().await;
    ws.auth(&player).await;
    ws.subscribe("feed").await;

    // 770005 moves a day and to Rink B; 770001 is gone; 770037 was played 5–2.
    let moved_line = "770005,2026-09-16,21:00,22:10,Rink B,Adult C1,Blue Liners,Top Shelf,6,0,Regular Season";
    let played = "770037,2026-11-10,20:30,21:40,Rink A,Adult C1,Frozen Assets,Blue Liners,5,2,Regular Season";
    league.source.put(
        "/league.csv",
        "text/csv",
        csv_with(&[("770005", Some(moved_line)), ("770001", None), ("770037", Some(played))]),
    );
    let report = league.synced(&app).await;
    assert_eq!(report["games"], json!({"created": 0, "updated": 2, "unchanged": 37, "removed": 1}), "{report}");
    assert_eq!(report["events"]["updated"], 3, "{report}");

    let (_, e) = app.get(&format!("/api/v1/events/{moved}"), Some(&player)).await;
    assert_eq!(e["startDate"], "2026-09-17T01:00:00.000Z");
    assert_eq!(e["externalRink"], "Rink B");
    // Told live: the moved game's EVENT_UPDATED arrives on the open feed.
    let mut told = false;
    while let Some(u) = ws.next_of("update", Duration::from_secs(5)).await {
        if u["topic"] == "feed" && u["data"]["type"] == "EVENT_UPDATED" && u["data"]["resourceId"] == moved {
            assert_eq!(u["data"]["aggregatedData"]["changes"], json!(["TIME", "PLACE"]), "{u}");
            told = true;
            break;
        }
    }
    assert!(told, "the moved game's people were told live");
    let (_, e) = app.get(&format!("/api/v1/events/{removed}"), Some(&player)).await;
    assert!(e["cancelledAt"].is_string(), "a removed game's event is cancelled, not deleted: {e}");
    let games = league.games(&app).await;
    let gone = games.iter().find(|g| g["externalId"] == "770001").unwrap();
    assert_eq!(gone["removed"], true);
    let (_, e) = app.get(&format!("/api/v1/events/{scored}"), Some(&player)).await;
    assert_eq!((e["homeScore"].clone(), e["awayScore"].clone()), (json!(5), json!(2)));
    app.settled().await;
    let (_, feed) = app.get("/api/v1/feed", Some(&player)).await;
    let kinds: Vec<&str> = feed["items"].as_array().unwrap().iter().map(|i| i["type"].as_str().unwrap()).collect();
    assert!(kinds.iter().filter(|k| **k == "EVENT_UPDATED").count() >= 2, "moved and cancelled: {kinds:?}");
}

#[actix_web::test]
async fn followers_of_a_matched_team_get_one_item_for_a_sync_that_imports_its_games() {
    let app = spawn_app().await;
    let league = league(&app).await;
    let blue = league.team(&app, &league.staff, "Blue Liners").await;
    let fan = app.user("bluefan").await;
    let (s, b) = app.put(&format!("/api/v1/teams/{blue}/follow"), Some(&fan), None).await;
    assert_eq!(s, 204, "{b}");
    league.point_at(&app, "/league.csv").await;
    league.synced(&app).await;
    let (_, feed) = app.get("/api/v1/feed", Some(&fan)).await;
    let imported: Vec<&Value> =
        feed["items"].as_array().unwrap().iter().filter(|i| i["type"] == "EXTERNAL_GAME_IMPORTED").collect();
    assert_eq!(imported.len(), 1, "{feed}");
    assert_eq!(imported[0]["resourceId"], league.season);
    assert_eq!(imported[0]["aggregatedData"]["games"], 10);
}

#[actix_web::test]
async fn staff_match_near_named_teams_by_hand_and_their_games_get_events_that_a_sync_keeps() {
    let app = spawn_app().await;
    let league = league(&app).await;
    let captain = app.user("polarcap").await;
    let polar = league.team(&app, &captain, "The Polar Bears").await;
    league.point_at(&app, "/league.csv").await;
    league.synced(&app).await;
    let rosters = league.rosters(&app).await;
    let ext = rosters.iter().find(|r| r["name"] == "Polar Bears").unwrap();
    assert_eq!(ext["isMatched"], false);
    assert_eq!(ext["suggestions"][0]["teamId"], polar, "{ext}");
    let ext_id = ext["id"].as_str().unwrap();

    // Not staff: refused, nothing changes.
    let (s, b) =
        app.patch(&format!("/api/v1/external-rosters/{ext_id}"), Some(&captain), json!({"teamId": polar})).await;
    assert_error(s, &b, 403, "forbidden");
    // The captain claims it; staff confirm.
    let (s, b) =
        app.post(&format!("/api/v1/external-rosters/{ext_id}/claim"), Some(&captain), json!({"teamId": polar})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["claim"]["teamId"], polar);
    assert_eq!(b["claim"]["teamName"], "The Polar Bears");
    let (s, b) =
        app.patch(&format!("/api/v1/external-rosters/{ext_id}"), Some(&league.staff), json!({"teamId": polar})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (b["isMatched"].clone(), b["matchSource"].clone(), b["claim"].clone()),
        (json!(true), json!("MANUAL"), Value::Null)
    );
    let games = league.games(&app).await;
    let theirs: Vec<&Value> =
        games.iter().filter(|g| g["homeName"] == "Polar Bears" || g["awayName"] == "Polar Bears").collect();
    assert_eq!(theirs.len(), 10);
    assert!(theirs.iter().all(|g| g["eventId"].is_string()), "events at once");
    let (_, e) = app.get(&format!("/api/v1/events/{}", theirs[0]["eventId"].as_str().unwrap()), Some(&captain)).await;
    assert_eq!(e["eventType"], "EXTERNAL_GAME");
    let role = if theirs[0]["homeName"] == "Polar Bears" { "HOME" } else { "AWAY" };
    assert_eq!(e["teams"], json!([{"teamId": polar, "teamName": "The Polar Bears", "role": role}]));

    // A sync keeps the hand match; an already matched team cannot be claimed.
    let report = league.synced(&app).await;
    assert_eq!(report["rosters"]["matched"], 1);
    assert_eq!(report["events"]["created"], 0);
    let (s, b) =
        app.post(&format!("/api/v1/external-rosters/{ext_id}/claim"), Some(&captain), json!({"teamId": polar})).await;
    assert_error(s, &b, 409, "already_matched");
    // Unmatched by hand: stays unmatched through a sync.
    let (s, _) =
        app.patch(&format!("/api/v1/external-rosters/{ext_id}"), Some(&league.staff), json!({"teamId": null})).await;
    assert_eq!(s, 200);
    league.synced(&app).await;
    let ext = league.rosters(&app).await.into_iter().find(|r| r["name"] == "Polar Bears").unwrap();
    assert_eq!((ext["isMatched"].clone(), ext["matchSource"].clone()), (json!(false), json!("MANUAL")));
}

#[actix_web::test]
async fn a_claim_can_be_withdrawn_by_its_claimer_and_declined_by_staff_only() {
    let app = spawn_app().await;
    let league = league(&app).await;
    let captain = app.user("wolfcap").await;
    let stranger = app.user("stranger").await;
    let wolves = league.team(&app, &captain, "Wolverines HC").await;
    league.point_at(&app, "/league.csv").await;
    league.synced(&app).await;
    let ext = league.rosters(&app).await.into_iter().find(|r| r["name"] == "Wolverines").unwrap();
    let path = format!("/api/v1/external-rosters/{}/claim", ext["id"].as_str().unwrap());
    let (s, b) = app.post(&path, Some(&stranger), json!({"teamId": wolves})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, _) = app.post(&path, Some(&captain), json!({"teamId": wolves})).await;
    assert_eq!(s, 200);
    let (s, b) = app.delete(&path, Some(&stranger)).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, _) = app.delete(&path, Some(&league.staff)).await;
    assert_eq!(s, 204);
    let ext = league.rosters(&app).await.into_iter().find(|r| r["name"] == "Wolverines").unwrap();
    assert_eq!(ext["claim"], Value::Null);
}

#[actix_web::test]
async fn only_the_rinks_staff_sync_and_see_the_history() {
    let app = spawn_app().await;
    let league = league(&app).await;
    league.point_at(&app, "/league.csv").await;
    let someone = app.user("someone").await;
    let (s, b) = app.post(&format!("/api/v1/seasons/{}/sync", league.season), Some(&someone), json!({})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.get(&format!("/api/v1/seasons/{}/sync-runs", league.season), Some(&someone)).await;
    assert_error(s, &b, 403, "forbidden");
    assert_eq!(app.count("external_games").await, 0);
    assert_eq!(league.source.hits(), 0);
}

#[actix_web::test]
async fn a_season_without_a_url_cannot_sync_and_says_why() {
    let app = spawn_app().await;
    let league = league(&app).await;
    let (s, b) = league.sync(&app).await;
    assert_error(s, &b, 422, "validation_failed");
    assert!(b["error"]["details"]["syncUrl"].is_string(), "{b}");
}
