// The organiser's panel: limits (a raised limit promotes from the waitlist
// at once, and everyone's list moves live), HOME/AWAY team links, payment
// collection, cancel and delete. A team link needs the team's staff too, so
// the picker offers only the teams the organiser owns or manages.

import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage, type FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { RinkEvent, Team, TeamRole } from '../../../lib/api-types';
import type { AttendeeCounts } from '../model/types';
import { overLimitNotes } from '../model/standing';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Combobox } from '../../../components/ui/combobox';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { SelectField, TextField } from '../../../components/ui/field';
import { CANCEL_REASON_MAX_CHARS, useCancelEvent, useDeleteEvent, useLinkTeam, useUnlinkTeam, useUpdateEvent, type SeriesScope } from '../api/events';
import { ScopeChoice } from './scope-choice';
import { useMyTeams } from '../../../lib/me';

/** '' → null (unlimited); otherwise a whole number ≥ 0, or an error message. */
export function parseLimit(raw: string): { value: number | null } | { error: string } {
  const t = raw.trim();
  if (t === '') return { value: null };
  if (!/^\d+$/.test(t)) return { error: 'A whole number, or empty for no limit.' };
  const n = Number(t);
  if (n > 500) return { error: 'At most 500.' };
  return { value: n };
}

function LimitsForm({ event, counts }: { event: RinkEvent; counts: AttendeeCounts | null }) {
  const update = useUpdateEvent(event.id);
  // Limits below the people already in wait for the organiser to confirm.
  const [confirming, setConfirming] = useState<string[] | null>(null);
  // A series event's new limits wait for "this one" or "this and all following".
  const [askScope, setAskScope] = useState(false);
  const [skaters, setSkaters] = useState(event.maxSkaters === null ? '' : String(event.maxSkaters));
  const [goalies, setGoalies] = useState(event.maxGoalies === null ? '' : String(event.maxGoalies));
  const { errors, formError, check, run } = useFormErrors();
  const [saved, setSaved] = useState(false);

  // Someone else changed the limits: show theirs unless we are editing.
  const server = `${event.maxSkaters ?? ''}/${event.maxGoalies ?? ''}`;
  const [shownServer, setShownServer] = useState(server);
  if (shownServer !== server) {
    setShownServer(server);
    setSkaters(event.maxSkaters === null ? '' : String(event.maxSkaters));
    setGoalies(event.maxGoalies === null ? '' : String(event.maxGoalies));
  }

  const s = parseLimit(skaters);
  const g = parseLimit(goalies);
  const dirty = ('value' in s ? s.value : NaN) !== event.maxSkaters || ('value' in g ? g.value : NaN) !== event.maxGoalies;

  async function submit(e: FormEvent | null, confirmed = false, scope?: SeriesScope) {
    e?.preventDefault();
    const local: FieldErrors = {};
    if ('error' in s) local.maxSkaters = s.error;
    if ('error' in g) local.maxGoalies = g.error;
    setSaved(false);
    if (!check(local) || !('value' in s) || !('value' in g)) return;
    const notes = counts ? overLimitNotes({ skaters: counts.skaters, goalies: counts.goalies, maxSkaters: s.value, maxGoalies: g.value }) : [];
    if (notes.length && !confirmed) {
      setConfirming(notes);
      return;
    }
    setConfirming(null);
    if (event.seriesId && !scope) {
      setAskScope(true);
      return;
    }
    const patch: { maxSkaters?: number | null; maxGoalies?: number | null } = {};
    if (s.value !== event.maxSkaters) patch.maxSkaters = s.value;
    if (g.value !== event.maxGoalies) patch.maxGoalies = g.value;
    const ok = await run(() => update.mutateAsync({ patch, scope }));
    setAskScope(false);
    if (ok) setSaved(true);
  }

  return (
    <form className="stack" onSubmit={submit} noValidate data-testid="limits-form">
      {formError && <Alert>{formError}</Alert>}
      <div className="form-grid form-grid--pair">
        <TextField label="Max skaters" inputMode="numeric" placeholder="No limit" value={skaters} onChange={(e) => { setSkaters(e.target.value); setSaved(false); }} error={errors.maxSkaters} data-testid="limit-skaters" />
        <TextField label="Max goalies" inputMode="numeric" placeholder="No limit" value={goalies} onChange={(e) => { setGoalies(e.target.value); setSaved(false); }} error={errors.maxGoalies} data-testid="limit-goalies" />
      </div>
      {confirming ? (
        <div className="limit-confirm" role="alertdialog" aria-labelledby="limit-confirm-q" data-testid="limit-confirm">
          <p id="limit-confirm-q">
            <strong>Fewer places than people already in.</strong>
          </p>
          {confirming.map((n) => (
            <p key={n}>{n}</p>
          ))}
          <div className="tool-row">
            <Button type="button" size="sm" variant="ghost" onClick={() => setConfirming(null)} data-testid="limit-confirm-no">
              Keep the limits
            </Button>
            <Button type="button" size="sm" loading={update.isPending} onClick={() => void submit(null, true)} data-testid="limit-confirm-yes">
              Lower them anyway
            </Button>
          </div>
        </div>
      ) : askScope ? (
        <ScopeChoice
          onChoose={(scope) => void submit(null, true, scope)}
          onDismiss={() => setAskScope(false)}
          pending={update.isPending ? (update.variables?.scope ?? 'this') : null}
        />
      ) : (
      <div className="tool-row">
        <p className="field__hint">Raising a limit moves people off the waitlist right away, in order. Lowering one removes nobody.</p>
        {saved && !dirty ? (
          <span className="saved-note" role="status">
            Saved
          </span>
        ) : (
          <Button type="submit" size="sm" loading={update.isPending} disabled={!dirty} data-testid="save-limits">
            Save limits
          </Button>
        )}
      </div>
      )}
    </form>
  );
}

/** My teams whose name contains the typed text (any case), in the server's order (by name). */
export function matchTeams(teams: readonly Team[], query: string): Team[] {
  const q = query.trim().toLocaleLowerCase();
  return q ? teams.filter((t) => t.name.toLocaleLowerCase().includes(q)) : [...teams];
}

function TeamLinks({ event }: { event: RinkEvent }) {
  const link = useLinkTeam(event.id);
  const unlink = useUnlinkTeam(event.id);
  const mine = useMyTeams();
  const [teamId, setTeamId] = useState('');
  const [teamName, setTeamName] = useState('');
  const [role, setRole] = useState<TeamRole>(event.teams.some((t) => t.role === 'HOME') ? 'AWAY' : 'HOME');
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const myTeams = mine.data?.items ?? [];

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!teamId) {
      setError('Pick a team first.');
      return;
    }
    setError(null);
    try {
      await link.mutateAsync({ teamId, role });
      setTeamId('');
      setTeamName('');
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <div className="stack">
      {event.teams.length > 0 && (
        <ul className="team-links">
          {event.teams.map((t) => (
            <li key={t.teamId} className="team-links__row">
              <span className={`role-chip role-chip--${t.role.toLowerCase()}`}>{t.role === 'HOME' ? 'Home' : 'Away'}</span>
              <Link to={`/teams/${t.teamId}`} className="team-links__name">
                {t.teamName}
              </Link>
              <Button size="sm" variant="ghost" loading={unlink.isPending && unlink.variables === t.teamId} onClick={() => unlink.mutate(t.teamId)} aria-label={`Unlink ${t.teamName}`}>
                Unlink
              </Button>
            </li>
          ))}
        </ul>
      )}
      {error && <Alert>{error}</Alert>}
      {unlink.error && <Alert>{errorMessage(unlink.error)}</Alert>}
      {mine.isError ? (
        <Alert action={<Button variant="secondary" size="sm" onClick={() => void mine.refetch()}>Try again</Button>}>{errorMessage(mine.error)}</Alert>
      ) : mine.isSuccess && myTeams.length === 0 ? (
        <p className="muted small" data-testid="no-teams-to-link">
          You can link teams you own or manage, and you don't run one. To name another team, put it in as home or away when you{' '}
          <Link to={`/events/${event.id}/edit`}>edit the event</Link>.
        </p>
      ) : (
        <form className="team-link-form" onSubmit={submit} noValidate>
          <Combobox
            label="Team"
            value={teamId}
            valueLabel={teamName}
            onChange={(id) => {
              setTeamId(id);
              setTeamName(myTeams.find((t) => t.id === id)?.name ?? '');
            }}
            options={matchTeams(myTeams, query).map((t) => ({ value: t.id, label: t.name }))}
            onQueryChange={setQuery}
            loading={mine.isPending}
            emptyText={query.trim() ? 'None of your teams matches' : 'You can link teams you own or manage'}
            placeholder="Your teams"
            data-testid="link-team"
          />
          <SelectField label="As" value={role} onChange={(e) => setRole(e.target.value as TeamRole)} data-testid="link-role">
            <option value="HOME">Home</option>
            <option value="AWAY">Away</option>
          </SelectField>
          <Button type="submit" variant="secondary" loading={link.isPending} data-testid="link-team-submit">
            Link
          </Button>
        </form>
      )}
      {mine.isSuccess && myTeams.length > 0 && <p className="field__hint">Only teams you own or manage. Name any other team as home or away when you edit the event.</p>}
    </div>
  );
}

export function OrganiserTools({ event, cancelled, counts = null }: { event: RinkEvent; cancelled: boolean; counts?: AttendeeCounts | null }) {
  const navigate = useNavigate();
  const cancel = useCancelEvent(event.id);
  const remove = useDeleteEvent(event.id);
  const collects = Boolean(event.viewer?.canCollectPayments);
  const inSeries = Boolean(event.seriesId);
  const cancelling = (scope: SeriesScope) => cancel.isPending && (cancel.variables?.scope ?? 'this') === scope;
  const [reason, setReason] = useState('');
  const reasonTooLong = Array.from(reason.trim()).length > CANCEL_REASON_MAX_CHARS;
  const cancelAs = (scope: SeriesScope) => {
    if (!reasonTooLong) cancel.mutate({ scope, reason });
  };

  return (
    <Card className="event-block event-block--tools" data-testid="organiser-tools">
      <CardHeader title="Organiser tools" subtitle="Only organisers see this." />
      {!cancelled && (
        <section className="tool-section">
          <h3 className="tool-section__title">Spots</h3>
          <LimitsForm event={event} counts={counts} />
        </section>
      )}
      <section className="tool-section">
        <h3 className="tool-section__title">Teams</h3>
        <TeamLinks event={event} />
      </section>
      <section className="tool-section">
        <h3 className="tool-section__title">Payments</h3>
        {collects ? (
          <p className="muted small">Tap Paid / Unpaid beside each person in the list. For a pickup or a practice, the Ice bill card splits the cost and bills the players.</p>
        ) : (
          <p className="muted small">
            A rink's staff turn on payment collection for the organisers they trust; then you can split the ice and mark who paid here. See{' '}
            <Link to="/settings/profile#payments">your payment settings</Link>.
          </p>
        )}
      </section>
      <section className="tool-section tool-section--danger">
        <h3 className="tool-section__title">Danger zone</h3>
        {(cancel.error || remove.error) && <Alert>{errorMessage(cancel.error ?? remove.error)}</Alert>}
        {!cancelled && (
          <TextField
            label="Reason for cancelling"
            optional
            hint="Shown on the event and told to everyone who answered."
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            limit={CANCEL_REASON_MAX_CHARS}
            error={reasonTooLong ? `${Array.from(reason.trim()).length} characters; at most ${CANCEL_REASON_MAX_CHARS}.` : null}
            placeholder="Not enough goalies"
            data-testid="cancel-reason"
          />
        )}
        <div className="tool-row tool-row--wrap">
          {!cancelled && !inSeries && (
            <ConfirmButton size="sm" confirmLabel="Tap again to cancel it" loading={cancel.isPending} onConfirm={() => cancelAs('this')} data-testid="cancel-event">
              Cancel event
            </ConfirmButton>
          )}
          {!cancelled && inSeries && (
            <>
              <ConfirmButton size="sm" confirmLabel="Tap again to cancel this week" loading={cancelling('this')} disabled={cancel.isPending} onConfirm={() => cancelAs('this')} data-testid="cancel-event">
                Cancel this one
              </ConfirmButton>
              <ConfirmButton size="sm" confirmLabel="Tap again to cancel the rest" loading={cancelling('following')} disabled={cancel.isPending} onConfirm={() => cancelAs('following')} data-testid="cancel-following">
                Cancel this and all following
              </ConfirmButton>
            </>
          )}
          <ConfirmButton
            size="sm"
            variant="ghost"
            confirmLabel="Tap again to delete for good"
            loading={remove.isPending}
            onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/events', { replace: true }) })}
            data-testid="delete-event"
          >
            Delete event
          </ConfirmButton>
        </div>
        <p className="field__hint">
          {cancelled
            ? 'Deleting erases the event and everyone\'s answers.'
            : inSeries
              ? 'Cancelling keeps the event and tells everyone; earlier weeks never change. Deleting erases this week and its answers, and keeps the other weeks.'
              : 'Cancelling keeps the event and tells everyone. Deleting erases it and every answer.'}
        </p>
      </section>
    </Card>
  );
}
