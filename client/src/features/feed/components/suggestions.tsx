// The FIRST_FOLLOW card's suggestions: people, rinks and teams to follow,
// each with the same follow button (and endpoints) as their own pages.

import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import type { UserSummary } from '../../../lib/api-types';
import { displayName, handle } from '../../../lib/format';
import { useFollowToggle, type FollowKind } from '../../../lib/use-follow-toggle';
import { Avatar } from '../../../components/ui/avatar';
import { FollowButton } from '../../../components/ui/follow-button';
import type { FollowSuggestions, NamedRef } from '../model/types';

export function SuggestionList({ suggestions }: { suggestions: FollowSuggestions }) {
  const rows = [
    ...suggestions.people.map((u) => ({ kind: 'users' as const, id: u.id, person: u })),
    ...suggestions.facilities.map((f) => ({ kind: 'facilities' as const, id: f.id, org: f })),
    ...suggestions.teams.map((t) => ({ kind: 'teams' as const, id: t.id, org: t })),
  ];
  if (rows.length === 0) return null;
  return (
    <ul className="suggestions" data-testid="follow-suggestions">
      {rows.map((r) =>
        'person' in r ? (
          <SuggestionRow key={`u${r.id}`} kind="users" id={r.id} name={displayName(r.person)} sub={handle(r.person) ?? 'Person'} to={`/users/${r.id}`} person={r.person} />
        ) : (
          <SuggestionRow key={`${r.kind}${r.id}`} kind={r.kind} id={r.id} name={(r.org as NamedRef).name} sub={r.kind === 'facilities' ? 'Rink' : 'Team'} to={`/${r.kind}/${r.id}`} />
        ),
      )}
    </ul>
  );
}

function SuggestionRow({ kind, id, name, sub, to, person }: { kind: FollowKind; id: string; name: string; sub: string; to: string; person?: UserSummary }) {
  // Suggestions are things I did not follow when the card was made; the
  // hook then remembers each tap (Following, tap again to unfollow), and a
  // failed one says why under the row instead of failing silently.
  const follow = useFollowToggle(kind, { id, isFollowing: false, followerCount: 0 });
  return (
    <li className="suggestion">
      <Link to={to} className="suggestion__who">
        <Avatar name={name} src={person?.profileImage ?? null} size="sm" square={!person} />
        <span className="suggestion__text">
          <strong>{name}</strong>
          <span className="muted">{sub}</span>
        </span>
      </Link>
      <FollowButton size="sm" subject={name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={() => void follow.toggle()} />
      {follow.error && (
        <p className="suggestion__error" role="alert">
          {errorMessage(follow.error)}
        </p>
      )}
    </li>
  );
}
