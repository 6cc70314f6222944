// /teams/:id — the team: its rosters season by season, its staff, followers
// and a link to its schedule. Staff edit it and start rosters; the owner
// manages the staff. Edits made elsewhere arrive over `team:ID`.

import { Link, useParams } from 'react-router';
import { useManagerLink, usePerson, useTeam, useTeamFollowers, useTeamLive, useTransferTeam } from '../api/teams';
import { ApiError, errorMessage } from '../../../lib/api';
import type { TeamPage as TeamPageData } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';
import { formatCount, memberSince, plural } from '../../../lib/format';
import { useFollowToggle } from '../../../lib/use-follow-toggle';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { FollowButton } from '../../../components/ui/follow-button';
import { FollowersCard } from '../../../components/ui/followers-card';
import { CalendarIcon, ClipboardIcon, EditIcon, PlusIcon, RinkIcon, TeamIcon } from '../../../components/ui/icons';
import { ActiveChip, OrgLayout, RoleTag } from '../../../components/ui/org-layout';
import { groupBySeason, RosterRow } from '../../../components/ui/roster-list';
import { PageSpinner } from '../../../components/ui/spinner';
import { StaffCard } from '../../../components/ui/staff-card';
import '../teams.css';

export function TeamPage() {
  const { id = '' } = useParams();
  const query = useTeam(id);
  if (query.isPending) return <PageSpinner label="Loading team" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<TeamIcon size={28} />}
          title={notFound ? 'No such team' : 'Could not load this team'}
          action={notFound ? <ButtonLink to="/teams">All teams</ButtonLink> : <Button variant="secondary" onClick={() => void query.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been removed.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  return <TeamView key={query.data.id} team={query.data} />;
}

function TeamView({ team }: { team: TeamPageData }) {
  const { user } = useAuth();
  const myId = user?.id ?? '';
  useTeamLive(team);
  const follow = useFollowToggle('teams', team);
  const followers = useTeamFollowers(team.id);
  const owner = usePerson(team.ownerId);
  const managerLink = useManagerLink(team.id);
  const transfer = useTransferTeam(team.id);
  const isStaff = team.viewerRole !== null;

  return (
    <div className="stack-lg" data-testid="team-page">
      <Card padded={false} className="entity-hero">
        <div className="entity-hero__banner entity-hero__banner--team" aria-hidden="true" />
        <div className="entity-hero__body">
          <Avatar name={team.name} src={team.logoUrl} size="xl" square />
          <div className="entity-hero__text">
            <p className="page-header__eyebrow">
              Team
              {team.viewerRole && <RoleTag>{team.viewerRole === 'OWNER' ? 'You own it' : 'You manage it'}</RoleTag>}
            </p>
            <h1 className="entity-hero__name">{team.name}</h1>
            <p className="entity-hero__meta">
              <span data-testid="team-follower-count">{formatCount(follow.followerCount)}</span> {plural(follow.followerCount, 'follower')}
              {memberSince(team.createdAt) && <> · Since {memberSince(team.createdAt)}</>}
            </p>
          </div>
          <div className="entity-hero__actions org-hero-actions">
            {isStaff && (
              <ButtonLink to={`/teams/${team.id}/edit`} variant="secondary" icon={<EditIcon size={16} />} data-testid="edit-team">
                Edit
              </ButtonLink>
            )}
            <ButtonLink to={`/teams/${team.id}/schedule`} variant="secondary" icon={<CalendarIcon size={16} />} data-testid="team-schedule-link">
              Schedule
            </ButtonLink>
            <FollowButton subject={team.name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />
          </div>
        </div>
        {follow.error && (
          <div className="card__pad">
            <Alert>{errorMessage(follow.error)}</Alert>
          </div>
        )}
      </Card>

      <OrgLayout
        main={<RostersCard team={team} />}
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
            <StaffCard
              noun="team"
              ownerId={team.ownerId}
              owner={owner.data ?? null}
              managers={team.managers}
              viewerRole={team.viewerRole}
              myId={myId}
              onAddManager={(userId) => managerLink.mutateAsync({ userId, add: true })}
              onRemoveManager={(userId) => managerLink.mutateAsync({ userId, add: false })}
              onTransfer={(userId) => transfer.mutateAsync(userId)}
            />
            <FollowersCard query={followers} count={follow.followerCount} emptyText="No followers yet. Be the first." />
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
