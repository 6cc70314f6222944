//! The ice bill of an event, worked out from its facts
//! (docs/sides-and-bill.md › The ice bill): the terms that apply (the
//! event's own, else its week's part of the series' total), who has a
//! stake, what each paid, and `pickup::bill` over them. Nothing here
//! stores a share: every read works them out again, so a change of cost,
//! policy or attendance shows at once and a paid amount never moves.

use crate::db::{self, Db, bills::Owner, events::EventRow};
use crate::domain::HockeyPosition;
use crate::domain::money::Currency;
use crate::error::AppResult;
use rinkside_pickup::bill::{self, Bill, GoaliePolicy, Payer, Terms};

/// Where an event's terms come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Event,
    Series,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Event => "EVENT",
            Source::Series => "SERIES",
        }
    }
}

/// The terms that apply to one event.
#[derive(Debug, Clone)]
pub struct Applied {
    pub terms: Terms,
    pub source: Source,
}

/// An event's bill, worked out.
#[derive(Debug, Clone)]
pub struct EventBill {
    pub event_id: String,
    pub creator_id: String,
    pub currency: String,
    /// `None`: nobody set a cost for this event or its series.
    pub applied: Option<Applied>,
    pub closed_at: Option<i64>,
    /// By user id, the order the bill's extra cents follow.
    pub stakes: Vec<db::bills::StakeRow>,
    /// One share per stake (all zero without terms).
    pub bill: Bill,
}

impl EventBill {
    /// The share of one person, with their stake.
    pub fn of(&self, user_id: &str) -> Option<(&db::bills::StakeRow, &bill::Share)> {
        self.stakes.iter().zip(&self.bill.shares).find(|(s, _)| s.user_id == user_id)
    }

    /// Owed by those in who have not paid (nothing before billing).
    pub fn outstanding_cents(&self) -> i64 {
        if self.closed_at.is_none() {
            return 0;
        }
        self.lines().filter(|(s, _)| s.attending == 1 && s.is_paid == 0).map(|(_, b)| b.amount_cents).sum()
    }

    /// What was paid, by everyone who paid.
    pub fn collected_cents(&self) -> i64 {
        self.lines().filter(|(s, _)| s.is_paid == 1).map(|(_, b)| b.amount_cents).sum()
    }

    pub fn credit_cents(&self) -> i64 {
        self.bill.shares.iter().map(|b| b.credit_cents).sum()
    }

    pub fn lines(&self) -> impl Iterator<Item = (&db::bills::StakeRow, &bill::Share)> {
        self.stakes.iter().zip(&self.bill.shares)
    }
}

/// The currency an event bills in: its rink's, else the bill's own, else
/// US dollars.
async fn currency(db: &Db, event: &EventRow, own: Option<&str>) -> AppResult<String> {
    if let Some(facility_id) = &event.facility_id
        && let Some(row) = db::orgs::get::<_, db::facilities::FacilityColumns>(&db.pool, facility_id).await?
    {
        return Ok(row.own.currency.unwrap_or_else(|| Currency::for_timezone(&row.own.timezone).as_str().to_string()));
    }
    Ok(own.unwrap_or("USD").to_string())
}

/// The currency of an event's rink, if it has one (a bill for an event at
/// a rink is always in the rink's currency).
pub async fn rink_currency(db: &Db, event: &EventRow) -> AppResult<Option<String>> {
    Ok(match event.facility_id {
        Some(_) => Some(currency(db, event, None).await?),
        None => None,
    })
}

fn terms_of(row: &db::bills::IceBillRow, cost_cents: i64) -> Terms {
    Terms {
        cost_cents,
        goalie_policy: GoaliePolicy::parse(&row.goalie_policy).unwrap_or(GoaliePolicy::Full),
        organiser_pays: row.organiser_pays != 0,
    }
}

/// A series' total split over its weeks still on (earlier weeks take the
/// extra cents): each week's cost, by event id.
pub fn week_costs(total_cents: i64, weeks: &[db::bills::WeekRow]) -> Vec<(String, i64)> {
    let parts = bill::split_by_weight(total_cents, &vec![1; weeks.len()]);
    weeks.iter().map(|w| w.id.clone()).zip(parts).collect()
}

/// The terms that apply to an event and the bill row's currency.
async fn applied(db: &Db, event: &EventRow) -> AppResult<(Option<Applied>, Option<String>)> {
    if let Some(own) = db::bills::get(&db.pool, Owner::Event(&event.id)).await? {
        let terms = terms_of(&own, own.cost_cents);
        return Ok((Some(Applied { terms, source: Source::Event }), Some(own.currency)));
    }
    let Some(series_id) = &event.series_id else { return Ok((None, None)) };
    let Some(total) = db::bills::get(&db.pool, Owner::Series(series_id)).await? else { return Ok((None, None)) };
    let weeks = db::bills::weeks(&db.pool, series_id).await?;
    let cost = week_costs(total.cost_cents, &weeks).into_iter().find(|(id, _)| *id == event.id).map(|(_, c)| c);
    // A cancelled week carries none of the total.
    let applied = cost.map(|cost| Applied { terms: terms_of(&total, cost), source: Source::Series });
    Ok((applied, Some(total.currency)))
}

/// Works out an event's bill.
pub async fn for_event(db: &Db, event: &EventRow) -> AppResult<EventBill> {
    let (applied, own_currency) = applied(db, event).await?;
    let stakes = db::bills::stakes(&db.pool, &event.id).await?;
    let payers: Vec<Payer> = stakes
        .iter()
        .map(|s| Payer {
            goalie: HockeyPosition::parse(&s.position).ok() == Some(HockeyPosition::Goalie),
            organiser: s.user_id == event.creator_id,
            present: s.attending == 1,
            // Marked paid before bills existed: paid in full, whatever
            // their share is (worked out like an unpaid one).
            paid_cents: if s.is_paid == 1 { s.paid_cents } else { None },
        })
        .collect();
    let bill = match &applied {
        Some(a) => bill::work_out(&a.terms, &payers),
        None => Bill { shares: vec![bill::Share::default(); payers.len()], uncovered_cents: 0 },
    };
    Ok(EventBill {
        event_id: event.id.clone(),
        creator_id: event.creator_id.clone(),
        currency: currency(db, event, own_currency.as_deref()).await?,
        applied,
        closed_at: db::bills::closed_at(&db.pool, &event.id).await?,
        stakes,
        bill,
    })
}
