/** The terms and privacy version a user accepts during onboarding. */
export const LEGAL_VERSION = '2026-11';

/** How long the search boxes wait after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 250;

/** Page size for "load more" lists. */
export const PAGE_SIZE = 20;
