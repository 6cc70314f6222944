// On an event short of players, its organisers' call for subs: one tap
// posts `LOOKING_FOR_SUBS` for the event (the server asks for the roles
// that are short), and every available sub at the right level hears of it
// within a second. Once posted it says so, with a two-tap take-down. The
// server ends the call by itself when the places fill or the puck drops.
// Composed into the events feature's page by app/ (features do not import
// each other); its props are what that page passes.

import { ApiError, errorMessage } from '../../../lib/api';
import type { OpenPlaces, Status } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { CheckIcon, MegaphoneIcon } from '../../../components/ui/icons';
import { useCreateStatus, useDeleteStatus } from '../api/statuses';
import { callNoun } from '../model/describe';
import { useNow } from '../../../lib/use-now';
import '../subs.css';
import { useMyStatuses } from '../../../lib/me';

export interface EventSubsCallProps {
  eventId: string;
  /** Places left per role (null = unlimited). */
  open: OpenPlaces;
}

/** "Find a goalie", "Find skaters", "Find subs": what the button asks for. */
export function findLabel(open: OpenPlaces): string {
  const goalies = open.goalies ?? 0;
  const skaters = open.skaters ?? 0;
  if (goalies > 0 && skaters > 0) return 'Find subs';
  if (goalies > 0) return goalies === 1 ? 'Find a goalie' : 'Find goalies';
  return skaters === 1 ? 'Find a skater' : 'Find skaters';
}

/** My active call for subs for this event, if there is one. */
export function callFor(statuses: readonly Status[] | undefined, eventId: string, now: number): Status | null {
  return statuses?.find((s) => s.eventId === eventId && s.type === 'LOOKING_FOR_SUBS' && Date.parse(s.expiresAt) > now) ?? null;
}

export function EventSubsCall({ eventId, open }: EventSubsCallProps) {
  const mine = useMyStatuses();
  const create = useCreateStatus();
  const remove = useDeleteStatus();
  const now = useNow();
  const call = callFor(mine.data, eventId, now);

  if (call) {
    const noun = callNoun(call.positions, (open.goalies ?? 0) + (open.skaters ?? 0));
    return (
      <div className="subs-call subs-call--posted" data-testid="subs-call">
        <span className="subs-call__posted" data-testid="subs-call-posted">
          <CheckIcon size={16} /> Looking for {noun} — posted
        </span>
        <ConfirmButton size="sm" confirmLabel="Tap again to take down" loading={remove.isPending} onConfirm={() => remove.mutate(call.id)} data-testid="subs-call-take-down">
          Take down
        </ConfirmButton>
        {remove.error && <Alert>{errorMessage(remove.error)}</Alert>}
      </div>
    );
  }

  return (
    <div className="subs-call" data-testid="subs-call">
      <Button
        size="sm"
        icon={<MegaphoneIcon size={16} />}
        loading={create.isPending}
        disabled={mine.isPending}
        onClick={() =>
          create.mutate(
            { type: 'LOOKING_FOR_SUBS', entityType: 'USER', eventId },
            {
              // Perhaps already called for (another organiser, another tab): if so, that call shows instead.
              onError: (err) => {
                if (err instanceof ApiError && err.status === 409) void mine.refetch();
              },
            },
          )
        }
        data-testid="find-subs"
      >
        {findLabel(open)}
      </Button>
      {create.error && <Alert>{errorMessage(create.error)}</Alert>}
    </div>
  );
}
