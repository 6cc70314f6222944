// The composer's limits (docs/chat.md › Messages): 1–2,000 characters after
// trimming. Characters are counted as the server counts them, by code
// point, so an emoji is one and not two.

/** Most characters in a message. */
export const MAX_CHARS = 2000;
/** The counter shows from here on, so it is there before the limit is hit, not all the time. */
export const COUNTER_FROM = 1800;

export interface ComposerCheck {
  /** Characters after trimming. */
  count: number;
  empty: boolean;
  over: boolean;
  showCounter: boolean;
}

export function charCount(text: string): number {
  return [...text.trim()].length;
}

export function checkDraft(text: string): ComposerCheck {
  const count = charCount(text);
  return { count, empty: count === 0, over: count > MAX_CHARS, showCounter: count >= COUNTER_FROM };
}
