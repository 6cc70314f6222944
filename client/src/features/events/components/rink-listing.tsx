// For the staff of the event's rink: whether the event is listed under the
// rink's name, and the one control that changes it. Anyone may hold an event
// at any rink; only its staff put the rink's name on one (docs/permissions.md,
// "Who may attach to whom"). A season's event is always listed.

import { errorMessage } from '../../../lib/api';
import type { RinkEvent } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CheckIcon, RinkIcon } from '../../../components/ui/icons';
import { useSetHosting } from '../api/events';
import { useFacility } from '../../../lib/facilities';

export function RinkListing({ event }: { event: RinkEvent }) {
  const facility = useFacility(event.facilityId);
  const hosting = useSetHosting(event.id);
  const rink = facility.data?.name ?? 'the rink';
  const rinks = facility.data ? `${facility.data.name}'s` : "the rink's";
  const listed = event.hostedByFacility;
  const seasonal = Boolean(event.seasonId);

  return (
    <Card className={`event-block event-block--listing listing-card${listed ? ' listing-card--listed' : ''}`} data-testid="rink-listing">
      <CardHeader title={`At ${rink}`} subtitle={`Only ${rinks} staff see this.`} />
      <div className="listing-card__status">
        <span className="listing-card__icon" aria-hidden="true">
          {listed ? <CheckIcon size={20} /> : <RinkIcon size={20} />}
        </span>
        <div className="listing-card__text">
          <p className="listing-card__title" data-testid="listing-status">
            {listed ? `Listed at ${rink}` : 'Community event'}
          </p>
          <p className="listing-card__sub">
            {listed
              ? seasonal
                ? `Part of a season's schedule, so it always carries ${rinks} name.`
                : `It carries ${rinks} name and shows in the rink's event list.`
              : `Someone else runs it here. It stays out of ${rinks} event list until you list it under the rink's name.`}
          </p>
        </div>
      </div>
      {hosting.error && <Alert>{errorMessage(hosting.error)}</Alert>}
      {listed ? (
        !seasonal && (
          <Button variant="secondary" size="sm" loading={hosting.isPending} onClick={() => hosting.mutate(false)} data-testid="unhost-event">
            Remove {rinks} name
          </Button>
        )
      ) : (
        <Button variant="secondary" size="sm" loading={hosting.isPending} onClick={() => hosting.mutate(true)} data-testid="host-event">
          List at {rink}
        </Button>
      )}
    </Card>
  );
}
