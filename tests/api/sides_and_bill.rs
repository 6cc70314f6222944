//! Fair sides and the ice bill (docs/sides-and-bill.md) over HTTP and the
//! socket: making, re-rolling, swapping and re-balancing sides; who may
//! grant payment collection; costs, shares, billing, paid amounts that
//! never move, credit, and a series' balances.

use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

struct Night {
    org: TestUser,
    facility: String,
    event: String,
    players: Vec<TestUser>,
}

async fn facility(app: &TestApp, owner: &TestUser, timezone: &str) -> String {
    let (s, f) =
        app.post("/api/v1/facilities", Some(owner), json!({"name": "Northside Arena", "timezone": timezone})).await;
    assert_eq!(s, 201, "{f}");
    f["id"].as_str().unwrap().to_string()
}

async fn event(app: &TestApp, org: &TestUser, body: Value) -> String {
    let mut full = json!({"title": "Tuesday pickup", "startDate": "2026-12-01T21:00:00-05:00", "eventType": "OTHER",
                          "maxSkaters": 20, "maxGoalies": 2});
    full.as_object_mut().unwrap().extend(body.as_object().unwrap().clone());
    let (s, e) = app.post("/api/v1/events", Some(org), full).await;
    assert_eq!(s, 201, "{e}");
    e["id"].as_str().unwrap().to_string()
}

async fn rsvp(app: &TestApp, u: &TestUser, event: &str, position: &str) {
    let (s, r) = app
        .put(
            &format!("/api/v1/events/{event}/rsvp"),
            Some(u),
            Some(json!({"action": "ATTENDING", "position": position})),
        )
        .await;
    assert_eq!(s, 200, "{r}");
}

/// An organiser at their own rink (so they may grant themselves
/// collection), a pickup there, and players in at the given positions.
async fn night(app: &TestApp, positions: &[&str]) -> Night {
    let org = app.user("organiser").await;
    let facility = facility(app, &org, "America/Toronto").await;
    let event = event(app, &org, json!({"facilityId": facility})).await;
    let mut players = Vec::new();
    for (i, position) in positions.iter().enumerate() {
        let p = app.user(&format!("player{i:02}")).await;
        rsvp(app, &p, &event, position).await;
        players.push(p);
    }
    Night { org, facility, event, players }
}

async fn grant(app: &TestApp, by: &TestUser, to: &TestUser) -> (u16, Value) {
    app.put(&format!("/api/v1/users/{}/payment-collection", to.id), Some(by), Some(json!({"enabled": true}))).await
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|p| p["userId"].as_str().unwrap().to_string()).collect()
}

const TEN: [&str; 10] = [
    "GOALIE",
    "GOALIE",
    "LEFT_DEFENSE",
    "RIGHT_DEFENSE",
    "LEFT_DEFENSE",
    "RIGHT_DEFENSE",
    "CENTER",
    "CENTER",
    "LEFT_WING",
    "RIGHT_WING",
];

#[actix_web::test]
async fn the_organiser_makes_two_fair_sides_and_each_player_is_told_theirs() {
    let app = spawn_app().await;
    let n = night(&app, &TEN).await;
    let path = format!("/api/v1/events/{}/sides", n.event);
    // Nobody but an organiser splits.
    let (s, b) = app.post(&path, Some(&n.players[0]), json!({"action": "MAKE"})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, before) = app.get(&path, Some(&n.players[0])).await;
    assert_eq!((s, before["version"].as_i64()), (200, Some(0)), "{before}");
    assert_eq!(before["unassigned"].as_array().unwrap().len(), 10);

    let (s, sides) = app.post(&path, Some(&n.org), json!({"action": "MAKE"})).await;
    assert_eq!(s, 200, "{sides}");
    assert_eq!(sides["version"], 1);
    let (dark, light) = (&sides["totals"]["dark"], &sides["totals"]["light"]);
    assert_eq!((dark["goalies"].as_i64(), light["goalies"].as_i64()), (Some(1), Some(1)), "one goalie each: {sides}");
    assert_eq!((dark["defence"].as_i64(), light["defence"].as_i64()), (Some(2), Some(2)), "{sides}");
    assert_eq!((dark["forwards"].as_i64(), light["forwards"].as_i64()), (Some(2), Some(2)), "{sides}");
    assert!(sides["unassigned"].as_array().unwrap().is_empty());

    // Each player's page says their side, and their notification does too.
    app.settled().await;
    let dark_ids = ids(&sides["dark"]);
    for p in &n.players {
        let (_, e) = app.get(&format!("/api/v1/events/{}", n.event), Some(p)).await;
        let want = if dark_ids.contains(&p.id) { "DARK" } else { "LIGHT" };
        assert_eq!(e["viewer"]["side"], want, "{}", e["viewer"]);
        let (_, notes) = app.get("/api/v1/notifications", Some(p)).await;
        let told: Vec<&Value> =
            notes["items"].as_array().unwrap().iter().filter(|i| i["type"] == "SIDES_SET").collect();
        assert_eq!(told.len(), 1, "{notes}");
        assert_eq!(told[0]["data"]["side"], want);
    }

    // A re-roll keeps the balance and still tells each person once.
    let (s, again) = app.post(&path, Some(&n.org), json!({"action": "REROLL"})).await;
    assert_eq!(s, 200, "{again}");
    assert_eq!(again["version"], 2);
    assert_eq!(again["totals"]["dark"]["goalies"], 1);
    let (_, notes) = app.get("/api/v1/notifications", Some(&n.players[0])).await;
    let told = notes["items"].as_array().unwrap().iter().filter(|i| i["type"] == "SIDES_SET").count();
    assert_eq!(told, 1, "replaced, not repeated: {notes}");
}

#[actix_web::test]
async fn a_swap_moves_two_players_and_a_rebalance_fills_a_hole_moving_few() {
    let app = spawn_app().await;
    let n = night(&app, &TEN).await;
    let path = format!("/api/v1/events/{}/sides", n.event);
    let (s, b) = app.post(&format!("{path}/swap"), Some(&n.org), json!({"userIds": [n.players[2].id]})).await;
    assert_error(s, &b, 409, "no_sides");
    let (_, sides) = app.post(&path, Some(&n.org), json!({"action": "MAKE"})).await;
    let (a, b) = (ids(&sides["dark"])[0].clone(), ids(&sides["light"])[0].clone());
    let (s, swapped) = app.post(&format!("{path}/swap"), Some(&n.org), json!({"userIds": [a, b]})).await;
    assert_eq!(s, 200, "{swapped}");
    assert!(ids(&swapped["light"]).contains(&a) && ids(&swapped["dark"]).contains(&b), "{swapped}");
    // Bad swaps change nothing.
    for bad in [json!({"userIds": []}), json!({"userIds": [a, a]}), json!({"userIds": ["nobody"]})] {
        let (s, body) = app.post(&format!("{path}/swap"), Some(&n.org), bad).await;
        assert_error(s, &body, 422, "validation_failed");
    }
    let (_, same) = app.get(&path, Some(&n.org)).await;
    assert_eq!(same["version"], swapped["version"]);

    // A skater drops out: a hole; a newcomer comes in: unassigned.
    let leaver = n.players.iter().find(|p| ids(&same["dark"]).contains(&p.id) && p.id != b).unwrap();
    let (s, _) =
        app.put(&format!("/api/v1/events/{}/rsvp", n.event), Some(leaver), Some(json!({"action": "DECLINED"}))).await;
    assert_eq!(s, 200);
    let newcomer = app.user("walkin").await;
    rsvp(&app, &newcomer, &n.event, "CENTER").await;
    let (_, holey) = app.get(&path, Some(&n.org)).await;
    let hole = holey["dark"].as_array().unwrap().iter().find(|p| p["userId"] == leaver.id.as_str()).unwrap();
    assert_eq!(hole["present"], false);
    assert_eq!(ids(&holey["unassigned"]), vec![newcomer.id.clone()]);

    // The organiser can point a newcomer at a side (and back), one request each.
    let swap = format!("{path}/swap");
    let (s, placed) = app.post(&swap, Some(&n.org), json!({"userIds": [newcomer.id], "side": "LIGHT"})).await;
    assert_eq!(s, 200, "{placed}");
    assert!(ids(&placed["light"]).contains(&newcomer.id), "{placed}");
    let (_, again) = app.post(&swap, Some(&n.org), json!({"userIds": [newcomer.id], "side": "LIGHT"})).await;
    assert_eq!(again["version"], placed["version"], "already there: nothing changes");
    let (s, b) = app.post(&swap, Some(&n.org), json!({"userIds": [a, b], "side": "DARK"})).await;
    assert_error(s, &b, 422, "validation_failed");
    let (_, back) = app.post(&swap, Some(&n.org), json!({"userIds": [newcomer.id], "side": "DARK"})).await;
    assert!(ids(&back["dark"]).contains(&newcomer.id), "{back}");

    let (s, rebalanced) = app.post(&path, Some(&n.org), json!({"action": "REBALANCE"})).await;
    assert_eq!(s, 200, "{rebalanced}");
    assert!(rebalanced["unassigned"].as_array().unwrap().is_empty());
    let all: Vec<String> = ids(&rebalanced["dark"]).into_iter().chain(ids(&rebalanced["light"])).collect();
    assert!(!all.contains(&leaver.id), "the hole is gone");
    let moved = all
        .iter()
        .filter(|id| **id != newcomer.id)
        .filter(|id| ids(&holey["dark"]).contains(id) != ids(&rebalanced["dark"]).contains(id))
        .count();
    // The newcomer fills the hole's side; at most one other crosses.
    assert!(moved <= 1, "moved {moved}: {holey} → {rebalanced}");
    assert_eq!(rebalanced["totals"]["dark"]["goalies"], 1);
}

#[actix_web::test]
async fn too_few_players_or_a_bad_action_is_refused() {
    let app = spawn_app().await;
    let n = night(&app, &["CENTER"]).await;
    let path = format!("/api/v1/events/{}/sides", n.event);
    let (s, b) = app.post(&path, Some(&n.org), json!({"action": "MAKE"})).await;
    assert_error(s, &b, 409, "not_enough_players");
    let (s, b) = app.post(&path, Some(&n.org), json!({"action": "SHUFFLE"})).await;
    assert_eq!(s, 422, "{b}");
    assert_eq!(app.count("event_sides").await, 0);
}

#[actix_web::test]
async fn only_a_rinks_staff_grant_payment_collection_and_anyone_may_turn_theirs_off() {
    let app = spawn_app().await;
    let n = night(&app, &["CENTER"]).await;
    let manager = app.user("manager").await;
    let stranger = app.user("stranger").await;
    // Nobody grants themselves through their profile any more.
    let (s, b) = app.patch("/api/v1/me", Some(&stranger), json!({"canCollectEventPayments": true})).await;
    assert_error(s, &b, 403, "forbidden");
    // A stranger cannot grant anyone; a rink's staff can grant its organisers.
    let (s, b) = grant(&app, &stranger, &manager).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) =
        app.put(&format!("/api/v1/facilities/{}/managers/{}", n.facility, manager.id), Some(&n.org), None).await;
    assert!(s < 300, "{b}");
    let (s, b) = grant(&app, &n.org, &manager).await;
    assert_eq!((s, b["enabled"].as_bool()), (200, Some(true)), "{b}");
    // Someone who organises nowhere near this rink is not theirs to grant.
    let (s, b) = grant(&app, &n.org, &stranger).await;
    assert_error(s, &b, 403, "forbidden");
    // Turning one's own off needs nobody.
    let (s, b) = app
        .put(
            &format!("/api/v1/users/{}/payment-collection", manager.id),
            Some(&manager),
            Some(json!({"enabled": false})),
        )
        .await;
    assert_eq!((s, b["enabled"].as_bool()), (200, Some(false)), "{b}");
    let (_, me) = app.get("/api/v1/me", Some(&manager)).await;
    assert_eq!(me["canCollectEventPayments"], false);
    let (s, b) = app.patch("/api/v1/me", Some(&manager), json!({"canCollectEventPayments": false})).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = app.put("/api/v1/users/nobody/payment-collection", Some(&n.org), Some(json!({"enabled": true}))).await;
    assert_error(s, &b, 404, "not_found");
}

#[actix_web::test]
async fn the_bill_splits_the_ice_over_who_played_and_paid_shares_never_move() {
    let app = spawn_app().await;
    // Four skaters and a goalie, the organiser not playing.
    let n = night(&app, &["CENTER", "LEFT_WING", "RIGHT_WING", "LEFT_DEFENSE", "GOALIE"]).await;
    let path = format!("/api/v1/events/{}/bill", n.event);
    let body = json!({"costCents": 10_000, "goaliePolicy": "FREE"});
    // Without collection the organiser cannot set a cost.
    let (s, b) = app.put(&path, Some(&n.org), Some(body.clone())).await;
    assert_error(s, &b, 403, "forbidden");
    let (_, before) = app.get(&path, Some(&n.org)).await;
    assert_eq!((before["canCollect"].as_bool(), before["organiserCanCollect"].as_bool()), (Some(false), Some(false)));
    assert_eq!(grant(&app, &n.org, &n.org).await.0, 200, "staff of their own rink");
    // Bad input changes nothing.
    for bad in [
        json!({"costCents": -1, "goaliePolicy": "FREE"}),
        json!({"costCents": 100, "goaliePolicy": "SOMETIMES"}),
        json!({"costCents": 100, "goaliePolicy": "FREE", "currency": "USD"}),
    ] {
        let (s, b) = app.put(&path, Some(&n.org), Some(bad)).await;
        assert_error(s, &b, 422, "validation_failed");
    }
    assert_eq!(app.count("ice_bills").await, 0);
    let (s, bill) = app.put(&path, Some(&n.org), Some(body)).await;
    assert_eq!(s, 200, "{bill}");
    assert_eq!(bill["currency"], "CAD", "a Toronto rink bills in Canadian dollars");
    assert_eq!((bill["canCollect"].as_bool(), bill["organiserCanCollect"].as_bool()), (Some(true), Some(true)));
    assert_eq!(bill["closedAt"], Value::Null);
    let amounts = |b: &Value| -> Vec<i64> {
        b["shares"].as_array().unwrap().iter().map(|s| s["amountCents"].as_i64().unwrap()).collect()
    };
    let mut preview = amounts(&bill);
    preview.sort();
    assert_eq!(preview, vec![0, 2_500, 2_500, 2_500, 2_500], "a free goalie: {bill}");
    // Before billing nobody owes anything.
    let (_, e) = app.get(&format!("/api/v1/events/{}", n.event), Some(&n.players[0])).await;
    assert_eq!(e["viewer"]["owesCents"], Value::Null);

    let (s, closed) = app.post(&format!("{path}/close"), Some(&n.org), json!({})).await;
    assert_eq!(s, 200, "{closed}");
    assert!(closed["closedAt"].is_string());
    assert_eq!(closed["outstandingCents"], 10_000);
    let (_, e) = app.get(&format!("/api/v1/events/{}", n.event), Some(&n.players[0])).await;
    assert_eq!((e["viewer"]["owesCents"].as_i64(), e["viewer"]["currency"].as_str()), (Some(2_500), Some("CAD")));
    // A player sees only their own line.
    let (_, mine) = app.get(&path, Some(&n.players[1])).await;
    assert_eq!(ids(&mine["shares"]), vec![n.players[1].id.clone()]);
    assert_eq!(mine["collectedCents"], 0);

    // Player 0 pays $25; then the ice costs $120 and one skater drops out.
    let (s, pay) = app
        .put(
            &format!("/api/v1/events/{}/payments/{}", n.event, n.players[0].id),
            Some(&n.org),
            Some(json!({"isPaid": true})),
        )
        .await;
    assert_eq!((s, pay["paidCents"].as_i64()), (200, Some(2_500)), "{pay}");
    app.put(&path, Some(&n.org), Some(json!({"costCents": 12_000, "goaliePolicy": "FREE"}))).await;
    app.put(&format!("/api/v1/events/{}/rsvp", n.event), Some(&n.players[3]), Some(json!({"action": "DECLINED"})))
        .await;
    let (_, after) = app.get(&path, Some(&n.org)).await;
    let line = |b: &Value, u: &TestUser| {
        b["shares"].as_array().unwrap().iter().find(|s| s["userId"] == u.id.as_str()).cloned()
    };
    assert_eq!(line(&after, &n.players[0]).unwrap()["amountCents"], 2_500, "paid stays: {after}");
    // $120 − $25 paid over the two unpaid skaters still in.
    assert_eq!(line(&after, &n.players[1]).unwrap()["amountCents"], 4_750);
    assert_eq!(line(&after, &n.players[2]).unwrap()["amountCents"], 4_750);
    assert!(line(&after, &n.players[3]).is_none(), "dropped and unpaid: no stake");
    assert_eq!(after["collectedCents"], 2_500);
    assert_eq!(after["outstandingCents"], 9_500);

    // The ice turns out cheaper than what was paid: credit.
    app.put(&path, Some(&n.org), Some(json!({"costCents": 2_000, "goaliePolicy": "FREE"}))).await;
    let (_, cheap) = app.get(&path, Some(&n.org)).await;
    assert_eq!(line(&cheap, &n.players[0]).unwrap()["creditCents"], 500, "{cheap}");
    let (_, e) = app.get(&format!("/api/v1/events/{}", n.event), Some(&n.players[0])).await;
    assert_eq!((e["viewer"]["paidCents"].as_i64(), e["viewer"]["creditCents"].as_i64()), (Some(2_500), Some(500)));
}

#[actix_web::test]
async fn a_players_owed_amount_reaches_their_open_page_live() {
    let app = spawn_app().await;
    let n = night(&app, &["CENTER", "CENTER"]).await;
    grant(&app, &n.org, &n.org).await;
    let mut page = app.ws().await;
    page.auth(&n.players[0]).await;
    let snapshot = page.subscribe(&format!("event:{}", n.event)).await;
    let seq = snapshot["seq"].as_i64().unwrap();
    app.put(
        &format!("/api/v1/events/{}/bill", n.event),
        Some(&n.org),
        Some(json!({"costCents": 3_000, "goaliePolicy": "FULL", "organiserPays": false})),
    )
    .await;
    let update = page.next_of("update", Duration::from_secs(5)).await.expect("the bill moves the event's version");
    assert!(update["seq"].as_i64().unwrap() > seq);
}

#[actix_web::test]
async fn a_series_total_is_split_over_its_weeks_and_each_person_sees_their_balance() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let rink = facility(&app, &org, "Europe/Stockholm").await;
    grant(&app, &org, &org).await;
    let first =
        event(&app, &org, json!({"facilityId": rink, "repeat": {"frequency": "WEEKLY", "until": "2026-12-16"}})).await;
    let (_, e) = app.get(&format!("/api/v1/events/{first}"), Some(&org)).await;
    let series = e["seriesId"].as_str().unwrap().to_string();
    let (_, s) = app.get(&format!("/api/v1/event-series/{series}"), Some(&org)).await;
    let weeks: Vec<String> =
        s["events"].as_array().unwrap().iter().map(|w| w["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(weeks.len(), 3, "{s}");
    let (s, bill) = app
        .put(
            &format!("/api/v1/event-series/{series}/bill"),
            Some(&org),
            Some(json!({"costCents": 10_000, "goaliePolicy": "HALF"})),
        )
        .await;
    assert_eq!(s, 200, "{bill}");
    assert_eq!(bill["currency"], "SEK");
    let costs: Vec<i64> = bill["weeks"].as_array().unwrap().iter().map(|w| w["costCents"].as_i64().unwrap()).collect();
    assert_eq!(costs, vec![3_334, 3_333, 3_333], "earlier weeks take the extra cent");

    // Two players on week one, billed; one pays.
    let (a, b) = (app.user("amelia").await, app.user("bruno").await);
    rsvp(&app, &a, &weeks[0], "CENTER").await;
    rsvp(&app, &b, &weeks[0], "CENTER").await;
    app.post(&format!("/api/v1/events/{}/bill/close", weeks[0]), Some(&org), json!({})).await;
    app.put(&format!("/api/v1/events/{}/payments/{}", weeks[0], a.id), Some(&org), Some(json!({"isPaid": true}))).await;
    let (_, whole) = app.get(&format!("/api/v1/event-series/{series}/bill"), Some(&org)).await;
    // The organiser is not in: the two players share week one.
    let person = |v: &Value, u: &TestUser| {
        v["people"].as_array().unwrap().iter().find(|p| p["userId"] == u.id.as_str()).cloned().unwrap()
    };
    assert_eq!(person(&whole, &a)["paidCents"], 1_667, "{whole}");
    assert_eq!(person(&whole, &b)["balanceCents"], 1_667, "{whole}");
    assert_eq!(whole["collectedCents"], 1_667);
    // Bruno sees only his own balance.
    let (_, his) = app.get(&format!("/api/v1/event-series/{series}/bill"), Some(&b)).await;
    assert_eq!(his["people"].as_array().unwrap().len(), 1);
    assert_eq!(his["people"][0]["owedCents"], 1_667);
}

#[actix_web::test]
async fn a_payment_marked_before_any_cost_counts_as_paid_in_full() {
    let app = spawn_app().await;
    let n = night(&app, &["CENTER", "CENTER", "CENTER"]).await;
    grant(&app, &n.org, &n.org).await;
    // Cash at the door, before the organiser has entered what the ice cost.
    let (s, pay) = app
        .put(
            &format!("/api/v1/events/{}/payments/{}", n.event, n.players[0].id),
            Some(&n.org),
            Some(json!({"isPaid": true})),
        )
        .await;
    assert_eq!((s, pay["isPaid"].as_bool(), &pay["paidCents"]), (200, Some(true), &Value::Null), "{pay}");
    let path = format!("/api/v1/events/{}/bill", n.event);
    app.put(&path, Some(&n.org), Some(json!({"costCents": 9_000, "goaliePolicy": "FREE", "organiserPays": false})))
        .await;
    let (_, bill) = app.post(&format!("{path}/close"), Some(&n.org), json!({})).await;
    let line =
        bill["shares"].as_array().unwrap().iter().find(|s| s["userId"] == n.players[0].id.as_str()).cloned().unwrap();
    assert_eq!((line["isPaid"].as_bool(), line["amountCents"].as_i64()), (Some(true), Some(3_000)), "{bill}");
    assert_eq!((bill["collectedCents"].as_i64(), bill["outstandingCents"].as_i64()), (Some(3_000), Some(6_000)));
    let (_, e) = app.get(&format!("/api/v1/events/{}", n.event), Some(&n.players[0])).await;
    assert_eq!((e["viewer"]["owesCents"].clone(), e["viewer"]["paidCents"].as_i64()), (Value::Null, Some(3_000)));
}
