//! rosters persistence (filled by its capability).
