//! seasons persistence (filled by its capability).
