//! webhooks tests.
