// Schedule sync of a season: where the schedule comes from (staff only —
// such URLs often carry a private token) and whether it is imported on a
// timer. Staff edit both here; errors land beside the fields.

import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage, type FieldErrors } from '../../../lib/api';
import type { SeasonDetail } from '../../../lib/api-types';
import { relativeTime } from '../../../lib/event-format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { ToggleField } from '../../../components/ui/toggle-field';
import { useUpdateSeason } from '../api/seasons';

export function SyncCard({ season }: { season: SeasonDetail }) {
  const update = useUpdateSeason(season.id);
  const [url, setUrl] = useState(season.syncUrl ?? '');
  const [enabled, setEnabled] = useState(season.syncEnabled);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  // Someone else saved: follow theirs.
  const [shown, setShown] = useState({ syncUrl: season.syncUrl, syncEnabled: season.syncEnabled });
  if (shown.syncUrl !== season.syncUrl || shown.syncEnabled !== season.syncEnabled) {
    setShown({ syncUrl: season.syncUrl, syncEnabled: season.syncEnabled });
    setUrl(season.syncUrl ?? '');
    setEnabled(season.syncEnabled);
  }

  const dirty = (url.trim() || null) !== (season.syncUrl ?? null) || enabled !== season.syncEnabled;
  const last = season.lastSyncAt ? `Last synced ${relativeTime(season.lastSyncAt)}` : 'Never synced yet';

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    const u = url.trim();
    if (u && !/^https?:\/\/[^\s/]+/i.test(u)) local.syncUrl = 'Start with http:// or https://';
    if (enabled && !u) local.syncEnabled = 'Add the schedule URL first.';
    setErrors(local);
    setFormError(null);
    setSaved(false);
    if (Object.keys(local).length) return;
    const patch: { syncUrl?: string | null; syncEnabled?: boolean } = {};
    if ((u || null) !== (season.syncUrl ?? null)) patch.syncUrl = u || null;
    if (enabled !== season.syncEnabled) patch.syncEnabled = enabled;
    try {
      await update.mutateAsync(patch);
      setSaved(true);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
      else setFormError(errorMessage(err));
    }
  }

  if (!season.viewerCanEdit) {
    return (
      <Card data-testid="sync-card">
        <CardHeader title="Schedule sync" />
        <p className="muted">{season.syncEnabled ? `Games are imported from the league’s schedule. ${last}.` : 'Games are entered by the rink’s staff.'}</p>
      </Card>
    );
  }

  return (
    <Card data-testid="sync-card">
      <CardHeader title="Schedule sync" subtitle={last} />
      <form className="stack" onSubmit={submit} noValidate data-testid="sync-form">
        {formError && <Alert>{formError}</Alert>}
        <TextField
          label="Schedule URL"
          optional
          type="url"
          inputMode="url"
          placeholder="https://league.example.com/schedule.ics"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setSaved(false);
          }}
          error={errors.syncUrl}
          hint="iCalendar (.ics) or CSV. Only the facility’s staff see it."
          data-testid="sync-url"
        />
        <ToggleField
          label="Sync automatically"
          hint="Import games and match rosters on a timer."
          checked={enabled}
          onChange={(v) => {
            setEnabled(v);
            setSaved(false);
          }}
          error={errors.syncEnabled}
          data-testid="sync-enabled"
        />
        <div className="season-sync__actions">
          {saved && !dirty ? (
            <span className="saved-note" role="status">
              Saved
            </span>
          ) : (
            <Button type="submit" size="sm" loading={update.isPending} disabled={!dirty} data-testid="save-sync">
              Save sync settings
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
