//! events persistence (filled by its capability).
