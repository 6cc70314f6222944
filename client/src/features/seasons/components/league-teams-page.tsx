// /seasons/:id/teams — the teams of the league's schedule and the Rinkside
// teams they are. A matched team's games become events on its schedule,
// where its players RSVP. The facility's staff match and unmatch (one tap
// on a suggestion, or any team picked by name) and decide the claims teams
// sent; a team's owner or manager says "this is my team" and waits for
// them. Everyone else sees who is who.

import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { RosterSummary, SeasonDetail, Team } from '../../../lib/api-types';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { relativeTime } from '../../../lib/event-format';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField } from '../../../components/ui/field';
import { CheckIcon, TeamIcon } from '../../../components/ui/icons';
import { ListSkeleton } from '../../../components/ui/list-row';
import { PageHeader } from '../../../components/ui/page-header';
import { PageSpinner } from '../../../components/ui/spinner';
import { useSeasonRosters } from '../api/seasons';
import { useSeasonQuery } from '../../../lib/games';
import { useClaimRoster, useDropClaim, useExternalRosters, useMatchRoster } from '../api/sync';
import { groupRosters, openClaim, possessive, type ExternalRoster } from '../model/sync';
import { TeamPicker, type PickedTeam } from './team-picker';
import '../seasons.css';
import { useMyTeams } from '../../../lib/me';

export function LeagueTeamsPage() {
  const { id = '' } = useParams();
  const season = useSeasonQuery(id);
  if (season.isPending) return <PageSpinner label="Loading season" />;
  if (season.isError) {
    const notFound = season.error instanceof ApiError && season.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<TeamIcon size={28} />}
          title={notFound ? 'No such season' : 'Could not load this season'}
          action={notFound ? <ButtonLink to="/facilities">Find a rink</ButtonLink> : <Button variant="secondary" onClick={() => void season.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been deleted with its facility.' : errorMessage(season.error)}
        </EmptyState>
      </Card>
    );
  }
  return <LeagueTeams season={season.data} />;
}

/** What one row is doing, so its buttons say so and its error shows beside it. */
type RowError = { rosterId: string; message: string } | null;

function LeagueTeams({ season }: { season: SeasonDetail }) {
  const staff = season.viewerCanEdit;
  const me = useCurrentUser();
  const rosters = useExternalRosters(season.id);
  const seasonRosters = useSeasonRosters(season.id);
  const myTeams = useMyTeams(!staff);
  const match = useMatchRoster(season.id);
  const claim = useClaimRoster(season.id);
  const drop = useDropClaim(season.id);
  const [rowError, setRowError] = useState<RowError>(null);

  const all = rosters.data ?? [];
  const groups = groupRosters(all);
  const matchedTo = new Map(all.filter((r) => r.teamId).map((r) => [r.teamId as string, r.name]));
  const ctx: RowContext = {
    staff,
    meId: me.id,
    myTeams: myTeams.data?.items ?? [],
    seasonRosters: seasonRosters.data?.pages.flatMap((p) => p.items) ?? [],
    matchedTo,
    error: rowError,
    busy: (id) =>
      (match.isPending && match.variables?.rosterId === id) || (claim.isPending && claim.variables?.rosterId === id) || (drop.isPending && drop.variables === id),
    match: (rosterId, teamId) => {
      setRowError(null);
      match.mutate({ rosterId, teamId }, { onError: (err) => setRowError({ rosterId, message: errorMessage(err) }) });
    },
    claim: (rosterId, teamId) => {
      setRowError(null);
      claim.mutate(
        { rosterId, teamId },
        {
          onError: (err) =>
            setRowError({ rosterId, message: err instanceof ApiError && err.code === 'already_matched' ? 'The rink’s staff matched this team meanwhile.' : errorMessage(err) }),
        },
      );
    },
    drop: (rosterId) => {
      setRowError(null);
      drop.mutate(rosterId, { onError: (err) => setRowError({ rosterId, message: errorMessage(err) }) });
    },
  };

  return (
    <div className="stack-lg league-teams" data-testid="league-teams-page">
      <PageHeader
        eyebrow={
          <>
            <Link to={`/seasons/${season.id}`}>{season.name}</Link> · {season.facilityName}
          </>
        }
        title="League teams"
        subtitle="The teams in the league’s schedule and the Rinkside teams they are. A matched team gets its games as events, where its players RSVP."
      />

      {rosters.isPending ? (
        <Card padded={false}>
          <ListSkeleton rows={4} />
        </Card>
      ) : rosters.isError ? (
        <Alert action={<button type="button" className="link-btn" onClick={() => void rosters.refetch()}>Retry</button>}>{errorMessage(rosters.error)}</Alert>
      ) : all.length === 0 ? (
        <Card>
          <EmptyState icon={<TeamIcon size={28} />} title="No league teams yet" action={<ButtonLink to={`/seasons/${season.id}`}>Back to {season.name}</ButtonLink>}>
            {staff ? 'They appear here after the first sync of the league’s schedule.' : 'They appear here once the rink syncs the league’s schedule.'}
          </EmptyState>
        </Card>
      ) : (
        <>
          {staff && groups.claims.length > 0 && (
            <Card padded={false} data-testid="claim-queue">
              <div className="card__pad card__pad--header">
                <CardHeader title={`Claims to review (${groups.claims.length})`} subtitle="Teams that say a league team is them. Confirm to match it." />
              </div>
              <ul className="xteams">
                {groups.claims.map((r) => (
                  <ClaimRow key={r.id} roster={r} ctx={ctx} />
                ))}
              </ul>
            </Card>
          )}

          <Card padded={false} data-testid="unmatched-teams">
            <div className="card__pad card__pad--header">
              <CardHeader
                title={`Not matched (${groups.unmatched.length})`}
                subtitle={staff ? 'Their games have no event until one of their teams is matched.' : 'Run one of these teams? Say so, and the rink’s staff confirm it.'}
              />
            </div>
            {groups.unmatched.length === 0 ? (
              <p className="muted card__pad">
                <CheckIcon size={14} /> Every team of the league is matched.
              </p>
            ) : (
              <ul className="xteams">
                {groups.unmatched.map((r) => (
                  <UnmatchedRow key={r.id} roster={r} ctx={ctx} />
                ))}
              </ul>
            )}
          </Card>

          <Card padded={false} data-testid="matched-teams">
            <div className="card__pad card__pad--header">
              <CardHeader title={`Matched (${groups.matched.length})`} />
            </div>
            {groups.matched.length === 0 ? (
              <p className="muted card__pad">None yet.</p>
            ) : (
              <ul className="xteams">
                {groups.matched.map((r) => (
                  <MatchedRow key={r.id} roster={r} ctx={ctx} />
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </div>
  );
}

interface RowContext {
  staff: boolean;
  meId: string;
  myTeams: Team[];
  seasonRosters: RosterSummary[];
  matchedTo: ReadonlyMap<string, string>;
  error: RowError;
  busy: (rosterId: string) => boolean;
  match: (rosterId: string, teamId: string | null) => void;
  claim: (rosterId: string, teamId: string) => void;
  drop: (rosterId: string) => void;
}

function RosterName({ roster }: { roster: ExternalRoster }) {
  return (
    <span className="xteam__title">
      <span className="xteam__name">{roster.name}</span>
      {roster.originalDivision && <span className="xteam__division">{roster.originalDivision}</span>}
    </span>
  );
}

function RowErrorLine({ roster, ctx }: { roster: ExternalRoster; ctx: RowContext }) {
  if (ctx.error?.rosterId !== roster.id) return null;
  return (
    <p className="field__error" role="alert">
      {ctx.error.message}
    </p>
  );
}

function ClaimRow({ roster, ctx }: { roster: ExternalRoster; ctx: RowContext }) {
  const c = openClaim(roster);
  if (!c) return null;
  const busy = ctx.busy(roster.id);
  return (
    <li className="xteam xteam--claim" data-testid={`claim-${roster.id}`}>
      <div className="xteam__main">
        <RosterName roster={roster} />
        <p className="xteam__claim">
          <Link to={`/teams/${c.teamId}`}>{possessive(c.teamName)}</Link> staff say this is their team
          <span className="muted"> · {relativeTime(c.claimedAt)}</span>
          {roster.isMatched && roster.teamName && <span className="muted"> · now matched to {roster.teamName}</span>}
        </p>
        <RowErrorLine roster={roster} ctx={ctx} />
      </div>
      <div className="xteam__actions">
        <Button size="sm" onClick={() => ctx.match(roster.id, c.teamId)} loading={busy} data-testid="confirm-claim">
          Confirm
        </Button>
        <Button size="sm" variant="ghost" onClick={() => ctx.drop(roster.id)} disabled={busy} data-testid="decline-claim">
          Decline
        </Button>
      </div>
    </li>
  );
}

function UnmatchedRow({ roster, ctx }: { roster: ExternalRoster; ctx: RowContext }) {
  return (
    <li className="xteam" data-testid={`external-roster-${roster.id}`} data-name={roster.name}>
      <div className="xteam__main">
        <RosterName roster={roster} />
        {ctx.staff ? <StaffMatchTools roster={roster} ctx={ctx} /> : <ClaimTools roster={roster} ctx={ctx} />}
        <RowErrorLine roster={roster} ctx={ctx} />
      </div>
    </li>
  );
}

function StaffMatchTools({ roster, ctx }: { roster: ExternalRoster; ctx: RowContext }) {
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<PickedTeam | null>(null);
  const busy = ctx.busy(roster.id);
  const claim = roster.claim;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (picked) ctx.match(roster.id, picked.id);
  }

  return (
    <>
      {claim && (
        <p className="xteam__claim muted">
          {possessive(claim.teamName)} staff claimed it — see the claims above.
        </p>
      )}
      {roster.suggestions.length > 0 && (
        <div className="xteam__suggestions">
          <span className="muted small">Could be</span>
          {roster.suggestions.map((s) => (
            <span key={s.teamId} className="xteam__suggestion" data-testid={`suggestion-${s.teamId}`}>
              <Link to={`/teams/${s.teamId}`}>{s.teamName}</Link>
              <Button size="sm" variant="secondary" onClick={() => ctx.match(roster.id, s.teamId)} loading={busy} aria-label={`Match ${roster.name} to ${s.teamName}`} data-testid="match-suggestion">
                Match
              </Button>
            </span>
          ))}
        </div>
      )}
      {picking ? (
        <form className="xteam__picker" onSubmit={submit} data-testid="match-form">
          <TeamPicker label={`Which team is ${roster.name}?`} seasonRosters={ctx.seasonRosters} value={picked} onChange={setPicked} matchedTo={ctx.matchedTo} data-testid="team-picker" />
          <div className="xteam__picker-actions">
            <Button type="button" size="sm" variant="ghost" onClick={() => setPicking(false)}>
              Cancel
            </Button>
            <Button type="submit" size="sm" disabled={!picked} loading={busy} data-testid="match-picked">
              Match
            </Button>
          </div>
        </form>
      ) : (
        <div className="xteam__actions xteam__actions--inline">
          <Button size="sm" variant={roster.suggestions.length ? 'ghost' : 'secondary'} onClick={() => setPicking(true)} data-testid="pick-team">
            {roster.suggestions.length ? 'Another team…' : 'Match to a team…'}
          </Button>
        </div>
      )}
    </>
  );
}

function ClaimTools({ roster, ctx }: { roster: ExternalRoster; ctx: RowContext }) {
  const [choosing, setChoosing] = useState(false);
  const [teamId, setTeamId] = useState('');
  const busy = ctx.busy(roster.id);
  const claim = roster.claim;
  // Once sent, the form's work is done: a withdrawn claim starts over from the button.
  if (claim && choosing) setChoosing(false);

  if (claim) {
    const mine = claim.claimedBy === ctx.meId;
    return (
      <div className="xteam__pending" data-testid="claim-pending">
        <p className="xteam__claim">
          {mine ? (
            <>
              You said this is <Link to={`/teams/${claim.teamId}`}>{claim.teamName}</Link>. Waiting for the rink’s staff to confirm.
            </>
          ) : (
            <>
              <Link to={`/teams/${claim.teamId}`}>{claim.teamName}</Link> said this is them. Waiting for the rink’s staff.
            </>
          )}
        </p>
        {mine && (
          <Button size="sm" variant="ghost" onClick={() => ctx.drop(roster.id)} loading={busy} data-testid="withdraw-claim">
            Withdraw
          </Button>
        )}
      </div>
    );
  }
  if (ctx.myTeams.length === 0) return null;

  const chosen = ctx.myTeams.length === 1 ? ctx.myTeams[0]?.id : teamId;
  if (!choosing) {
    return (
      <div className="xteam__actions xteam__actions--inline">
        <Button size="sm" variant="secondary" onClick={() => setChoosing(true)} data-testid="claim-team">
          This is my team
        </Button>
      </div>
    );
  }
  return (
    <form
      className="xteam__picker"
      data-testid="claim-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) ctx.claim(roster.id, chosen);
      }}
    >
      {ctx.myTeams.length === 1 ? (
        <p className="small">
          Tell the rink’s staff that {roster.name} is <strong>{ctx.myTeams[0]?.name}</strong>?
        </p>
      ) : (
        <SelectField label={`Which of your teams is ${roster.name}?`} value={teamId} onChange={(e) => setTeamId(e.target.value)} data-testid="claim-team-select">
          <option value="">Pick your team</option>
          {ctx.myTeams.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
      )}
      <div className="xteam__picker-actions">
        <Button type="button" size="sm" variant="ghost" onClick={() => setChoosing(false)}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!chosen} loading={busy} data-testid="send-claim">
          Send
        </Button>
      </div>
    </form>
  );
}

function MatchedRow({ roster, ctx }: { roster: ExternalRoster; ctx: RowContext }) {
  const busy = ctx.busy(roster.id);
  return (
    <li className="xteam xteam--matched" data-testid={`external-roster-${roster.id}`} data-name={roster.name}>
      <div className="xteam__main">
        <RosterName roster={roster} />
        <p className="xteam__match">
          <span aria-hidden="true">→ </span>
          {roster.teamId ? (
            <Link to={`/teams/${roster.teamId}`} data-testid="matched-team">
              {roster.teamName ?? 'a team'}
            </Link>
          ) : (
            (roster.teamName ?? 'a team')
          )}
          {roster.matchSource && <span className={`xteam__source xteam__source--${roster.matchSource.toLowerCase()}`}>{roster.matchSource === 'AUTO' ? 'by name' : 'by hand'}</span>}
        </p>
        <RowErrorLine roster={roster} ctx={ctx} />
      </div>
      {ctx.staff && (
        <div className="xteam__actions">
          <ConfirmButton size="sm" variant="ghost" confirmLabel="Unmatch?" loading={busy} onConfirm={() => ctx.match(roster.id, null)} aria-label={`Unmatch ${roster.name}`} data-testid="unmatch">
            Unmatch
          </ConfirmButton>
        </div>
      )}
    </li>
  );
}
