// Small pieces every status screen shares: who it is about, its level and
// positions as chips, until when it runs, and the event it is for.

import { Link } from 'react-router';
import type { HockeyPosition, Status, StatusEvent, StatusType, UniversalDivision } from '../../../lib/api-types';
import { openSpotsText } from '../../../lib/event-format';
import { rinkClock, rinkDayLabel } from '../../../lib/time-zone';
import { DIVISION_LABELS, POSITION_LABELS } from '../../../lib/format';
import { Avatar } from '../../../components/ui/avatar';
import { CalendarIcon, ClockIcon, PinIcon } from '../../../components/ui/icons';
import { isAllSkaters, STATUS_TYPE_LABELS, statusName, untilText } from '../model/describe';

export function TypeChip({ type }: { type: StatusType }) {
  return <span className={`type-chip type-chip--${type.toLowerCase().replace(/_/g, '-')}`}>{STATUS_TYPE_LABELS[type]}</span>;
}

export function LevelChip({ level }: { level: UniversalDivision | null | undefined }) {
  if (!level) return null;
  return (
    <span className="level-chip" title="On the universal division scale">
      {DIVISION_LABELS[level]}
    </span>
  );
}

export function PositionChips({ positions }: { positions: readonly HockeyPosition[] }) {
  if (positions.length === 0) return <span className="chip">Any position</span>;
  if (isAllSkaters(positions)) return <span className="chip">Any skater</span>;
  return (
    <>
      {positions.map((p) => (
        <span key={p} className={`chip${p === 'GOALIE' ? ' chip--goalie' : ''}`}>
          {POSITION_LABELS[p]}
        </span>
      ))}
    </>
  );
}

/** Avatar, name (linked to the person or team) and a line under it. */
export function StatusWho({ status }: { status: Status }) {
  const name = statusName(status);
  const team = status.entityType === 'TEAM' ? status.team : null;
  const to = team ? `/teams/${team.id}` : status.user ? `/users/${status.user.id}` : null;
  const handle = status.user?.username ? `@${status.user.username}` : null;
  const sub = team ? ['Team', team.facilityName].filter(Boolean).join(' · ') : handle !== name ? handle : null;
  return (
    <div className="status-who">
      <Avatar name={name} src={team ? team.logoUrl : status.user?.profileImage} size="md" square={Boolean(team)} />
      <div className="status-who__text">
        {to ? (
          <Link to={to} className="status-who__name">
            {name}
          </Link>
        ) : (
          <span className="status-who__name">{name}</span>
        )}
        {sub && <span className="status-who__sub">{sub}</span>}
      </div>
    </div>
  );
}

export function Until({ expiresAt }: { expiresAt: string }) {
  return (
    <span className="status-until">
      <ClockIcon size={15} />
      {untilText(expiresAt)}
    </span>
  );
}

/** "Today · 9:30 PM" at the rink's clock. */
export function eventWhenAtRink(e: Pick<StatusEvent, 'startDate' | 'timezone'>): string {
  return `${rinkDayLabel(e.startDate, null)} · ${rinkClock(e.startDate, e.timezone)}`;
}

/** The event a status or match is about: title, when, where, and what is open. */
export function EventStrip({ event, showOpen = true }: { event: StatusEvent; showOpen?: boolean }) {
  const open = showOpen && !event.cancelled ? openSpotsText(event.open) : null;
  return (
    <div className="event-strip">
      <Link to={`/events/${event.id}`} className="event-strip__title">
        {event.title}
        {event.cancelled && <span className="type-chip type-chip--cancelled">Cancelled</span>}
      </Link>
      <span className="event-strip__meta">
        <span>
          <CalendarIcon size={15} />
          {eventWhenAtRink(event)}
        </span>
        {event.facilityName && (
          <span>
            <PinIcon size={15} />
            {event.facilityName}
          </span>
        )}
      </span>
      {open && (
        <span className="event-strip__open" data-testid="open-spots">
          {open}
        </span>
      )}
    </div>
  );
}
