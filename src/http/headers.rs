//! Security headers on every answer — pages, assets, the API, errors:
//! a Content-Security-Policy fitted to the built client, `nosniff`, no
//! framing anywhere (arena displays included: they run full screen, never
//! inside another site's page) and a referrer that never carries our paths
//! to other sites. docs/limits.md explains each directive.

use crate::config::{AuthMode, Config};
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;

/// Clerk's hosts (docs: "Configure Clerk Content-Security-Policy headers"):
/// its Frontend API (`*.clerk.accounts.dev` in development instances; a
/// production instance's own domain is added from `CLERK_ISSUER` /
/// `CLERK_JWKS_URL`), its images, its bot protection (Cloudflare Turnstile)
/// and its fraud protection hosts.
const CLERK_SCRIPT: &str = "https://*.clerk.accounts.dev https://*.clerk.com https://challenges.cloudflare.com";
const CLERK_CONNECT: &str = "https://*.clerk.accounts.dev https://*.clerk.com https://*.protect.clerk.com:*";
const CLERK_FRAME: &str = "https://*.clerk.accounts.dev https://*.clerk.com https://challenges.cloudflare.com";

/// The headers of one node, built once from the configuration.
pub struct SecurityHeaders {
    /// The policy up to `connect-src 'self'`, and after it: the socket's
    /// `ws:`/`wss:` sources for the host the page was asked for go between.
    csp_head: String,
    csp_tail: String,
    /// `CONTENT_SECURITY_POLICY`, used as is.
    csp_override: Option<HeaderValue>,
}

impl SecurityHeaders {
    pub fn new(config: &Config) -> Self {
        let clerk = config.auth_mode == AuthMode::Clerk;
        let mut script = vec!["'self'".to_string()];
        let mut style = vec!["'self'".to_string()];
        let mut connect = vec!["'self'".to_string()];
        let mut frame = vec!["'none'".to_string()];
        let mut worker = vec!["'self'".to_string()];
        if clerk {
            // A production Clerk instance serves its Frontend API from the
            // app's own domain (clerk.example.com): the issuer says which.
            let own = [&config.clerk_issuer, &config.clerk_jwks_url]
                .into_iter()
                .flatten()
                .filter_map(|u| url::Url::parse(u).ok())
                .filter(|u| u.scheme() == "https")
                .map(|u| u.origin().ascii_serialization())
                .next();
            script.push(CLERK_SCRIPT.into());
            connect.push(CLERK_CONNECT.into());
            frame = vec![CLERK_FRAME.into()];
            if let Some(own) = own {
                script.push(own.clone());
                connect.push(own.clone());
                frame.push(own);
            }
            // Clerk styles its components with runtime CSS-in-JS and runs
            // a worker from a blob.
            style.push("'unsafe-inline'".into());
            worker.push("blob:".into());
        }
        let csp_head = format!(
            "default-src 'self'; script-src {}; style-src {}; \
             img-src 'self' data: https:; font-src 'self' data:; \
             worker-src {}; frame-src {}; connect-src {}",
            script.join(" "),
            style.join(" "),
            worker.join(" "),
            frame.join(" "),
            connect.join(" "),
        );
        let csp_tail = "; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'".to_string();
        // Checked when the configuration was read (printable ASCII).
        let csp_override = config.content_security_policy.as_deref().and_then(|p| HeaderValue::from_str(p).ok());
        SecurityHeaders { csp_head, csp_tail, csp_override }
    }

    /// The policy for a page asked for as `host`. CSP level 3 makes `'self'`
    /// cover `ws:`/`wss:` to the same host, but older Safari does not, so
    /// the socket's origin is named too — only when `host` is a plain
    /// host[:port], never copying anything else from the request.
    pub fn policy(&self, host: &str) -> HeaderValue {
        if let Some(fixed) = &self.csp_override {
            return fixed.clone();
        }
        let plain = !host.is_empty()
            && host.len() <= 255
            && host.bytes().all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b));
        let policy = if plain {
            format!("{} ws://{host} wss://{host}{}", self.csp_head, self.csp_tail)
        } else {
            format!("{}{}", self.csp_head, self.csp_tail)
        };
        HeaderValue::from_str(&policy).unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"))
    }
}

/// Middleware on the whole app. A header a handler set itself is kept.
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let policy = req.app_data::<web::Data<SecurityHeaders>>().map(|h| h.policy(req.connection_info().host()));
    // Handlers' errors arrive here as answers already (only a middleware
    // further in could fail, and none does).
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    let mut set = |name: HeaderName, value: HeaderValue| {
        if !headers.contains_key(&name) {
            headers.insert(name, value);
        }
    };
    if let Some(policy) = policy {
        set(header::CONTENT_SECURITY_POLICY, policy);
    }
    set(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    set(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    set(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(pairs: &[(&str, &str)]) -> Config {
        let map: std::collections::HashMap<&str, &str> = pairs.iter().copied().collect();
        Config::from_lookup(|k| map.get(k).map(|v| v.to_string())).unwrap()
    }

    #[test]
    fn without_clerk_everything_comes_from_self() {
        let p = SecurityHeaders::new(&config(&[])).policy("127.0.0.1:8080");
        let p = p.to_str().unwrap();
        assert!(p.contains("script-src 'self';"), "{p}");
        assert!(p.contains("connect-src 'self' ws://127.0.0.1:8080 wss://127.0.0.1:8080;"), "{p}");
        assert!(p.contains("frame-ancestors 'none'"), "{p}");
        assert!(!p.contains("clerk"), "{p}");
        assert!(!p.contains("unsafe"), "{p}");
    }

    #[test]
    fn with_clerk_its_hosts_and_the_instance_domain_are_allowed() {
        let c = config(&[("CLERK_JWT_KEY", "pem"), ("CLERK_ISSUER", "https://clerk.rinkside.example")]);
        let p = SecurityHeaders::new(&c).policy("rinkside.example");
        let p = p.to_str().unwrap();
        assert!(p.contains("script-src 'self' https://*.clerk.accounts.dev"), "{p}");
        assert!(p.contains("https://clerk.rinkside.example"), "{p}");
        assert!(p.contains("style-src 'self' 'unsafe-inline'"), "{p}");
    }

    #[test]
    fn a_configured_policy_replaces_the_computed_one() {
        let c =
            config(&[("CONTENT_SECURITY_POLICY", "default-src 'self' https://cdn.example; frame-ancestors 'none'")]);
        let p = SecurityHeaders::new(&c).policy("rinkside.example");
        assert_eq!(p.to_str().unwrap(), "default-src 'self' https://cdn.example; frame-ancestors 'none'");
        let map: std::collections::HashMap<&str, &str> = [("CONTENT_SECURITY_POLICY", "a\u{7f}b")].into();
        assert!(Config::from_lookup(|k| map.get(k).map(|v| v.to_string())).is_err());
    }

    #[test]
    fn a_strange_host_is_never_copied_into_the_policy() {
        let p = SecurityHeaders::new(&config(&[])).policy("evil; script-src *");
        let p = p.to_str().unwrap();
        assert!(!p.contains("evil"), "{p}");
        assert!(p.contains("connect-src 'self';"), "{p}");
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::fuzzing::{self, text};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(fuzzing::config(1_000))]

        /// The `Host` a request names goes into the CSP only when plain:
        /// any host gives a policy with exactly the directives we wrote.
        #[test]
        fn any_host_gives_a_policy_of_our_directives(host in prop_oneof![text(), "[a-z0-9.:\\[\\]-]{0,40}"]) {
            let config = Config::from_lookup(|_| None).map_err(|e| TestCaseError::fail(e.0))?;
            let headers = SecurityHeaders::new(&config);
            let plain = headers.policy("rink.example").to_str().map(|p| p.matches(';').count()).unwrap_or_default();
            let policy = headers.policy(&host);
            let policy = policy.to_str().map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(policy.matches(';').count(), plain, "{}", policy);
        }
    }
}
