// What a post may be (CONTRACT.md › Feed and posts): 1–5,000 characters
// after trimming. The server checks the same; this keeps the button honest.

export const POST_MAX_CHARS = 5_000;

/** Characters as the server counts them (Unicode scalar values, after trim). */
export function postLength(content: string): number {
  return Array.from(content.trim()).length;
}

/** Why the text cannot be posted, or null when it can. */
export function postProblem(content: string): string | null {
  const n = postLength(content);
  if (n === 0) return 'Write something first.';
  if (n > POST_MAX_CHARS) return `Posts are at most ${POST_MAX_CHARS.toLocaleString('en-US')} characters (${(n - POST_MAX_CHARS).toLocaleString('en-US')} too many).`;
  return null;
}
