// /teams/:id — the team: its rosters season by season, its staff, followers
// and a link to its schedule. Staff edit it and start rosters; the owner
// manages the staff. Edits made elsewhere arrive over `team:ID`.

import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useTeam, useTeamLive, useTransferTeam } from '../api/teams';
import type { TeamPage as TeamPageData } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';
import { memberSince } from '../../../lib/format';
import { useFollowToggle } from '../../../lib/use-follow-toggle';
import { ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon, ClipboardIcon, EditIcon, PlusIcon, RinkIcon, TeamIcon } from '../../../components/ui/icons';
import { OrgHero } from '../../../components/ui/org-hero';
import { ActiveChip, OrgLayout } from '../../../components/ui/org-layout';
import { OrgLoadState } from '../../../components/ui/org-load-state';
import { OrgPeopleCards } from '../../../components/ui/org-people-cards';
import { groupBySeason, RosterRow } from '../../../components/ui/roster-list';
import '../teams.css';

export const LOAD_COPY = {
  loadingLabel: 'Loading team',
  notFoundTitle: 'No such team',
  errorTitle: 'Could not load this team',
  listHref: '/teams',
  listLabel: 'All teams',
};

/** The team's upcoming events and games (the schedule feature's, composed in app/). */
export type RenderUpcoming = (teamId: string) => ReactNode;

export function TeamPage({ renderUpcoming }: { renderUpcoming?: RenderUpcoming }) {
  const { id = '' } = useParams();
  const query = useTeam(id);
  if (query.isPending || query.isError) {
    return <OrgLoadState query={query} icon={<TeamIcon size={28} />} copy={LOAD_COPY} />;
  }
  return <TeamView key={query.data.id} team={query.data} renderUpcoming={renderUpcoming} />;
}

function TeamView({ team, renderUpcoming }: { team: TeamPageData; renderUpcoming?: RenderUpcoming }) {
  const { user } = useAuth();
  const myId = user?.id ?? '';
  useTeamLive(team);
  const follow = useFollowToggle('teams', team, { live: true });
  const transfer = useTransferTeam(team.id);
  const isStaff = team.viewerRole !== null;

  return (
    <div className="stack-lg" data-testid="team-page">
      <OrgHero
        eyebrow="Team"
        banner="team"
        name={team.name}
        imageSrc={team.logoUrl}
        viewerRole={team.viewerRole}
        follow={follow}
        followerCountTestId="team-follower-count"
        meta={memberSince(team.createdAt) && <> · Since {memberSince(team.createdAt)}</>}
        actions={
          <>
            {isStaff && (
              <ButtonLink to={`/teams/${team.id}/edit`} variant="secondary" icon={<EditIcon size={16} />} data-testid="edit-team">
                Edit
              </ButtonLink>
            )}
            <ButtonLink to={`/teams/${team.id}/schedule`} variant="secondary" icon={<CalendarIcon size={16} />} data-testid="team-schedule-link">
              Schedule
            </ButtonLink>
          </>
        }
      />

      <OrgLayout
        main={
          <>
            {renderUpcoming?.(team.id)}
            <RostersCard team={team} />
          </>
        }
        side={
          <>
            <Card>
              <CardHeader title="About" />
              {team.description ? <p className="prose">{team.description}</p> : <p className="muted">No description yet.</p>}
              <div className="team-home">
                <RinkIcon size={18} />
                {team.facilityId ? (
                  <span>
                    Home rink: <Link to={`/facilities/${team.facilityId}`}>{team.facilityName ?? 'its facility'}</Link>
                  </span>
                ) : (
                  <span className="muted">No home rink yet.</span>
                )}
              </div>
            </Card>
            <OrgPeopleCards
              kind="teams"
              noun="team"
              org={team}
              myId={myId}
              followerCount={follow.followerCount}
              onTransfer={(userId) => transfer.mutateAsync(userId)}
            />
          </>
        }
      />
    </div>
  );
}

function RostersCard({ team }: { team: TeamPageData }) {
  const isStaff = team.viewerRole !== null;
  const groups = groupBySeason(team.rosters);
  return (
    <Card padded={false} data-testid="team-rosters">
      <div className="card__pad card__pad--header">
        <CardHeader
          title="Rosters"
          subtitle={team.rosters.length ? 'One roster per season; join one to play.' : undefined}
          action={
            isStaff ? (
              <ButtonLink to={`/teams/${team.id}/rosters/new`} size="sm" variant="primary" icon={<PlusIcon size={16} />} data-testid="new-roster">
                New roster
              </ButtonLink>
            ) : undefined
          }
        />
      </div>
      {groups.length === 0 ? (
        <EmptyState icon={<ClipboardIcon size={26} />} title="No rosters yet">
          {isStaff ? 'Create a roster for a season at a rink, then add players or let them ask to join.' : 'When the team signs up for a season, its roster shows up here.'}
        </EmptyState>
      ) : (
        <div className="team-seasons">
          {groups.map((g) => (
            <section key={g.seasonId} className="team-season" aria-label={g.seasonName}>
              <header className="team-season__head">
                <Link to={`/seasons/${g.seasonId}`} className="team-season__name">
                  {g.seasonName}
                </Link>
                {g.isActive && <ActiveChip>Current</ActiveChip>}
                <span className="team-season__where">{g.facilityName}</span>
              </header>
              <ul className="list list--compact">
                {g.rosters.map((r) => (
                  <RosterRow key={r.id} roster={r} context="team" />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </Card>
  );
}
