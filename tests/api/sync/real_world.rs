//! Schedules as outside testers met them in the wild (issue 26): a cache's
//! line after `END:VCALENDAR`, club feeds titled "Us vs. Them (Away)",
//! team names shouted in capitals, places written twice. Fixtures in
//! `tests/fixtures/schedules/`.

use super::league;
use super::source::our_fixture;
use crate::helpers::*;

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
