//! The field of a race: its event (for a tiered race, the first week of a
//! weekly series with the regulars' window open), the racers signed in,
//! their positions — goalies spread evenly over the clients, regulars
//! evenly within each role — and what each will ask ([`Field`]).

use anyhow::{Result, bail};
use futures_util::{StreamExt, TryStreamExt, stream};
use serde_json::json;
use tracing::info;

use super::SIGN_IN_CONCURRENCY;
use crate::api::{Api, Session};
use crate::cli::RaceArgs;
use crate::race_check::{GOALIE, Request, SKATER_POSITIONS};
use crate::scenario::Nodes;

/// The tiered race's `regularsFirstMinutes`: places are the regulars' until
/// an hour before a start 7 days out, so all through the race.
const REGULARS_FIRST_MINUTES: u32 = 60;

/// The race's event and its racers.
pub struct Field {
    pub event_id: String,
    /// The weekly series the event is the first week of (tiered race).
    pub series_id: Option<String>,
    /// When the regulars' window closes, as the event's rules say (tiered).
    pub open_to_all_at: Option<String>,
    /// The racers, in client order.
    pub users: Vec<Session>,
    /// What each racer asks, in client order.
    pub requests: Vec<Request>,
    /// Failed dev sign-ins that succeeded on retry.
    pub sign_in_retries: u32,
}

impl Field {
    /// Creates the event, signs the racers in (over every node), and for a
    /// tiered race puts the regulars on the series' list.
    pub async fn set_up(args: &RaceArgs, nodes: &Nodes, organiser: &Session, tag: &str) -> Result<Self> {
        let api = &nodes.apis[0];
        let tiered = args.regulars_share > 0.0;
        let (event_id, series_id) = if tiered {
            let title = "Load test: RSVP race, regulars first";
            let (event, series) =
                api.create_weekly_event(&organiser.token, title, Some(args.skaters), Some(args.goalies)).await?;
            (event, Some(series))
        } else {
            let title = "Load test: RSVP race";
            (api.create_event(&organiser.token, title, Some(args.skaters), Some(args.goalies)).await?, None)
        };
        info!(%event_id, clients = args.clients, "event created; signing users in");
        let signed_in =
            Api::sign_in_all(&nodes.apis, args.clients, SIGN_IN_CONCURRENCY, |i| format!("lt{tag}r{i}")).await?;
        let sign_in_retries: u32 = signed_in.iter().map(|(_, r)| r).sum();
        let users: Vec<Session> = signed_in.into_iter().map(|(s, _)| s).collect();
        let positions = positions(args.clients, args.goalie_share);
        let regular = if tiered { regulars(&positions, args.regulars_share) } else { vec![false; args.clients] };
        let requests: Vec<Request> = users
            .iter()
            .zip(&positions)
            .zip(&regular)
            .map(|((u, &position), &regular)| Request { user_id: u.user_id.clone(), position, regular })
            .collect();
        let regular_ids: Vec<&str> = requests.iter().filter(|r| r.regular).map(|r| r.user_id.as_str()).collect();
        let open_to_all_at = match &series_id {
            Some(series_id) => {
                if regular_ids.is_empty() {
                    bail!("--regulars-share {} of {} clients makes no regulars", args.regulars_share, args.clients);
                }
                info!(regulars = regular_ids.len(), %series_id, "putting regulars on the series' list");
                Some(set_up_regulars(api, &organiser.token, &event_id, series_id, &regular_ids).await?)
            }
            None => None,
        };
        Ok(Self { event_id, series_id, open_to_all_at, users, requests, sign_in_retries })
    }

    /// Clients on the series' list of regulars.
    pub fn regular_clients(&self) -> usize {
        self.requests.iter().filter(|r| r.regular).count()
    }
}

/// Goalie clients spread evenly: client i is a goalie when the running
/// count `floor((i+1)·g/n)` steps up.
fn positions(clients: usize, goalie_share: f64) -> Vec<&'static str> {
    let share = if goalie_share.is_finite() { goalie_share.clamp(0.0, 1.0) } else { 0.0 };
    let goalies = (clients as f64 * share).round() as usize;
    let mut skater = 0usize;
    (0..clients)
        .map(|i| {
            if clients > 0 && (i + 1) * goalies / clients > i * goalies / clients {
                GOALIE
            } else {
                skater += 1;
                SKATER_POSITIONS[(skater - 1) % SKATER_POSITIONS.len()]
            }
        })
        .collect()
}

/// Regulars spread evenly within each role, the same way goalies are spread
/// over all clients, so they are the same share of goalies as of skaters.
/// (One spread over all clients, offset or not, would at shares such as 0.1
/// and 0.2 make every goalie a regular or none: the two strides divide
/// each other.)
fn regulars(positions: &[&str], share: f64) -> Vec<bool> {
    let share = if share.is_finite() { share.clamp(0.0, 1.0) } else { 0.0 };
    let in_role = |goalie: bool| positions.iter().filter(|&&p| (p == GOALIE) == goalie).count();
    let (goalies, skaters) = (in_role(true), in_role(false));
    let wanted = |n: usize| (n as f64 * share).round() as usize;
    let (want_goalies, want_skaters) = (wanted(goalies), wanted(skaters));
    let (mut g, mut s) = (0usize, 0usize);
    positions
        .iter()
        .map(|&p| {
            let (k, n, want) =
                if p == GOALIE { (&mut g, goalies, want_goalies) } else { (&mut s, skaters, want_skaters) };
            let i = *k;
            *k += 1;
            (i + 1) * want / n > i * want / n
        })
        .collect()
}

/// The regulars' side of a tiered race: `regulars` on the series' list,
/// then the series' rules with a window of [`REGULARS_FIRST_MINUTES`].
/// Checks through the event's own rules that the window is open and it
/// has exactly these regulars; answers when the window closes.
async fn set_up_regulars(
    api: &Api,
    organiser: &str,
    event_id: &str,
    series_id: &str,
    regulars: &[&str],
) -> Result<String> {
    stream::iter(regulars)
        .map(|user| {
            let path = format!("/api/v1/event-series/{series_id}/regulars/{user}");
            async move { api.put_value(&path, organiser, None).await }
        })
        .buffer_unordered(SIGN_IN_CONCURRENCY)
        .try_for_each(|_| async { Ok(()) })
        .await?;
    api.put_value(
        &format!("/api/v1/event-series/{series_id}/rsvp-rules"),
        organiser,
        Some(json!({ "regularsFirstMinutes": REGULARS_FIRST_MINUTES })),
    )
    .await?;
    let rules = api.get_value(&format!("/api/v1/events/{event_id}/rsvp-rules"), organiser).await?;
    let listed = rules["regulars"].as_array().map_or(0, Vec::len);
    if listed != regulars.len() {
        bail!("the event lists {listed} regulars after {} were added to its series", regulars.len());
    }
    let open_to_all_at = rules["openToAllAt"].as_str().unwrap_or_default();
    match chrono::DateTime::parse_from_rfc3339(open_to_all_at) {
        Ok(at) if at > chrono::Utc::now() + chrono::Duration::hours(1) => Ok(open_to_all_at.to_owned()),
        _ => bail!("the event's regulars' window is not open for the race (openToAllAt {open_to_all_at:?})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tenth_of_five_hundred_are_goalies_spread_out() {
        let p = positions(500, 0.1);
        assert_eq!(p.len(), 500);
        assert_eq!(p.iter().filter(|&&x| x == GOALIE).count(), 50);
        // Spread: one goalie in every block of ten.
        for block in p.chunks(10) {
            assert_eq!(block.iter().filter(|&&x| x == GOALIE).count(), 1);
        }
        // Skaters rotate through the skater positions.
        let skaters: Vec<_> = p.iter().filter(|&&x| x != GOALIE).take(6).collect();
        assert_eq!(*skaters[0], "CENTER");
        assert_eq!(*skaters[5], "CENTER");
    }

    #[test]
    fn a_fifth_of_each_role_are_regulars_spread_out() {
        let p = positions(5000, 0.1);
        let r = regulars(&p, 0.2);
        let of = |goalie: bool| p.iter().zip(&r).filter(|&(&x, &reg)| (x == GOALIE) == goalie && reg).count();
        assert_eq!((of(true), of(false)), (100, 900));
        // Every block of 50 clients (5 goalies, 45 skaters) has 1 regular
        // goalie and 9 regular skaters.
        for (ps, rs) in p.chunks(50).zip(r.chunks(50)) {
            let regular_goalies = ps.iter().zip(rs).filter(|&(&x, &reg)| x == GOALIE && reg).count();
            assert_eq!((regular_goalies, rs.iter().filter(|&&x| x).count()), (1, 10));
        }
        assert!(regulars(&p, 0.0).iter().all(|&x| !x));
        assert!(regulars(&p, f64::NAN).iter().all(|&x| !x));
        assert!(regulars(&p, 3.0).iter().all(|&x| x));
    }

    #[test]
    fn odd_shares_are_clamped() {
        assert!(positions(10, 0.0).iter().all(|&x| x != GOALIE));
        assert!(positions(10, 5.0).iter().all(|&x| x == GOALIE));
        assert!(positions(10, f64::NAN).iter().all(|&x| x != GOALIE));
        assert!(positions(0, 0.5).is_empty());
    }
}
