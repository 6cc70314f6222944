//! Money: the currencies a rink can bill in, and which one a rink's time
//! zone implies when its staff have not chosen (docs/sides-and-bill.md ›
//! Money). Amounts are whole cents (`i64`) everywhere: every currency here
//! has two decimals, so "cents" is exact.

/// ISO 4217 codes a rink may bill in: the hockey countries' currencies,
/// all with two decimals.
pub const CURRENCIES: [&str; 11] = ["CAD", "USD", "EUR", "GBP", "SEK", "NOK", "DKK", "CHF", "CZK", "AUD", "NZD"];

/// The schema of a currency field: one of [`CURRENCIES`], or null.
pub fn schema() -> utoipa::openapi::schema::Object {
    crate::domain::text::schema::optional_one_of(
        &CURRENCIES,
        "ISO 4217: one of CAD, USD, EUR, GBP, SEK, NOK, DKK, CHF, CZK, AUD, NZD; null or blank for the one the time zone implies.",
    )
}

/// A currency a rink bills in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Currency(String);

impl Currency {
    /// The code exactly, as the document lists it (spaces around are
    /// trimmed; case is not guessed).
    pub fn parse(raw: &str) -> Result<Self, String> {
        let v = raw.trim();
        if CURRENCIES.contains(&v) {
            Ok(Self(v.to_string()))
        } else {
            Err(format!("must be one of {}", CURRENCIES.join(", ")))
        }
    }

    /// The currency of the country a time zone is in, for rinks that did
    /// not choose one; US dollars when the zone says nothing we know.
    pub fn for_timezone(timezone: &str) -> Self {
        const CANADA: [&str; 16] = [
            "America/Toronto",
            "America/Montreal",
            "America/Vancouver",
            "America/Edmonton",
            "America/Calgary",
            "America/Winnipeg",
            "America/Regina",
            "America/Halifax",
            "America/St_Johns",
            "America/Moncton",
            "America/Whitehorse",
            "America/Yellowknife",
            "America/Iqaluit",
            "America/Thunder_Bay",
            "America/Glace_Bay",
            "America/Goose_Bay",
        ];
        let code = match timezone {
            tz if CANADA.contains(&tz) || tz.starts_with("Canada/") => "CAD",
            "Europe/London" | "Europe/Belfast" | "Europe/Jersey" | "Europe/Guernsey" | "Europe/Isle_of_Man" => "GBP",
            "Europe/Stockholm" => "SEK",
            "Europe/Oslo" => "NOK",
            "Europe/Copenhagen" => "DKK",
            "Europe/Zurich" => "CHF",
            "Europe/Prague" => "CZK",
            "Pacific/Auckland" => "NZD",
            tz if tz.starts_with("Australia/") => "AUD",
            tz if tz.starts_with("Europe/") => "EUR",
            _ => "USD",
        };
        Self(code.to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Currency {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rink_in_toronto_bills_in_canadian_dollars() {
        assert_eq!(Currency::for_timezone("America/Toronto").as_str(), "CAD");
        assert_eq!(Currency::for_timezone("America/Chicago").as_str(), "USD");
        assert_eq!(Currency::for_timezone("Europe/Helsinki").as_str(), "EUR");
        assert_eq!(Currency::for_timezone("Europe/Stockholm").as_str(), "SEK");
    }

    #[test]
    fn only_known_codes_parse() {
        assert_eq!(Currency::parse(" CAD ").map(|c| c.as_str().to_string()), Ok("CAD".to_string()));
        assert!(Currency::parse("cad").is_err(), "the code as listed, as the API document says");
        assert!(Currency::parse("XYZ").is_err());
        assert!(Currency::parse("").is_err());
    }
}
