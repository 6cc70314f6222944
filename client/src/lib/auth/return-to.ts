// Coming back after signing in. Most pages need no help: signed out, any
// app URL shows the sign-in screen in place, so the URL is still the page's
// once the user is in. A page that anyone may open signed out (an invite)
// has its own screen there, so it links to `/sign-in?next=<its path>`
// instead; the routes send a signed-in visitor of `/sign-in` on to `next`.
// `next` comes from a URL anyone can craft, so only a path on this origin
// is followed (no `//host`, no `/\host`, no `javascript:`): anything else
// goes home.

export const SIGN_IN_PATH = '/sign-in';

/** The sign-in page, coming back to `next` (a path on this origin) afterwards. */
export function signInPath(next: string): string {
  return `${SIGN_IN_PATH}?${new URLSearchParams({ next }).toString()}`;
}

// Any origin of ours works for the check: a path resolves against it or leaves it.
const BASE = 'https://rinkside.invalid';

/** `next` when it is a path on this origin (and not the sign-in page itself), else `/`. */
export function safeReturnTo(next: string | null | undefined): string {
  if (!next || !next.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE || url.pathname === SIGN_IN_PATH) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
