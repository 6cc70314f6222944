// /rosters/:id — a team's lineup for one season: players with numbers,
// letters and stats; the viewer's own place (ask to join, pending, on it);
// the deciders' queue; status and player management for the staff; and,
// for the players and the staff, who is in for the games coming up
// (docs/availability.md), with the staff's availability rules.
//
// Those who decide requests also get the invite card, which the invites
// feature makes and app/ composes in (`renderInvites`).
// The roster's team chat (docs/chat.md) is another feature's card, composed
// in app/ (`renderTeamChat`); this page says who sees it: the players and
// the team's staff, the conversation's members.
//
// One `roster:ID` subscription drives it: the newest of the REST read and
// the pushed document (by seq) is what every card shows, so approvals,
// new requests and roster edits appear without a reload.

import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { Roster, RosterDocument } from '../../../lib/api-types';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { ClipboardIcon } from '../../../components/ui/icons';
import { OrgLayout } from '../../../components/ui/org-layout';
import { PageSpinner } from '../../../components/ui/spinner';
import { useRoster } from '../api/rosters';
import { useLiveRoster } from '../api/live';
import { standingOf } from '../model/roster';
import { AvailabilityCard } from './availability-card';
import { AvailabilityRulesCard } from './availability-rules-card';
import { JoinPanel } from './join-panel';
import { PlayersCard } from './players-card';
import { RequestsQueue } from './requests-queue';
import { RosterHero } from './roster-hero';
import { StatusCard } from './status-card';
import '../rosters.css';

/** What the invites card needs of the roster (composed in app/: features do not import each other). */
export interface RosterInvitesProps {
  rosterId: string;
  name: string;
  /** The live document's seq: a use of an invite changes the roster, and so re-reads the invites. */
  version: number;
}
export type RenderRosterInvites = (props: RosterInvitesProps) => ReactNode;

/** The roster's team chat card, for its members (another feature's, composed in app/). */
export type RenderTeamChat = (rosterId: string) => ReactNode;

export function RosterPage({ renderInvites, renderTeamChat }: { renderInvites?: RenderRosterInvites; renderTeamChat?: RenderTeamChat } = {}) {
  const { id = '' } = useParams();
  const query = useRoster(id);
  if (query.isPending) return <PageSpinner label="Loading roster" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<ClipboardIcon size={28} />}
          title={notFound ? 'No such roster' : 'Could not load this roster'}
          action={notFound ? <ButtonLink to="/teams">Find a team</ButtonLink> : <Button variant="secondary" onClick={() => void query.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been deleted with its team or season.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  return <RosterView key={query.data.id} rest={query.data} renderInvites={renderInvites} renderTeamChat={renderTeamChat} />;
}

function AboutCard({ doc }: { doc: RosterDocument }) {
  return (
    <Card data-testid="roster-about">
      <CardHeader title="About" />
      {doc.description && <p className="prose roster-about__desc">{doc.description}</p>}
      <dl className="facts">
        <div>
          <dt>Team</dt>
          <dd>
            <Link to={`/teams/${doc.teamId}`}>{doc.teamName}</Link>
          </dd>
        </div>
        <div>
          <dt>Season</dt>
          <dd>
            <Link to={`/seasons/${doc.seasonId}`}>{doc.seasonName}</Link>
            {doc.seasonIsActive && <span className="muted"> · active</span>}
          </dd>
        </div>
        <div>
          <dt>Rink</dt>
          <dd>
            <Link to={`/facilities/${doc.facilityId}`}>{doc.facilityName}</Link>
          </dd>
        </div>
        <div>
          <dt>Division</dt>
          <dd>{doc.division ? `${doc.division.facilityDivisionName} (level ${doc.division.level})` : <span className="muted">None</span>}</dd>
        </div>
        <div>
          <dt>Limit</dt>
          <dd>{doc.maxMembers === null ? <span className="muted">No limit</span> : `${doc.maxMembers} players`}</dd>
        </div>
      </dl>
    </Card>
  );
}

function RosterView({ rest, renderInvites, renderTeamChat }: { rest: Roster; renderInvites?: RenderRosterInvites; renderTeamChat?: RenderTeamChat }) {
  const me = useCurrentUser();
  const { doc, isLive } = useLiveRoster(rest);
  const viewer = rest.viewer;
  const archived = doc.status === 'ARCHIVED';
  const standing = standingOf(doc, me.id);
  // The board is the roster's players' and the team's staff's (docs/availability.md › The board).
  const isStaff = viewer.canManagePlayers;
  const seesAvailability = !archived && (standing.kind === 'member' || isStaff);
  // The chat's members (docs/chat.md): the roster's players, the team's owner and managers. An archived roster's chat stays readable.
  const inChat = standing.kind === 'member' || isStaff;

  return (
    <div className="stack-lg roster-page" data-testid="roster-page">
      <RosterHero doc={doc} viewer={viewer} isLive={isLive} />
      {archived && (
        <div data-testid="archived-banner">
          <Alert tone="info" title="This roster is archived">
            Its season is over: players and stats stay as they were, and nothing can change.
          </Alert>
        </div>
      )}
      <OrgLayout
        main={
          <>
            <JoinPanel doc={doc} standing={standing} myId={me.id} addsDirectly={viewer.canManagePlayers} />
            {viewer.canDecideRequests && !archived && <RequestsQueue doc={doc} />}
            {/* Invites are for those who decide requests: the server's own rule for making them (docs/invites.md). */}
            {viewer.canDecideRequests && !archived && renderInvites?.({ rosterId: doc.id, name: doc.name, version: doc.seq })}
            {inChat && renderTeamChat?.(doc.id)}
            {seesAvailability && <AvailabilityCard rosterId={doc.id} teamId={doc.teamId} myId={me.id} isStaff={isStaff} />}
            <PlayersCard doc={doc} viewer={viewer} myId={me.id} />
          </>
        }
        side={
          <>
            {isStaff && !archived && <AvailabilityRulesCard rosterId={doc.id} />}
            {viewer.canEdit && <StatusCard doc={doc} />}
            <AboutCard doc={doc} />
          </>
        }
      />
    </div>
  );
}
