//! Team chat (docs/chat.md) over HTTP and the socket: members only, one
//! order for everyone and every open screen live, paging that lists every
//! message once, unread counts and the read mark, mutes, edits and deletes
//! by the right people, a retried send posted once, the flood limit, and
//! unread messages told by notification to members who are not looking.

use crate::games::{League, league};
use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

fn roster_chat(l: &League) -> String {
    format!("roster-{}", l.home.roster)
}

async fn post(app: &TestApp, who: &TestUser, chat: &str, body: &str) -> Value {
    let (s, m) = app.post(&format!("/api/v1/chats/{chat}/messages"), Some(who), json!({"body": body})).await;
    assert_eq!(s, 201, "{m}");
    m
}

async fn conversation(app: &TestApp, who: &TestUser, chat: &str) -> Value {
    let (s, list) = app.get("/api/v1/chats", Some(who)).await;
    assert_eq!(s, 200, "{list}");
    list["items"].as_array().unwrap().iter().find(|c| c["id"] == chat).cloned().unwrap_or(Value::Null)
}

async fn total_unread(app: &TestApp, who: &TestUser) -> i64 {
    app.get("/api/v1/chats", Some(who)).await.1["unread"].as_i64().unwrap()
}

#[actix_web::test]
async fn members_post_in_one_order_and_every_open_screen_sees_it_live() {
    let app = spawn_app().await;
    let l = league(&app, 3).await;
    let chat = roster_chat(&l);
    let p = &l.home.players;

    let mut ws = app.ws().await;
    ws.auth(&p[0]).await;
    let snap = ws.subscribe(&format!("chat:{chat}")).await;
    assert_eq!((snap["seq"].as_i64(), snap["data"]["messages"].as_array().map(Vec::len)), (Some(0), Some(0)), "{snap}");

    let first = post(&app, &l.home.coach, &chat, "Ice at 9, bring both jerseys").await;
    assert_eq!((first["seq"].as_i64(), first["author"]["id"].as_str()), (Some(1), Some(l.home.coach.id.as_str())));
    let live = ws.next_of("update", Duration::from_secs(5)).await.expect("the message arrives live");
    assert_eq!(live["data"]["message"]["id"], first["id"]);
    assert_eq!(live["data"]["message"]["body"], "Ice at 9, bring both jerseys");
    post(&app, &p[1], &chat, "I'll be there").await;
    let next = ws.next_of("update", Duration::from_secs(5)).await.unwrap();
    assert_eq!(next["data"]["message"]["seq"], 2);
    assert!(next["seq"].as_i64() > live["seq"].as_i64(), "{live} then {next}");

    let (s, page) = app.get(&format!("/api/v1/chats/{chat}"), Some(&p[2])).await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(
        (page["kind"].as_str(), page["title"].as_str(), page["canModerate"].as_bool()),
        (Some("ROSTER"), Some("Owls"), Some(false))
    );
    let bodies: Vec<&str> = page["messages"].as_array().unwrap().iter().map(|m| m["body"].as_str().unwrap()).collect();
    assert_eq!(bodies, ["Ice at 9, bring both jerseys", "I'll be there"]);
    let (_, page) = app.get(&format!("/api/v1/chats/{chat}"), Some(&l.home.coach)).await;
    assert_eq!(page["canModerate"], true, "the team's owner moderates");

    // Nobody else reads, posts or follows; a name that is no conversation is 404.
    for outsider in [&l.away.players[0], &l.away.coach] {
        let (s, b) = app.get(&format!("/api/v1/chats/{chat}"), Some(outsider)).await;
        assert_error(s, &b, 403, "forbidden");
        let (s, b) = app.post(&format!("/api/v1/chats/{chat}/messages"), Some(outsider), json!({"body": "hi"})).await;
        assert_error(s, &b, 403, "forbidden");
    }
    let mut theirs = app.ws().await;
    theirs.auth(&l.away.players[0]).await;
    theirs.send(json!({"type": "subscribe", "topic": format!("chat:{chat}")})).await;
    let refused = theirs.next_of("error", Duration::from_secs(5)).await.expect("refused");
    assert_eq!(refused["error"]["code"], "forbidden", "{refused}");
    for missing in ["team-1", "roster-nope", "event-nope"] {
        let (s, b) = app.get(&format!("/api/v1/chats/{missing}"), Some(&p[0])).await;
        assert_error(s, &b, 404, "not_found");
    }
    let (s, b) = app.get(&format!("/api/v1/chats/{chat}"), None).await;
    assert_error(s, &b, 401, "unauthorized");
}

#[actix_web::test]
async fn an_events_chat_is_for_the_people_in_or_waitlisted_and_its_organisers() {
    let app = spawn_app().await;
    let org = app.user("organiser").await;
    let (inn, waiting, out) = (app.user("skater_in").await, app.user("skater_wait").await, app.user("stranger").await);
    let start = chrono::Utc::now() + chrono::Duration::days(2);
    let (s, e) = app
        .post(
            "/api/v1/events",
            Some(&org),
            json!({"title": "Tuesday pickup", "startDate": start.to_rfc3339(), "eventType": "OTHER", "maxSkaters": 1}),
        )
        .await;
    assert_eq!(s, 201, "{e}");
    let event = e["id"].as_str().unwrap();
    for who in [&inn, &waiting] {
        let (s, b) = app
            .put(
                &format!("/api/v1/events/{event}/rsvp"),
                Some(who),
                Some(json!({"action": "ATTENDING", "position": "CENTER"})),
            )
            .await;
        assert_eq!(s, 200, "{b}");
    }
    let chat = format!("event-{event}");
    let m = post(&app, &waiting, &chat, "Anyone have a spare stick?").await;
    post(&app, &inn, &chat, "I do").await;
    let (s, b) = app.post(&format!("/api/v1/chats/{chat}/messages"), Some(&out), json!({"body": "me too"})).await;
    assert_error(s, &b, 403, "forbidden");
    // The organiser moderates: deletes another's message.
    let (s, b) = app.delete(&format!("/api/v1/chats/{chat}/messages/{}", m["id"].as_str().unwrap()), Some(&org)).await;
    assert_eq!(s, 204, "{b}");
    let listed = conversation(&app, &org, &chat).await;
    assert_eq!(
        (listed["kind"].as_str(), listed["title"].as_str()),
        (Some("EVENT"), Some("Tuesday pickup")),
        "{listed}"
    );
    assert_eq!(listed["unread"], 1, "the deleted message is not counted: {listed}");
}

#[actix_web::test]
async fn paging_back_lists_every_message_once_in_order() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let chat = roster_chat(&l);
    for n in 1..=23 {
        post(&app, if n % 2 == 0 { &l.home.coach } else { &l.home.players[0] }, &chat, &format!("message {n}")).await;
    }
    for limit in [1, 5, 7, 23, 100] {
        let mut seen = Vec::new();
        let mut before: Option<i64> = None;
        loop {
            let q = before.map(|b| format!("&before={b}")).unwrap_or_default();
            let (s, page) =
                app.get(&format!("/api/v1/chats/{chat}/messages?limit={limit}{q}"), Some(&l.home.coach)).await;
            assert_eq!(s, 200, "{page}");
            let seqs: Vec<i64> = page["items"].as_array().unwrap().iter().map(|m| m["seq"].as_i64().unwrap()).collect();
            seen.splice(0..0, seqs);
            match page["nextBefore"].as_i64() {
                Some(b) => before = Some(b),
                None => break,
            }
        }
        assert_eq!(seen, (1..=23).collect::<Vec<_>>(), "limit {limit}");
    }
    for bad in ["limit=0", "limit=101", "before=0", "limit=x"] {
        let (s, b) = app.get(&format!("/api/v1/chats/{chat}/messages?{bad}"), Some(&l.home.coach)).await;
        assert!(s == 400 || s == 422, "{bad} → {s} {b}");
    }
}

#[actix_web::test]
async fn unread_counts_follow_the_read_mark_and_a_mute_leaves_the_total() {
    let app = spawn_app().await;
    let l = league(&app, 2).await;
    let chat = roster_chat(&l);
    let (a, b) = (&l.home.players[0], &l.home.players[1]);
    let mut ws = app.ws().await;
    ws.auth(b).await;
    let snap = ws.subscribe("chats").await;
    assert_eq!(snap["data"]["unread"], 0, "{snap}");

    for text in ["one", "two", "three"] {
        post(&app, a, &chat, text).await;
    }
    // Counts may arrive out of order: the newest version wins.
    let mut last = Value::Null;
    while let Some(u) = ws.next_of("update", Duration::from_secs(2)).await {
        if u["data"]["version"].as_i64() >= last["data"]["version"].as_i64() {
            last = u;
        }
    }
    assert_eq!(
        (last["data"]["conversationId"].as_str(), last["data"]["unread"].as_i64()),
        (Some(chat.as_str()), Some(3)),
        "{last}"
    );
    assert_eq!(last["topic"], "chats", "the owner's name for their own topic: {last}");
    assert_eq!(last["data"]["lastMessage"]["body"], "three");
    assert_eq!(conversation(&app, b, &chat).await["unread"], 3);
    assert_eq!(conversation(&app, a, &chat).await["unread"], 0, "one's own messages are read");
    assert_eq!(total_unread(&app, b).await, 3);

    let (s, mark) = app.put(&format!("/api/v1/chats/{chat}/read"), Some(b), Some(json!({"seq": 2}))).await;
    assert_eq!((s, mark["readSeq"].as_i64(), mark["unread"].as_i64()), (200, Some(2), Some(1)), "{mark}");
    let (_, mark) = app.put(&format!("/api/v1/chats/{chat}/read"), Some(b), Some(json!({"seq": 1}))).await;
    assert_eq!(mark["readSeq"], 2, "the mark never goes back: {mark}");
    let (s, c) = app.put(&format!("/api/v1/chats/{chat}/mute"), Some(b), Some(json!({"muted": true}))).await;
    assert_eq!((s, c["muted"].as_bool(), c["unread"].as_i64()), (200, Some(true), Some(1)), "{c}");
    assert_eq!(total_unread(&app, b).await, 0, "a muted conversation is not in the total");
    let (s, e) = app.put(&format!("/api/v1/chats/{chat}/read"), Some(b), Some(json!({"seq": -1}))).await;
    assert_error(s, &e, 422, "validation_failed");
}

#[actix_web::test]
async fn edits_and_deletes_are_live_and_only_the_author_or_a_moderator_makes_them() {
    let app = spawn_app().await;
    let l = league(&app, 2).await;
    let chat = roster_chat(&l);
    let (a, b) = (&l.home.players[0], &l.home.players[1]);
    let m = post(&app, a, &chat, "Game at 8").await;
    let path = format!("/api/v1/chats/{chat}/messages/{}", m["id"].as_str().unwrap());
    let mut ws = app.ws().await;
    ws.auth(b).await;
    ws.subscribe(&format!("chat:{chat}")).await;

    let (s, e) = app.patch(&path, Some(a), json!({"body": "Game at 8:30"})).await;
    assert_eq!((s, e["body"].as_str()), (200, Some("Game at 8:30")), "{e}");
    assert!(e["editedAt"].is_string());
    let live = ws.next_of("update", Duration::from_secs(5)).await.unwrap();
    assert_eq!(
        (live["data"]["message"]["seq"].as_i64(), live["data"]["message"]["body"].as_str()),
        (Some(1), Some("Game at 8:30"))
    );

    let (s, r) = app.patch(&path, Some(b), json!({"body": "mine now"})).await;
    assert_error(s, &r, 403, "forbidden");
    let (s, r) = app.delete(&path, Some(b)).await;
    assert_error(s, &r, 403, "forbidden");
    let (s, r) = app.patch(&path, Some(a), json!({"body": "   "})).await;
    assert_error(s, &r, 422, "validation_failed");

    // The team's owner takes it down: gone for everyone, its place kept.
    let (s, _) = app.delete(&path, Some(&l.home.coach)).await;
    assert_eq!(s, 204);
    let live = ws.next_of("update", Duration::from_secs(5)).await.unwrap();
    assert_eq!(
        (live["data"]["message"]["body"].clone(), live["data"]["message"]["deletedAt"].is_string()),
        (Value::Null, true)
    );
    let (s, r) = app.patch(&path, Some(a), json!({"body": "back"})).await;
    assert_error(s, &r, 409, "conflict");
    let (s, _) = app.delete(&path, Some(a)).await;
    assert_eq!(s, 204, "deleting again is a no-op");
    assert_eq!(post(&app, b, &chat, "next").await["seq"], 2);
}

#[actix_web::test]
async fn a_send_retried_with_its_key_posts_once_and_a_flood_is_cut() {
    let app = spawn_app().await;
    let l = league(&app, 1).await;
    let chat = roster_chat(&l);
    let p = &l.home.players[0];
    let send = |body: &'static str, key: &'static str| {
        app.req(reqwest::Method::POST, &format!("/api/v1/chats/{chat}/messages"), Some(p))
            .header("Idempotency-Key", key)
            .json(&json!({"body": body}))
    };
    let (s, first) = crate::helpers::send(send("On my way", "k-1")).await;
    assert_eq!(s, 201, "{first}");
    let (s, again) = crate::helpers::send(send("On my way", "k-1")).await;
    assert_eq!((s, &again["id"]), (200, &first["id"]), "{again}");
    let (s, other) = crate::helpers::send(send("Something else", "k-1")).await;
    assert_error(s, &other, 422, "idempotency_key_reused");
    assert_eq!(app.count("chat_messages").await, 1);

    let mut statuses = Vec::new();
    for n in 0..21 {
        let (s, _) =
            app.post(&format!("/api/v1/chats/{chat}/messages"), Some(p), json!({"body": format!("spam {n}")})).await;
        statuses.push(s);
    }
    // 20 at once (one went above), then 2 a second: the 21st in a burst is cut.
    let posted = statuses.iter().filter(|s| **s == 201).count();
    assert!((19..=20).contains(&posted), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    let (s, b) = app.post(&format!("/api/v1/chats/{chat}/messages"), Some(p), json!({"body": "x".repeat(2001)})).await;
    assert!(s == 422 || s == 429, "{s} {b}");
}

#[actix_web::test]
async fn unread_messages_reach_members_who_are_not_looking_once_by_notification() {
    let (app, offset) = spawn_app_with_offset_clock().await;
    let l = league(&app, 3).await;
    let chat = roster_chat(&l);
    let p = &l.home.players;
    let muted = &p[2];
    app.put(&format!("/api/v1/chats/{chat}/mute"), Some(muted), Some(json!({"muted": true}))).await;
    post(&app, &p[0], &chat, "Who has the puck bag?").await;
    post(&app, &p[0], &chat, "Need it by 8").await;

    let run = || rinkside::chat::unread::run(&app.state, "test-node");
    assert_eq!(run().await.unwrap(), 0, "nobody is told before a message has been unread a while");
    offset.fetch_add(60_000, std::sync::atomic::Ordering::SeqCst);
    let told = run().await.unwrap();
    assert_eq!(told, 2, "the owner and the one other player; not the author, not the muted one");
    assert_eq!(run().await.unwrap(), 0, "told once");
    let chats_of = |list: &Value| -> Vec<Value> {
        list["items"].as_array().unwrap().iter().filter(|n| n["type"] == "CHAT_MESSAGE").cloned().collect()
    };
    let (_, list) = app.get("/api/v1/notifications", Some(&p[1])).await;
    let notes = chats_of(&list);
    assert_eq!(notes.len(), 1, "{list}");
    assert_eq!((notes[0]["data"]["unread"].as_i64(), notes[0]["data"]["from"].as_str()), (Some(2), Some("owls_0")));
    assert_eq!(notes[0]["data"]["conversationId"], chat.as_str());
    for quiet in [&p[0], muted] {
        let (_, list) = app.get("/api/v1/notifications", Some(quiet)).await;
        assert!(chats_of(&list).is_empty(), "{}: {list}", quiet.username);
    }

    // More while still unread: the one notification is replaced, not repeated.
    post(&app, &p[0], &chat, "Found it").await;
    offset.fetch_add(60_000, std::sync::atomic::Ordering::SeqCst);
    run().await.unwrap();
    let (_, list) = app.get("/api/v1/notifications", Some(&p[1])).await;
    let notes = chats_of(&list);
    assert_eq!((notes.len(), notes[0]["data"]["unread"].as_i64()), (1, Some(3)), "{list}");
}
