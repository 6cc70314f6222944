// /events/new and /events/:id/edit — every field of an event. Server
// validation messages land beside their fields.

import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import { EVENT_TYPES, type EventType, type RinkEvent } from '../../../lib/api-types';
import { deviceZone, zoneName } from '../../../lib/time-zone';
import { EVENT_TYPE_LABELS } from '../../../lib/event-format';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ChoiceGroup } from '../../../components/ui/choice-group';
import { FacilityPicker } from '../../../components/ui/facility-picker';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { CalendarIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { PageSpinner } from '../../../components/ui/spinner';
import { useCreateEvent, useEvent, useUpdateEvent, type SeriesScope } from '../api/events';
import { useFacilitySeasonOptions } from '../../../lib/facilities';
import {
  createInput,
  draftFromEvent,
  effectiveUntil,
  emptyDraft,
  NON_REPEATING_TYPES,
  pastStartWarning,
  repeatsWeekly,
  patchInput,
  suggestedEnd,
  TITLE_MAX_CHARS,
  titleLength,
  titleProblem,
  validateDraft,
  type EventDraft,
} from '../model/event-draft';
import { localDay, seriesPreview } from '../model/series';
import { GroupConfigEditor } from './group-config-editor';
import { ScopeChoice } from './scope-choice';
import '../events.css';
import '../event-form.css';

const GAME_TYPES: EventType[] = ['GAME', 'EXTERNAL_GAME'];

/**
 * Where the server's messages go: beside the fields the form shows (the
 * server names the whole `repeat` object, or its `until`, where the form
 * has one field); any other above the form.
 */
const PLACEMENT = {
  fields: [
    'title', 'description', 'location', 'startDate', 'endDate', 'imageUrl', 'facilityId', 'seasonId', 'externalHomeTeamName',
    'externalAwayTeamName', 'externalRink', 'homeScore', 'awayScore', 'eventType', 'maxSkaters', 'maxGoalies', 'groupConfig',
    'repeatUntil',
  ],
  rename: (field: string) => (field === 'repeat' || field.startsWith('repeat.') ? 'repeatUntil' : field),
};

/** How many events the save button makes: the series' count when it is one the server takes, else 1. */
function repeatsWeeklyCount(d: EventDraft): number {
  if (!repeatsWeekly(d)) return 1;
  const p = seriesPreview(d.startDate, effectiveUntil(d));
  return p.tooMany ? 1 : Math.max(p.count, 1);
}

/** "Does not repeat" / "Every week" with its end and a live count, for new events that may repeat. */
function RepeatField({ draft, error, onChange }: { draft: EventDraft; error?: string; onChange: (patch: Partial<EventDraft>) => void }) {
  const weekly = draft.repeat === 'WEEKLY';
  const preview = weekly ? seriesPreview(draft.startDate, effectiveUntil(draft)) : null;
  return (
    <div className="field repeat-field" data-testid="repeat-field">
      <span className="field__label" id="event-repeat-label">
        Repeats
      </span>
      <ChoiceGroup
        aria-labelledby="event-repeat-label"
        options={(['NONE', 'WEEKLY'] as const).map((r) => ({ value: r, content: r === 'NONE' ? 'Does not repeat' : 'Every week', 'data-testid': `repeat-${r}` }))}
        value={draft.repeat}
        onChange={(repeat) => onChange({ repeat })}
        className="type-chips"
        optionClassName="toggle-chip"
        checkedClassName="toggle-chip--on"
      />
      {weekly && (
        <div className="repeat-field__until">
          <TextField
            label="Until"
            type="date"
            value={effectiveUntil(draft)}
            min={localDay(draft.startDate) || undefined}
            onChange={(e) => onChange({ repeatUntil: e.target.value })}
            error={error}
            hint="The last day it may fall on, included."
            data-testid="repeat-until"
          />
          <p className={`repeat-field__preview${preview?.tooMany ? ' repeat-field__preview--over' : ''}`} aria-live="polite" data-testid="series-preview">
            {preview?.text}
          </p>
        </div>
      )}
    </div>
  );
}

export function CreateEventPage() {
  const [params] = useSearchParams();
  return <EventForm mode="create" initial={emptyDraft(params.get('facilityId') ?? '')} />;
}

export function EditEventPage() {
  const { id = '' } = useParams();
  const query = useEvent(id);
  if (query.isPending) return <PageSpinner label="Loading event" />;
  if (query.isError) {
    return (
      <Card>
        <EmptyState icon={<CalendarIcon size={28} />} title="Could not load this event" action={<ButtonLink to="/events">All events</ButtonLink>}>
          {errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  const event = query.data;
  if (!event.viewer?.isOrganiser || event.cancelledAt) {
    return (
      <Card>
        <EmptyState icon={<CalendarIcon size={28} />} title={event.cancelledAt ? 'A cancelled event can’t be edited' : 'Only organisers can edit this event'} action={<ButtonLink to={`/events/${event.id}`}>Back to the event</ButtonLink>}>
          {event.cancelledAt ? 'Create a new one instead.' : 'Ask the organiser if something needs changing.'}
        </EmptyState>
      </Card>
    );
  }
  return <EventForm key={event.id} mode="edit" event={event} initial={draftFromEvent(event)} />;
}

function Section({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} subtitle={subtitle} />
      {children}
    </Card>
  );
}

function EventForm({ mode, initial, event }: { mode: 'create' | 'edit'; initial: EventDraft; event?: RinkEvent }) {
  const navigate = useNavigate();
  const create = useCreateEvent();
  const update = useUpdateEvent(event?.id ?? '');
  const [draft, setDraft] = useState<EventDraft>(initial);
  const { errors, formError, check, run, clear } = useFormErrors(PLACEMENT);
  const [endTouched, setEndTouched] = useState(Boolean(initial.endDate));
  // A start in the past waits for the organiser to say yes.
  const [pastWarning, setPastWarning] = useState<string | null>(null);
  // An edit of a series event waits for "this one" or "this and all following".
  const [askScope, setAskScope] = useState(false);
  const [showGame, setShowGame] = useState(
    GAME_TYPES.includes(initial.eventType) || Boolean(initial.externalHomeTeamName || initial.externalAwayTeamName || initial.externalRink || initial.homeScore || initial.awayScore),
  );
  const seasons = useFacilitySeasonOptions(draft.facilityId || null);
  const pending = create.isPending || update.isPending;

  function set<K extends keyof EventDraft>(key: K, value: EventDraft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    clear(key);
  }

  async function submit(e: FormEvent | null, confirmedPast = false, scope?: SeriesScope) {
    e?.preventDefault();
    if (!check(validateDraft(draft, Date.now(), event?.startDate))) {
      document.querySelector('[aria-invalid="true"], .groups-editor--invalid')?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      return;
    }
    const warning = pastStartWarning(draft, event);
    if (warning && !confirmedPast) {
      setPastWarning(warning);
      return;
    }
    setPastWarning(null);
    const ok = await run(async () => {
      if (mode === 'create') {
        const created = await create.mutateAsync(createInput(draft));
        navigate(`/events/${created.id}`, { replace: true });
      } else if (event) {
        const patch = patchInput(event, draft);
        if (Object.keys(patch).length > 0) {
          if (event.seriesId && !scope) {
            setAskScope(true);
            return;
          }
          await update.mutateAsync({ patch, scope });
        }
        navigate(`/events/${event.id}`, { replace: true });
      }
    });
    if (!ok) setAskScope(false);
  }

  const seasonList = seasons.data?.items ?? [];

  return (
    <div className="stack-lg narrow">
      <PageHeader
        eyebrow="Events"
        title={mode === 'create' ? 'New event' : 'Edit event'}
        subtitle={mode === 'create' ? "You'll be the organiser: you can set limits, mark payments and manage the list." : event?.title}
      />
      <form className="stack-lg" onSubmit={submit} noValidate data-testid="event-form">
        {formError && <Alert>{formError}</Alert>}
        <Section title="The basics">
          <div className="field">
            <span className="field__label" id="event-type-label">
              Type
            </span>
            <ChoiceGroup
              aria-labelledby="event-type-label"
              options={EVENT_TYPES.map((t) => ({ value: t, content: EVENT_TYPE_LABELS[t], 'data-testid': `type-${t}` }))}
              value={draft.eventType}
              onChange={(t) => {
                set('eventType', t);
                if (GAME_TYPES.includes(t)) setShowGame(true);
                clear('repeatUntil');
              }}
              className="type-chips"
              optionClassName="toggle-chip"
              checkedClassName="toggle-chip--on"
              data-testid="event-type"
            />
            {errors.eventType && <p className="field__error" role="alert">{errors.eventType}</p>}
          </div>
          <TextField label="Title" value={draft.title} onChange={(e) => set('title', e.target.value)} error={errors.title ?? (titleLength(draft.title) > TITLE_MAX_CHARS ? titleProblem(draft.title) : null)} placeholder="Tuesday noon pickup" limit={TITLE_MAX_CHARS} autoFocus={mode === 'create'} data-testid="event-title" />
          <div className="form-grid">
            <TextField
              label="Starts"
              type="datetime-local"
              value={draft.startDate}
              onChange={(e) => {
                const start = e.target.value;
                setDraft((d) => ({ ...d, startDate: start, endDate: endTouched ? d.endDate : suggestedEnd(start) }));
                clear('startDate');
              }}
              error={errors.startDate}
              hint={`Your time (${zoneName(deviceZone())}).`}
              data-testid="event-start"
            />
            <TextField
              label="Ends"
              optional
              type="datetime-local"
              value={draft.endDate}
              min={draft.startDate || undefined}
              onChange={(e) => {
                setEndTouched(true);
                set('endDate', e.target.value);
              }}
              error={errors.endDate}
              data-testid="event-end"
            />
          </div>
          {mode === 'create' && !NON_REPEATING_TYPES.includes(draft.eventType) && (
            <RepeatField
              draft={draft}
              error={errors.repeatUntil}
              onChange={(patch) => {
                setDraft((d) => ({ ...d, ...patch }));
                clear('repeatUntil');
              }}
            />
          )}
          <TextAreaField label="Description" optional rows={4} maxLength={4000} value={draft.description} onChange={(e) => set('description', e.target.value)} error={errors.description} placeholder="Full gear. Bring a light and a dark jersey. $15 at the door." />
        </Section>

        <Section title="Where">
          <FacilityPicker
            label="Facility"
            optional
            value={draft.facilityId}
            withZone
            onChange={(id) => {
              setDraft((d) => ({ ...d, facilityId: id, seasonId: id === d.facilityId ? d.seasonId : '' }));
            }}
            placeholder="Search rinks"
            error={errors.facilityId}
            data-testid="event-facility"
          />
          <SelectField
            label="Season"
            optional
            value={draft.seasonId}
            onChange={(e) => set('seasonId', e.target.value)}
            disabled={!draft.facilityId || seasonList.length === 0}
            error={errors.seasonId}
            hint={!draft.facilityId ? 'Pick a facility to add this to one of its seasons.' : seasons.isPending ? 'Loading seasons…' : seasonList.length === 0 ? 'This facility has no seasons.' : 'Season games are for the facility’s staff.'}
            data-testid="event-season"
          >
            <option value="">No season</option>
            {seasonList.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
                {s.isActive ? ' (active)' : ''}
              </option>
            ))}
          </SelectField>
          <TextField label="Location" optional value={draft.location} onChange={(e) => set('location', e.target.value)} error={errors.location} placeholder="Rink B, or an address" maxLength={200} data-testid="event-location" />
        </Section>

        <Section title="Spots" subtitle="When a limit is reached, people join a waitlist and move in, in order, as spots open.">
          <div className="form-grid form-grid--pair">
            <TextField label="Max skaters" inputMode="numeric" placeholder="No limit" value={draft.maxSkaters} onChange={(e) => set('maxSkaters', e.target.value)} error={errors.maxSkaters} hint="Empty = no limit." data-testid="event-max-skaters" />
            <TextField label="Max goalies" inputMode="numeric" placeholder="No limit" value={draft.maxGoalies} onChange={(e) => set('maxGoalies', e.target.value)} error={errors.maxGoalies} hint="Empty = no limit." data-testid="event-max-goalies" />
          </div>
          <GroupConfigEditor value={draft.groupConfig} onChange={(v) => set('groupConfig', v)} error={errors.groupConfig} />
        </Section>

        {showGame ? (
          <Section title="Game details" subtitle="For games against other teams, or imported league games.">
            <div className="form-grid">
              <TextField label="Home team" optional value={draft.externalHomeTeamName} onChange={(e) => set('externalHomeTeamName', e.target.value)} error={errors.externalHomeTeamName} maxLength={120} data-testid="event-home-name" />
              <TextField label="Away team" optional value={draft.externalAwayTeamName} onChange={(e) => set('externalAwayTeamName', e.target.value)} error={errors.externalAwayTeamName} maxLength={120} data-testid="event-away-name" />
              <TextField label="Home score" optional inputMode="numeric" value={draft.homeScore} onChange={(e) => set('homeScore', e.target.value)} error={errors.homeScore} data-testid="event-home-score" />
              <TextField label="Away score" optional inputMode="numeric" value={draft.awayScore} onChange={(e) => set('awayScore', e.target.value)} error={errors.awayScore} data-testid="event-away-score" />
            </div>
            <TextField label="Rink (outside Rinkside)" optional value={draft.externalRink} onChange={(e) => set('externalRink', e.target.value)} error={errors.externalRink} maxLength={120} placeholder="When the game is at a rink not on Rinkside" data-testid="event-external-rink" />
          </Section>
        ) : (
          <button type="button" className="add-section" onClick={() => setShowGame(true)} data-testid="show-game-details">
            + Add game details (teams, score, outside rink)
          </button>
        )}

        <Section title="Picture" subtitle="Shown at the top of the event.">
          <div className="image-field">
            <TextField label="Image URL" optional type="url" inputMode="url" placeholder="https://" value={draft.imageUrl} onChange={(e) => set('imageUrl', e.target.value)} error={errors.imageUrl} data-testid="event-image" />
            {/^https?:\/\/\S+$/i.test(draft.imageUrl.trim()) && <img className="image-field__preview" src={draft.imageUrl.trim()} alt="" onError={(e) => (e.currentTarget.style.visibility = 'hidden')} onLoad={(e) => (e.currentTarget.style.visibility = 'visible')} />}
          </div>
        </Section>

        {pastWarning && (
          <div role="alertdialog" aria-labelledby="past-start-q" data-testid="past-start-confirm">
            <Alert
              tone="warning"
              action={
                <span className="tool-row">
                  <Button type="button" size="sm" variant="ghost" onClick={() => setPastWarning(null)} data-testid="past-start-no">
                    Change the date
                  </Button>
                  <Button type="button" size="sm" onClick={() => void submit(null, true)} data-testid="past-start-yes">
                    Save anyway
                  </Button>
                </span>
              }
            >
              <span id="past-start-q">{pastWarning}</span>
            </Alert>
          </div>
        )}
        {askScope ? (
          <ScopeChoice
            className="sticky-actions sticky-actions--dirty"
            onChoose={(scope) => void submit(null, true, scope)}
            onDismiss={() => setAskScope(false)}
            pending={update.isPending ? (update.variables?.scope ?? 'this') : null}
          />
        ) : (
          <div className="sticky-actions sticky-actions--dirty form-submit-bar">
            <ButtonLink to={mode === 'edit' && event ? `/events/${event.id}` : '/events'} variant="ghost">
              Cancel
            </ButtonLink>
            <Button type="submit" loading={pending} data-testid="save-event">
              {mode === 'create' ? (repeatsWeeklyCount(draft) > 1 ? `Create ${repeatsWeeklyCount(draft)} events` : 'Create event') : 'Save changes'}
            </Button>
          </div>
        )}
      </form>
    </div>
  );
}
