// My private calendar feed: make it, copy its URL (shown once: the server
// keeps only a hash of the secret), make a new one, or turn it off.

import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { useCalendarFeed, useMakeCalendarFeed, useRevokeCalendarFeed } from '../api/schedule';

export function CalendarFeedCard() {
  const feed = useCalendarFeed();
  const make = useMakeCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const [url, setUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const active = feed.data?.active ?? false;

  const create = () =>
    make.mutate(undefined, {
      onSuccess: (made) => {
        setUrl(`${window.location.origin}${made.path}`);
        setCopied(false);
      },
    });
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const error = make.error ?? revoke.error ?? feed.error;

  return (
    <Card data-testid="calendar-feed">
      <CardHeader
        title="Subscribe in your calendar"
        subtitle="A private link with every game and skate you're in or waitlisted for, your place in line in the title. Calendar apps refresh it on their own."
      />
      {url ? (
        <div className="feed-url stack">
          <input className="input feed-url__input" readOnly value={url} aria-label="Calendar feed URL" onFocus={(e) => e.currentTarget.select()} data-testid="calendar-feed-url" />
          <div className="row">
            <Button size="sm" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy link'}
            </Button>
            <a className="btn btn--secondary btn--sm" href={url.replace(/^https?:/, 'webcal:')}>
              Open in calendar app
            </a>
          </div>
          <p className="muted small">Keep it to yourself: anyone with the link sees your schedule. It is shown only now.</p>
        </div>
      ) : active ? (
        <p className="muted">Your feed is on. For its link again, make a new one: the old link stops working.</p>
      ) : (
        <p className="muted">No feed yet.</p>
      )}
      <div className="row">
        <Button size="sm" variant={active || url ? 'secondary' : 'primary'} loading={make.isPending} onClick={create} data-testid="calendar-feed-make">
          {active || url ? 'New link' : 'Make my calendar link'}
        </Button>
        {(active || url) && (
          <Button
            size="sm"
            variant="ghost"
            loading={revoke.isPending}
            onClick={() => revoke.mutate(undefined, { onSuccess: () => setUrl(null) })}
            data-testid="calendar-feed-revoke"
          >
            Turn off
          </Button>
        )}
      </div>
      {error && (
        <p className="field__error" role="alert">
          {errorMessage(error)}
        </p>
      )}
    </Card>
  );
}
