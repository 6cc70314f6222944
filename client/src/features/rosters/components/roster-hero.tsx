// The top of a roster page: whose roster, which season, its status and
// division, how full it is and its record, with links to the team's schedule
// and the season's standings.

import { Link } from 'react-router';
import type { RosterDocument, RosterViewer } from '../../../lib/api-types';
import { Avatar } from '../../../components/ui/avatar';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CalendarIcon, EditIcon, StopwatchIcon } from '../../../components/ui/icons';
import { RosterStatusChip } from '../../../components/ui/roster-list';

export function RosterHero({ doc, viewer, isLive }: { doc: RosterDocument; viewer: RosterViewer; isLive: boolean }) {
  const archived = doc.status === 'ARCHIVED';
  const games = doc.wins + doc.losses + doc.ties;
  return (
    <Card padded={false} className="roster-hero" data-testid="roster-hero">
      <div className="roster-hero__banner" aria-hidden="true" />
      <div className="roster-hero__body">
        <Avatar name={doc.teamName} size="xl" square />
        <div className="roster-hero__text">
          <p className="page-header__eyebrow">
            Roster · <Link to={`/seasons/${doc.seasonId}`}>{doc.seasonName}</Link>
          </p>
          <h1 className="roster-hero__name">{doc.name}</h1>
          <div className="roster-hero__chips">
            <RosterStatusChip status={doc.status} />
            {doc.division && (
              <span className="roster-division-chip" title={`Level ${doc.division.level} of 8 on the universal scale`}>
                {doc.division.facilityDivisionName} · L{doc.division.level}
              </span>
            )}
            {isLive && (
              <span className="roster-live" title="Updates as they happen">
                <span className="roster-live__dot" aria-hidden="true" />
                Live
              </span>
            )}
          </div>
          <p className="roster-hero__meta">
            <Link to={`/teams/${doc.teamId}`}>{doc.teamName}</Link>
            {' · '}
            <Link to={`/facilities/${doc.facilityId}`}>{doc.facilityName}</Link>
          </p>
        </div>
        <div className="roster-hero__actions">
          {viewer.canEdit && !archived && (
            <ButtonLink to={`/rosters/${doc.id}/edit`} variant="secondary" size="sm" icon={<EditIcon size={16} />} data-testid="edit-roster">
              Edit
            </ButtonLink>
          )}
          <ButtonLink to={`/teams/${doc.teamId}/schedule`} variant="secondary" size="sm" icon={<CalendarIcon size={16} />} data-testid="roster-schedule-link">
            Schedule
          </ButtonLink>
          <ButtonLink to={`/seasons/${doc.seasonId}/games`} variant="secondary" size="sm" icon={<StopwatchIcon size={16} />} data-testid="roster-standings-link">
            Standings
          </ButtonLink>
        </div>
      </div>
      <dl className="roster-hero__stats">
        <div>
          <dt>Players</dt>
          <dd data-testid="roster-members">
            {doc.memberCount}
            {doc.maxMembers !== null && <span className="roster-hero__of">/{doc.maxMembers}</span>}
          </dd>
        </div>
        <div>
          <dt>Record</dt>
          <dd>{games ? `${doc.wins}–${doc.losses}–${doc.ties}` : '—'}</dd>
        </div>
        <div>
          <dt>Points</dt>
          <dd>{doc.points}</dd>
        </div>
      </dl>
    </Card>
  );
}
