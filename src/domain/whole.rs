//! Integer fields as JSON Schema reads `integer`: JSON bodies and query
//! strings take any whole number however it is written (`200`, `200.0`,
//! `2e2`), and refuse fractions and text where a number belongs.

use serde::Deserialize;

/// An integer field of a JSON body as JSON Schema reads `integer`: any
/// number without a fractional part, so `200`, `200.0` and `2e2` are all 200
/// (serde alone refuses `200.0` for an `i64`); a string is still refused.
/// Use with `#[serde(deserialize_with = "whole")]`, or [`optional_whole`] /
/// [`nullable_whole`] (with `default`) for optional fields, and
/// [`query_whole`] in query strings.
pub fn whole<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    d.deserialize_any(WholeVisitor { text: false })
}

/// [`whole`] for an `Option<i64>`: null or absent is `None`.
pub fn optional_whole<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Option::<Whole>::deserialize(d).map(|w| w.map(|w| w.0))
}

/// [`whole`] for a PATCH field (see `crate::api::nullable`): absent is `None`, null
/// `Some(None)`.
pub fn nullable_whole<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<i64>>, D::Error> {
    Option::<Whole>::deserialize(d).map(|w| Some(w.map(|w| w.0)))
}

/// [`whole`] for an optional query parameter, where every value is text:
/// `limit=20` and `limit=20.0` are both 20.
pub fn query_whole<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Option::<WholeText>::deserialize(d).map(|w| w.map(|w| w.0))
}

/// A whole number that fits an `i64`, from a JSON number (see [`whole`]).
struct Whole(i64);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(WholeVisitor { text: false }).map(Whole)
    }
}

/// A whole number that fits an `i64`, from text (see [`query_whole`]).
struct WholeText(i64);

impl<'de> Deserialize<'de> for WholeText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(WholeVisitor { text: true }).map(WholeText)
    }
}

struct WholeVisitor {
    /// Whether the number comes as text (a query string).
    text: bool,
}

/// The largest magnitude taken from a number JSON wrote with a fraction or
/// an exponent. serde_json reads such a number (and an integer past the
/// `i64` range, such as `-9223372036854775809`) as a float, rounding it; far
/// below 2^52 a float that reads whole was written whole. Every integer the
/// API takes in a body is far smaller; larger ones are taken written as
/// integers.
const WHOLE_FLOAT_MAX: f64 = 2_147_483_648.0;

impl serde::de::Visitor<'_> for WholeVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a whole number")
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<i64, E> {
        if v.fract() == 0.0 && v.abs() <= WHOLE_FLOAT_MAX {
            #[allow(clippy::cast_possible_truncation)]
            Ok(v as i64)
        } else {
            Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
        }
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<i64, E> {
        let refused = || E::invalid_value(serde::de::Unexpected::Str(v), &self);
        if !self.text {
            return Err(E::invalid_type(serde::de::Unexpected::Str(v), &self));
        }
        // Read exactly, as decimal text: `20` or `20.0` (any zeros after
        // the point), as `i64` takes it.
        let integer = match v.split_once('.') {
            None => v,
            Some((integer, zeros)) if !zeros.is_empty() && zeros.bytes().all(|b| b == b'0') => integer,
            Some(_) => return Err(refused()),
        };
        integer.parse::<i64>().map_err(|_| refused())
    }
}
