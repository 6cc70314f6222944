// Plain text a person wrote (a post, a chat message) into text and link
// pieces: the one set of rules for what becomes clickable. Only http(s) URLs
// become links; everything else (markup, `javascript:` and other schemes)
// stays text, and the pieces are rendered as React text nodes and <a>
// elements (components/ui/linked-text.tsx), never HTML.

export type TextPiece = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** A URL candidate: http(s):// then anything up to whitespace or an angle bracket. */
const URL_RE = /\bhttps?:\/\/[^\s<>"']+/gi;

/** Punctuation that ends a sentence rather than the URL ("see https://x.com."). */
const TRAILING = /[.,;:!?)\]}]+$/;

function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.href;
  } catch {
    return null;
  }
}

export function linkify(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  const push = (s: string) => {
    if (!s) return;
    const prev = pieces[pieces.length - 1];
    if (prev && prev.kind === 'text') prev.text += s;
    else pieces.push({ kind: 'text', text: s });
  };
  for (const m of text.matchAll(URL_RE)) {
    const start = m.index;
    let raw = m[0];
    // Keep a closing paren that belongs to the URL (wikipedia-style), drop sentence punctuation.
    const trail = raw.match(TRAILING)?.[0] ?? '';
    if (trail) raw = raw.slice(0, raw.length - trail.length);
    const href = safeHref(raw);
    push(text.slice(last, start));
    if (href) pieces.push({ kind: 'link', text: raw, href });
    else push(raw);
    last = start + raw.length;
  }
  push(text.slice(last));
  return pieces;
}
