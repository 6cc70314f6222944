//! Parsing a request's fields into domain types while collecting what is
//! wrong with each, so one 422 names every bad field at once:
//!
//! ```ignore
//! let mut form = Form::default();
//! let name = form.field("name", Name::<120>::parse(&body.name));
//! let email = form.field("email", text::optional(body.email.as_deref(), Email::parse));
//! form.finish()?; // 422 naming `name` and `email` if both are bad
//! Ok(Fields { name: name?, email: email? })
//! ```

use crate::error::{AppError, AppResult, FieldErrors};

#[derive(Debug, Default)]
pub struct Form {
    errors: FieldErrors,
}

impl Form {
    /// Notes the field's error, if any, and hands the result back with an
    /// error that is that field's 422 (so `?` after [`Form::finish`] cannot
    /// fail, and needs no unwrap).
    pub fn field<T>(&mut self, name: &str, parsed: Result<T, String>) -> AppResult<T> {
        parsed.map_err(|message| {
            self.error(name, message.clone());
            AppError::field(name, message)
        })
    }

    /// Notes an error a rule across fields found; the first error per field
    /// is the one shown.
    pub fn error(&mut self, name: &str, message: impl Into<String>) {
        self.errors.entry(name.to_string()).or_insert_with(|| message.into());
    }

    /// Whether the field already has an error.
    pub fn has_error(&self, name: &str) -> bool {
        self.errors.contains_key(name)
    }

    /// Ok when nothing was noted; otherwise the 422 naming every field.
    pub fn finish(self) -> AppResult<()> {
        if self.errors.is_empty() { Ok(()) } else { Err(AppError::validation(self.errors)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::text::{Email, Name, optional};

    #[test]
    fn every_bad_field_is_named_in_one_answer() {
        let mut form = Form::default();
        let name = form.field("name", Name::<10>::parse(""));
        let email = form.field("email", optional(Some("nope"), Email::parse));
        let fine = form.field("nickname", Name::<10>::parse("Al"));
        assert!(name.is_err() && email.is_err() && fine.is_ok());
        match form.finish() {
            Err(AppError::Validation { fields, .. }) => {
                assert_eq!(fields.keys().collect::<Vec<_>>(), ["email", "name"]);
            }
            other => panic!("expected a 422, got {other:?}"),
        }
    }

    #[test]
    fn a_form_without_errors_finishes() {
        let mut form = Form::default();
        let name = form.field("name", Name::<10>::parse("Al"));
        assert!(form.finish().is_ok());
        assert_eq!(name.map(String::from).ok().as_deref(), Some("Al"));
    }
}
