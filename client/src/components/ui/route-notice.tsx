// A line the next page opens with, after a navigation that did something
// ("You're on Owls"): the text rides in the history entry's state, so the
// page it lands on needs to know nothing about where the user came from,
// and Back/Forward show it again with the entry it belongs to. The shell
// renders it above every page; the person dismisses it, or it is gone with
// the next navigation.

import { useState } from 'react';
import { useLocation } from 'react-router';
import { Alert } from './alert';
import { XIcon } from './icons';
import './route-notice.css';

export interface NoticeState {
  notice: string;
}

/** The `state` of a navigation whose page should open with `text`. */
export function withNotice(text: string): NoticeState {
  return { notice: text };
}

/** The notice a history entry carries, if any. */
export function noticeOf(state: unknown): string | null {
  if (state && typeof state === 'object' && 'notice' in state) {
    const notice = (state as { notice: unknown }).notice;
    if (typeof notice === 'string' && notice) return notice;
  }
  return null;
}

export function RouteNotice() {
  const location = useLocation();
  // Dismissed per history entry: the next navigation with a notice shows its own.
  const [dismissed, setDismissed] = useState<string | null>(null);
  const text = noticeOf(location.state);
  if (!text || dismissed === location.key) return null;
  return (
    <div className="route-notice" data-testid="route-notice">
      <Alert
        tone="success"
        action={
          <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => setDismissed(location.key)}>
            <XIcon size={16} />
          </button>
        }
      >
        {text}
      </Alert>
    </div>
  );
}
