//! games persistence (filled by its capability).
