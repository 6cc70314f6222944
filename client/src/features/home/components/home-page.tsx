import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { useFacilitiesPreview, useFollowingPreview, useTeamsPreview } from '../api/home';
import { errorMessage } from '../../../lib/api';
import type { MyRoster, Page } from '../../../lib/api-types';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { displayName, formatCount, handle, plural, PROFILE_TYPE_LABELS } from '../../../lib/format';
import { Avatar } from '../../../components/ui/avatar';
import { ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Chip } from '../../../components/ui/chip';
import { ChevronRightIcon, PeopleIcon, PlusIcon, RinkIcon, SearchIcon, TeamIcon } from '../../../components/ui/icons';
import { ListRow, ListSkeleton } from '../../../components/ui/list-row';
import '../home.css';
import { useMyRosters } from '../../../lib/me';
import { zoneName } from '../../../lib/time-zone';

function greeting(): string {
  const h = new Date().getHours();
  if (h < 5) return 'Late skate';
  if (h < 12) return 'Good morning';
  if (h < 18) return 'Good afternoon';
  return 'Good evening';
}

/** `nextUp`: my next games and skates, first; `feed`: the main column (each another feature's, composed in app/). */
export function HomePage({ feed, nextUp }: { feed?: ReactNode; nextUp?: ReactNode }) {
  const me = useCurrentUser();
  const people = useFollowingPreview(me.id);
  const facilities = useFacilitiesPreview(me.id);
  const rosters = useMyRosters();
  const teams = useTeamsPreview(me.id);
  const name = displayName(me);

  return (
    <div className="stack-lg" data-testid="home-page">
      <section className="welcome">
        <div className="welcome__text">
          <p className="page-header__eyebrow">{greeting()}</p>
          <h1 className="welcome__title">{me.firstName ? `Hey ${me.firstName}` : `Hey ${name}`}</h1>
          <p className="welcome__sub">Your people, your rinks and your teams, all in one place.</p>
        </div>
        <Link to={`/users/${me.id}`} className="welcome__card">
          <Avatar name={name} src={me.profileImage} size="lg" />
          <span className="welcome__card-text">
            <strong>{name}</strong>
            {handle(me) && <span className="muted">{handle(me)}</span>}
            <span className="welcome__counts">
              <span>
                <b>{formatCount(me.followerCount)}</b> {plural(me.followerCount, 'follower')}
              </span>
              <span>
                <b>{formatCount(me.followingCount)}</b> following
              </span>
            </span>
          </span>
          <ChevronRightIcon size={20} className="welcome__chev" />
        </Link>
      </section>

      {me.profileTypes.length > 0 && (
        <div className="chip-row">
          {me.profileTypes.map((t) => (
            <Chip key={t}>{PROFILE_TYPE_LABELS[t]}</Chip>
          ))}
        </div>
      )}

      {nextUp}

      <div className="home-grid">
        <div className="home-grid__main">{feed}</div>
        <aside className="home-grid__aside stack">
          <div className="quick-actions quick-actions--aside">
            <QuickAction to="/people" icon={<SearchIcon size={20} />} title="Find people" text="Teammates, subs, refs" />
            <QuickAction to="/facilities" icon={<RinkIcon size={20} />} title="Browse rinks" text="Follow your home ice" />
            <QuickAction to="/teams/new" icon={<PlusIcon size={20} />} title="Start a team" text="Own it, invite the squad" />
            <QuickAction to="/facilities/new" icon={<PlusIcon size={20} />} title="Add a facility" text="Run seasons and ice time" />
          </div>
          <Preview
            title="People you follow"
            all={`/users/${me.id}/following`}
            query={people}
            empty={<EmptyLine icon={<PeopleIcon size={18} />} to="/people" text="Find teammates to follow" />}
            render={(u) => (
              <ListRow key={u.id} to={`/users/${u.id}`} media={<Avatar name={displayName(u)} src={u.profileImage} size="sm" />} title={displayName(u)} subtitle={handle(u) ?? undefined} />
            )}
          />
          <Preview
            title="Your rinks"
            all={`/users/${me.id}/following/facilities`}
            query={facilities}
            empty={<EmptyLine icon={<RinkIcon size={18} />} to="/facilities" text="Follow your home rink" />}
            render={(f) => (
              <ListRow key={f.id} to={`/facilities/${f.id}`} media={<Avatar name={f.name} src={f.imageUrl} size="sm" square />} title={f.name} subtitle={zoneName(f.timezone)} />
            )}
          />
          <YourTeams query={rosters} />
          <Preview
            title="Teams you follow"
            all={`/users/${me.id}/following/teams`}
            query={teams}
            empty={<EmptyLine icon={<TeamIcon size={18} />} to="/teams" text="Follow a team" />}
            render={(t) => (
              <ListRow key={t.id} to={`/teams/${t.id}`} media={<Avatar name={t.name} src={t.logoUrl} size="sm" square />} title={t.name} subtitle={`${formatCount(t.followerCount)} ${plural(t.followerCount, 'follower')}`} />
            )}
          />
        </aside>
      </div>
    </div>
  );
}

function QuickAction({ to, icon, title, text }: { to: string; icon: ReactNode; title: string; text: string }) {
  return (
    <Link to={to} className="quick-action">
      <span className="quick-action__icon">{icon}</span>
      <span className="quick-action__text">
        <strong>{title}</strong>
        <span>{text}</span>
      </span>
    </Link>
  );
}

function EmptyLine({ icon, to, text }: { icon: ReactNode; to: string; text: string }) {
  return (
    <div className="empty-line">
      {icon}
      <Link to={to}>{text}</Link>
    </div>
  );
}

function Preview<T extends { id: string }>({
  title,
  all,
  query,
  empty,
  render,
}: {
  title: string;
  all: string;
  query: UseQueryResult<Page<T>>;
  empty: ReactNode;
  render: (item: T) => ReactNode;
}) {
  const items = query.data?.items ?? [];
  return (
    <Card padded={false}>
      <div className="card__pad card__pad--header">
        <CardHeader
          title={title}
          action={items.length > 0 ? <ButtonLink to={all} size="sm" variant="ghost">See all</ButtonLink> : undefined}
        />
      </div>
      {query.isPending ? (
        <ListSkeleton rows={3} />
      ) : query.isError ? (
        <p className="muted card__pad">{errorMessage(query.error)}</p>
      ) : items.length === 0 ? (
        empty
      ) : (
        <ul className="list list--compact">{items.map(render)}</ul>
      )}
    </Card>
  );
}

/** "Your teams": the rosters I play on, current ones first. */
function YourTeams({ query }: { query: UseQueryResult<MyRoster[]> }) {
  const rosters = (query.data ?? []).filter((r) => r.status !== 'ARCHIVED').slice(0, 6);
  return (
    <Card padded={false} data-testid="your-teams">
      <div className="card__pad card__pad--header">
        <CardHeader title="Your teams" />
      </div>
      {query.isPending ? (
        <ListSkeleton rows={3} />
      ) : query.isError ? (
        <p className="muted card__pad">{errorMessage(query.error)}</p>
      ) : rosters.length === 0 ? (
        <EmptyLine icon={<TeamIcon size={18} />} to="/teams" text="Join or start a team" />
      ) : (
        <ul className="list list--compact">
          {rosters.map((r) => (
            <ListRow
              key={r.rosterId}
              to={`/rosters/${r.rosterId}`}
              media={<Avatar name={r.teamName} src={r.logoUrl} size="sm" square />}
              title={r.teamName}
              subtitle={r.rosterName === r.teamName ? r.seasonName : `${r.rosterName} · ${r.seasonName}`}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}
