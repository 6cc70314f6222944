// One entry of the board: who, what they offer or ask, at what level, for
// which positions, until when; an event's call for subs shows the event
// and what is still open there.

import type { Status } from '../../../lib/api-types';
import { EventStrip, LevelChip, PositionChips, StatusWho, TypeChip, Until } from './status-bits';

export function StatusCard({ status }: { status: Status }) {
  return (
    <article className={`status-card status-card--${status.type.toLowerCase().replace(/_/g, '-')}`} data-testid={`status-${status.id}`}>
      <StatusWho status={status} />
      <div className="chip-row">
        <TypeChip type={status.type} />
        <LevelChip level={status.level} />
        <PositionChips positions={status.positions} />
      </div>
      {status.message && <p className="status-card__message">{status.message}</p>}
      {status.event && <EventStrip event={status.event} />}
      <footer className="status-card__foot">
        <Until expiresAt={status.expiresAt} />
      </footer>
    </article>
  );
}
