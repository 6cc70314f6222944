//! Facilities (rinks): the columns only a facility has. What facilities
//! share with teams (the common columns, search, follows, managers, writes,
//! deletion) is in `db::orgs` and `db::staff`.

use super::orgs::{self, Org, OrgColumns, OrgFields, OrgRow, text};
use crate::domain::money::Currency;
use crate::domain::text::{Email, HttpUrl, Name, PhoneNumber, PlainText, TimeZoneName};
use sqlx::{Any, Executor, FromRow};

/// A facility's own columns.
#[derive(Debug, Clone, FromRow)]
pub struct FacilityColumns {
    pub phone_number: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub image_url: Option<String>,
    pub description: Option<String>,
    pub timezone: String,
    /// Chosen by the rink's staff; NULL: the one the time zone implies.
    pub currency: Option<String>,
}

impl OrgColumns for FacilityColumns {
    const ORG: Org = Org::Facility;
    const COLUMNS: &'static str =
        "o.phone_number, o.email, o.website, o.image_url, o.description, o.timezone, o.currency";
}

pub type FacilityRow = OrgRow<FacilityColumns>;

/// The fields a facility is created or replaced with, parsed by the API.
#[derive(Debug, Clone)]
pub struct FacilityFields {
    pub name: Name<120>,
    pub phone_number: Option<PhoneNumber>,
    pub email: Option<Email>,
    pub website: Option<HttpUrl>,
    pub image_url: Option<HttpUrl>,
    pub description: Option<PlainText<4000>>,
    pub timezone: TimeZoneName,
    pub currency: Option<Currency>,
}

impl OrgFields for FacilityFields {
    const ORG: Org = Org::Facility;

    fn columns(&self) -> Vec<(&'static str, Option<String>)> {
        vec![
            ("name", text(Some(&self.name))),
            ("phone_number", text(self.phone_number.as_ref())),
            ("email", text(self.email.as_ref())),
            ("website", text(self.website.as_ref())),
            ("image_url", text(self.image_url.as_ref())),
            ("description", text(self.description.as_ref())),
            ("timezone", text(Some(&self.timezone))),
            ("currency", text(self.currency.as_ref())),
        ]
    }
}

/// Whether a facility exists (for the routes that only refer to one).
pub async fn exists<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool, sqlx::Error> {
    orgs::exists(ex, Org::Facility, id).await
}
