// The side cards about people on a facility's or a team's page: who runs it
// (owner and managers, managed in place) and who follows it.

import type { UserSummary } from '../../lib/api-types';
import { useManagerLink, useOrgFollowers, usePerson, type OrgKind, type OrgPageBase } from '../../lib/orgs';
import { FollowersCard } from './followers-card';
import { StaffCard } from './staff-card';

export function OrgPeopleCards({
  kind,
  noun,
  org,
  myId,
  followerCount,
  onTransfer,
}: {
  kind: OrgKind;
  /** "facility" or "team", for the staff card's sentences. */
  noun: string;
  org: OrgPageBase;
  myId: string;
  /** As the page shows it (it moves at once when the viewer follows). */
  followerCount: number;
  /** Hand the org over; the feature's call refreshes what depends on it. */
  onTransfer: (userId: string) => Promise<unknown>;
}) {
  const owner = usePerson(org.ownerId);
  const followers = useOrgFollowers(kind, org.id);
  const managerLink = useManagerLink(kind, org.id);
  const ownerSummary: UserSummary | null = owner.data ?? null;
  return (
    <>
      <StaffCard
        noun={noun}
        ownerId={org.ownerId}
        owner={ownerSummary}
        managers={org.managers}
        viewerRole={org.viewerRole}
        myId={myId}
        onAddManager={(userId) => managerLink.mutateAsync({ userId, add: true })}
        onRemoveManager={(userId) => managerLink.mutateAsync({ userId, add: false })}
        onTransfer={onTransfer}
      />
      <FollowersCard query={followers} count={followerCount} emptyText="No followers yet. Be the first." />
    </>
  );
}
