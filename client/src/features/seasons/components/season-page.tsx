// /seasons/:id — a season at a rink: its dates (the rink's days), whether it
// is the active one, the rosters playing in it, its divisions on the
// universal scale, its schedule sync and the league's games that sync
// imports. Links to the standings & schedule, the league's teams and the
// arena display.

import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { SeasonDetail } from '../../../lib/api-types';
import { plural } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { ArenaIcon, CalendarIcon, ClipboardIcon, EditIcon, StopwatchIcon } from '../../../components/ui/icons';
import { ListSkeleton } from '../../../components/ui/list-row';
import { LoadMore } from '../../../components/ui/load-more';
import { ActiveChip, OrgLayout } from '../../../components/ui/org-layout';
import { RosterRow } from '../../../components/ui/roster-list';
import { PageSpinner } from '../../../components/ui/spinner';
import { deviceZone, formatDayRange, formatZonedDay, zoneName } from '../../../lib/time-zone';
import { useSeasonRosters } from '../api/seasons';
import { useSeasonQuery } from '../../../lib/games';
import { useFacility } from '../../../lib/facilities';
import { DivisionMappingsCard } from './division-mappings-card';
import { LeagueGamesCard } from './league-games-card';
import { SyncCard } from './sync-card';
import '../seasons.css';
import { useDivisionScale } from '../../../lib/divisions';

export function SeasonPage() {
  const { id = '' } = useParams();
  const query = useSeasonQuery(id);
  if (query.isPending) return <PageSpinner label="Loading season" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<CalendarIcon size={28} />}
          title={notFound ? 'No such season' : 'Could not load this season'}
          action={notFound ? <ButtonLink to="/facilities">Find a rink</ButtonLink> : <Button variant="secondary" onClick={() => void query.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been deleted with its facility.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  return <SeasonView key={query.data.id} season={query.data} />;
}

function RostersCard({ seasonId }: { seasonId: string }) {
  const rosters = useSeasonRosters(seasonId);
  const items = rosters.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card padded={false} data-testid="season-rosters">
      <div className="card__pad card__pad--header">
        <CardHeader title="Rosters" subtitle={items.length ? `${items.length}${rosters.hasNextPage ? '+' : ''} ${plural(items.length, 'team')} in this season` : undefined} />
      </div>
      {rosters.isPending ? (
        <ListSkeleton rows={3} />
      ) : rosters.isError ? (
        <div className="card__pad">
          <Alert action={<button className="link-btn" onClick={() => void rosters.refetch()}>Retry</button>}>{errorMessage(rosters.error)}</Alert>
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon={<ClipboardIcon size={26} />} title="No rosters yet">
          Teams sign up by creating a roster for this season from their team page.
        </EmptyState>
      ) : (
        <>
          <ul className="list list--compact">
            {items.map((r) => (
              <RosterRow key={r.id} roster={r} context="season" />
            ))}
          </ul>
          <LoadMore hasMore={rosters.hasNextPage} loading={rosters.isFetchingNextPage} onLoadMore={() => void rosters.fetchNextPage()} />
        </>
      )}
    </Card>
  );
}

function SeasonView({ season }: { season: SeasonDetail }) {
  const facility = useFacility(season.facilityId);
  const scale = useDivisionScale();
  // Days are the rink's days: wait for its zone rather than show another
  // zone's dates for a moment (the browser's only if the rink can't be read).
  const tz = facility.data?.timezone ?? deviceZone();
  const tzKnown = Boolean(facility.data) || facility.isError;
  const day = (iso: string) => (tzKnown ? formatZonedDay(iso, tz) : '…');
  // The league's games exist once a sync has read the schedule (even one that failed later).
  const hasLeagueSchedule = Boolean(season.lastSyncAt || season.lastSync) && tzKnown;

  return (
    <div className="stack-lg" data-testid="season-page">
      <Card padded={false} className="season-hero">
        <div className="season-hero__body">
          <div className="season-hero__text">
            <p className="page-header__eyebrow">
              Season · <Link to={`/facilities/${season.facilityId}`}>{season.facilityName}</Link>
            </p>
            <h1 className="season-hero__name">{season.name}</h1>
            <p className="season-hero__meta">
              {season.isActive ? <ActiveChip>Active season</ActiveChip> : <span className="season-inactive">Not active</span>}
              <span data-testid="season-dates">{tzKnown ? formatDayRange(season.startDate, season.endDate, tz) : '…'}</span>
            </p>
          </div>
          <div className="season-hero__actions">
            {season.viewerCanEdit && (
              <ButtonLink to={`/seasons/${season.id}/edit`} variant="secondary" size="sm" icon={<EditIcon size={16} />} data-testid="edit-season">
                Edit
              </ButtonLink>
            )}
            <a className="btn btn--secondary btn--sm" href={`/display/season/${encodeURIComponent(season.id)}`} target="_blank" rel="noopener noreferrer" data-testid="season-display-link">
              <ArenaIcon size={16} />
              <span>Arena display</span>
            </a>
            <ButtonLink to={`/seasons/${season.id}/games`} variant="primary" size="sm" icon={<StopwatchIcon size={16} />} data-testid="season-games-link">
              Standings & schedule
            </ButtonLink>
          </div>
        </div>
      </Card>

      <OrgLayout
        main={
          <>
            <RostersCard seasonId={season.id} />
            {hasLeagueSchedule && <LeagueGamesCard seasonId={season.id} timezone={tz} />}
            {scale.isError ? (
              <Alert>The division scale could not be loaded: {errorMessage(scale.error)}</Alert>
            ) : (
              <DivisionMappingsCard seasonId={season.id} mappings={season.divisionMappings ?? []} scale={scale.data ?? []} canEdit={season.viewerCanEdit} />
            )}
          </>
        }
        side={
          <>
            <Card data-testid="season-details">
              <CardHeader title="Details" />
              <dl className="facts">
                <div>
                  <dt>First day</dt>
                  <dd>{day(season.startDate)}</dd>
                </div>
                <div>
                  <dt>Last day</dt>
                  <dd>{day(season.endDate)}</dd>
                </div>
                <div>
                  <dt>Time zone</dt>
                  <dd>{tzKnown ? zoneName(tz) : '…'}</dd>
                </div>
                <div>
                  <dt>Rink</dt>
                  <dd>
                    <Link to={`/facilities/${season.facilityId}`}>{season.facilityName}</Link>
                  </dd>
                </div>
              </dl>
            </Card>
            <SyncCard season={season} timezone={tz} />
          </>
        }
      />
    </div>
  );
}
