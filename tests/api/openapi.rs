//! The OpenAPI document at `/api/openapi.json` describes the server
//! exactly (issue 13): what it promises here is checked against the running
//! server, and `scripts/schemathesis.sh` fuzzes every operation against it.

use crate::helpers::*;
use reqwest::Method;

#[actix_web::test]
async fn a_method_a_known_route_lacks_answers_405_with_the_methods_it_has() {
    let app = spawn_app().await;
    let user = app.user("allow").await;
    for (method, path, allow) in [
        (Method::TRACE, "/api/v1/divisions/scale", "GET"),
        (Method::DELETE, "/api/v1/me", "GET, PATCH"),
        (Method::POST, "/api/v1/events/some-event", "DELETE, GET, PATCH"),
        (Method::OPTIONS, "/api/v1/users/u1/follow", "DELETE, PUT"),
    ] {
        let res = app.req(method.clone(), path, Some(&user)).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 405, "{method} {path}");
        let header = res.headers().get("allow").map(|v| v.to_str().unwrap().to_string());
        assert_eq!(header.as_deref(), Some(allow), "{method} {path}");
        let body: serde_json::Value = res.json().await.unwrap();
        assert_error(405, &body, 405, "method_not_allowed");
    }
    let res = app.req(Method::TRACE, "/api/v1/no-such-route", Some(&user)).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 404);
    assert!(res.headers().get("allow").is_none());
}
