// "RSVP rules" on the event page, for its organisers (docs/pickup-night.md):
// this event's rules, and who its regulars are (the series' list and the
// linked teams' rosters). A series event points to the series page, where
// the rules for every week and the series' own regulars are kept.

import { Link } from 'react-router';
import type { RinkEvent } from '../../../lib/api-types';
import { useRinkZone } from '../../../lib/facilities';
import { Card, CardHeader } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useEventRules, useSaveEventRules } from '../api/pickup-night';
import { RsvpRulesForm } from './rsvp-rules-form';
import '../pickup-night.css';

export function RsvpRulesCard({ event }: { event: RinkEvent }) {
  const query = useEventRules(event.id);
  const save = useSaveEventRules(event.id);
  const rinkZone = useRinkZone(event.facilityId);
  const rules = query.data;
  // Not mine to read (not an organiser after all), or a server without the rules: stay away.
  if (query.isError && !rules) return null;
  const regulars = rules?.regulars ?? [];
  return (
    <Card className="event-block rules-card" data-testid="rsvp-rules">
      <CardHeader
        title="RSVP rules"
        subtitle={event.seriesId ? 'For this week only. The series page sets them for every week.' : 'Regulars first, a cut-off, and a game-day check.'}
        action={
          event.seriesId ? (
            <Link to={`/series/${event.seriesId}`} className="small" data-testid="series-page-link">
              Series page
            </Link>
          ) : undefined
        }
      />
      {!rules ? (
        <div className="center-pad">
          <Spinner label="Loading the rules" />
        </div>
      ) : (
        <>
          <RsvpRulesForm
            rules={rules}
            startIso={event.startDate}
            rinkZone={rinkZone}
            saving={save.isPending}
            onSave={async (r) => {
              await save.mutateAsync(r);
            }}
            note="Takes effect at once."
            testIdPrefix="event-rules"
          />
          <section className="rules-card__regulars" aria-label="Regulars" data-testid="event-regulars">
            <h3 className="tool-section__title">Regulars · {regulars.length}</h3>
            {regulars.length === 0 ? (
              <p className="muted small">
                {event.seriesId ? 'None yet. Add them on the series page, or link a team: its roster counts.' : 'Link a team: its active players are the regulars.'}
              </p>
            ) : (
              <ul className="regular-chips">
                {regulars.map((r) => (
                  <li key={r.userId} className="regular-chip" data-testid={`event-regular-${r.userId}`}>
                    <Link to={`/users/${r.userId}`}>{r.displayName}</Link>
                    {r.source === 'ROSTER' && <span className="regular-chip__source">roster</span>}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </Card>
  );
}
