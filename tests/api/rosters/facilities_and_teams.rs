//! The facility and the team a roster hangs on: editing them field by
//! field, their pages, managers and ownership, and the team's live topic.

use super::*;
use crate::helpers::*;
use serde_json::{Value, json};
use std::time::Duration;

#[actix_web::test]
async fn a_facility_is_edited_field_by_field_and_refuses_a_bad_time_zone() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let f = facility(&app, &owner).await;
    let path = format!("/api/v1/facilities/{f}");
    let (s, page) = app
        .patch(
            &path,
            Some(&owner),
            json!({"name": "Maple Arena North", "timezone": "America/Vancouver", "phoneNumber": "+1 555 0100",
                   "email": "desk@maple.example", "website": "https://maple.example", "imageUrl": "https://maple.example/rink.jpg",
                   "description": "Two sheets."}),
        )
        .await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(page["name"], "Maple Arena North");
    assert_eq!(page["timezone"], "America/Vancouver");
    assert_eq!(page["phoneNumber"], "+1 555 0100");
    assert_eq!(page["email"], "desk@maple.example");
    assert_eq!(page["website"], "https://maple.example");
    assert_eq!(page["imageUrl"], "https://maple.example/rink.jpg");
    assert_eq!(page["description"], "Two sheets.");
    assert_eq!(page["viewerRole"], "OWNER");

    // null clears an optional field; absent fields stay.
    let (s, page) = app.patch(&path, Some(&owner), json!({"phoneNumber": null})).await;
    assert_eq!(s, 200);
    assert_eq!(page["phoneNumber"], Value::Null);
    assert_eq!(page["email"], "desk@maple.example");

    let (_, before) = app.get(&path, None).await;
    let (s, body) = app.patch(&path, Some(&owner), json!({"timezone": "Mars/Olympus_Mons"})).await;
    assert_error(s, &body, 422, "validation_failed");
    assert!(body["error"]["details"]["timezone"].is_string(), "{body}");
    let (s, body) =
        app.post("/api/v1/facilities", Some(&owner), json!({"name": "Nowhere", "timezone": "EST5EDT6"})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.patch(&path, Some(&owner), json!({"website": "ftp://maple.example"})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.patch(&path, Some(&owner), json!({"ownerId": owner.id})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (_, after) = app.get(&path, None).await;
    assert_eq!(before, after);
    assert_eq!(app.count("facilities").await, 1);
}

#[actix_web::test]
async fn a_facility_page_shows_managers_and_seasons_and_ownership_moves_on_transfer() {
    let app = spawn_app().await;
    let owner = app.user("rinkowner").await;
    let mgr = app.user("rinkmanager").await;
    let heir = app.user("heir").await;
    let f = facility(&app, &owner).await;
    put_manager(&app, &owner, "facilities", &f, &mgr).await;
    put_manager(&app, &owner, "facilities", &f, &mgr).await; // idempotent
    let s1 = season(&app, &mgr, &f).await;

    let (s, page) = app.get(&format!("/api/v1/facilities/{f}"), None).await;
    assert_eq!(s, 200);
    assert_eq!(page["managers"].as_array().unwrap().len(), 1);
    assert_eq!(page["managers"][0]["id"], mgr.id.as_str());
    assert_eq!(page["managers"][0]["username"], "rinkmanager");
    assert_eq!(page["seasons"][0]["id"], s1.as_str());
    assert_eq!(page["viewerRole"], Value::Null);
    let (_, page) = app.get(&format!("/api/v1/facilities/{f}"), Some(&mgr)).await;
    assert_eq!(page["viewerRole"], "MANAGER");
    let (s, list) = app.get(&format!("/api/v1/facilities/{f}/seasons"), None).await;
    assert_eq!(s, 200);
    assert_eq!(list["items"].as_array().unwrap().len(), 1);

    // The owner is no manager link: removing them is refused.
    let (s, body) = app.delete(&format!("/api/v1/facilities/{f}/managers/{}", owner.id), Some(&owner)).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.put(&format!("/api/v1/facilities/{f}/managers/{}", owner.id), Some(&owner), None).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.put(&format!("/api/v1/facilities/{f}/managers/no-such-user"), Some(&owner), None).await;
    assert_error(s, &body, 404, "not_found");
    // Managers cannot transfer.
    let (s, body) =
        app.post(&format!("/api/v1/facilities/{f}/transfer-ownership"), Some(&mgr), json!({"userId": mgr.id})).await;
    assert_error(s, &body, 403, "forbidden");

    let (s, page) =
        app.post(&format!("/api/v1/facilities/{f}/transfer-ownership"), Some(&owner), json!({"userId": heir.id})).await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(page["ownerId"], heir.id.as_str());
    assert_eq!(page["creatorId"], owner.id.as_str());
    let managers: Vec<&str> = page["managers"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert!(managers.contains(&owner.id.as_str()) && managers.contains(&mgr.id.as_str()), "{page}");
    // The old owner, now a manager, may no longer transfer or delete.
    let (s, _) = app.delete(&format!("/api/v1/facilities/{f}"), Some(&owner)).await;
    assert_eq!(s, 403);
    // A manager may step down.
    let (s, _) = app.delete(&format!("/api/v1/facilities/{f}/managers/{}", mgr.id), Some(&mgr)).await;
    assert_eq!(s, 204);
    let (s, _) = app.patch(&format!("/api/v1/facilities/{f}"), Some(&mgr), json!({"description": "x"})).await;
    assert_eq!(s, 403);

    let (s, _) = app.delete(&format!("/api/v1/facilities/{f}"), Some(&heir)).await;
    assert_eq!(s, 204);
    let (s, _) = app.get(&format!("/api/v1/facilities/{f}"), None).await;
    assert_eq!(s, 404);
    assert_eq!(app.count("seasons").await, 0);
}

#[actix_web::test]
async fn a_team_is_edited_linked_to_a_facility_and_listed_there() {
    let app = spawn_app().await;
    let coach = app.user("coach").await;
    let rink = app.user("rink").await;
    let f = facility(&app, &rink).await;
    let t = team(&app, &coach, None).await;
    let path = format!("/api/v1/teams/{t}");
    let (s, page) = app
        .patch(&path, Some(&coach), json!({"name": "Night Owls", "facilityId": f, "logoUrl": "https://owls.example/logo.png", "description": "Beer league legends"}))
        .await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(page["name"], "Night Owls");
    assert_eq!(page["facilityId"], f.as_str());
    assert_eq!(page["facilityName"], "Maple Arena");
    assert_eq!(page["logoUrl"], "https://owls.example/logo.png");
    assert_eq!(page["viewerRole"], "OWNER");
    assert_eq!(page["managers"], json!([]));
    assert_eq!(page["rosters"], json!([]));
    let (s, list) = app.get(&format!("/api/v1/facilities/{f}/teams"), None).await;
    assert_eq!(s, 200);
    assert_eq!(list["items"][0]["id"], t.as_str());

    let (_, before) = app.get(&path, None).await;
    let (s, body) = app.patch(&path, Some(&coach), json!({"facilityId": "no-such-facility"})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (s, body) = app.patch(&path, Some(&coach), json!({"name": "  "})).await;
    assert_error(s, &body, 422, "validation_failed");
    let (_, after) = app.get(&path, None).await;
    assert_eq!(before, after);

    // The facility's owner has no say over a team based there.
    let (s, body) = app.patch(&path, Some(&rink), json!({"name": "Rink's Team"})).await;
    assert_error(s, &body, 403, "forbidden");

    let (s, page) = app.patch(&path, Some(&coach), json!({"facilityId": null})).await;
    assert_eq!(s, 200);
    assert_eq!(page["facilityId"], Value::Null);
    let (_, list) = app.get(&format!("/api/v1/facilities/{f}/teams"), None).await;
    assert_eq!(list["items"], json!([]));

    let (s, _) = app.delete(&path, Some(&coach)).await;
    assert_eq!(s, 204);
    assert_eq!(app.count("teams").await, 0);
}

#[actix_web::test]
async fn a_team_edit_is_pushed_on_its_topic() {
    let app = spawn_app().await;
    let coach = app.user("coach").await;
    let t = team(&app, &coach, None).await;
    let mut ws = app.ws().await;
    let snap = ws.subscribe(&format!("team:{t}")).await;
    let (s, _) = app.patch(&format!("/api/v1/teams/{t}"), Some(&coach), json!({"name": "Renamed"})).await;
    assert_eq!(s, 200);
    let update = ws.next_of("update", Duration::from_secs(5)).await.expect("team update");
    assert_eq!(update["data"]["name"], "Renamed");
    assert!(update["seq"].as_i64().unwrap() > snap["seq"].as_i64().unwrap());
}
