// The regulars of a weekly series (docs/pickup-night.md › Regulars), on the
// series page for its organisers: who they are, one tap to remove, one tap
// to add someone who has been coming ("Sam · 6 weeks"), and anyone else by
// name. The linked teams' rosters count too, on each event; this list is
// the series' own.

import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import type { UserSummary } from '../../../lib/api-types';
import { plural } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { PlusIcon, XIcon } from '../../../components/ui/icons';
import { PersonPicker } from '../../../components/ui/person-picker';
import { Spinner } from '../../../components/ui/spinner';
import { useSeriesRegulars, useSetRegular } from '../api/pickup-night';
import '../pickup-night.css';

export function RegularsCard({ seriesId }: { seriesId: string }) {
  const query = useSeriesRegulars(seriesId);
  const set = useSetRegular(seriesId);
  const [picked, setPicked] = useState<UserSummary | null>(null);
  const data = query.data;
  if (query.isError && !data) return null;
  if (!data) {
    return (
      <Card className="regulars-card" data-testid="regulars">
        <div className="center-pad">
          <Spinner label="Loading the regulars" />
        </div>
      </Card>
    );
  }
  const pendingFor = set.isPending ? (set.variables?.userId ?? null) : null;
  const add = (userId: string) => set.mutate({ userId, regular: true }, { onSuccess: () => setPicked(null) });
  const ids = data.items.map((r) => r.userId);
  return (
    <Card padded={false} className="regulars-card" data-testid="regulars">
      <div className="card__pad card__pad--header">
        <CardHeader title={`Regulars · ${data.items.length}`} subtitle="They get the places first, until the rules open them to all. Rosters of linked teams count too." />
      </div>
      {set.isError && (
        <div className="card__pad">
          <Alert>{errorMessage(set.error)}</Alert>
        </div>
      )}
      {data.items.length === 0 ? (
        <p className="card__pad muted small">No regulars yet.</p>
      ) : (
        <ul className="regulars-list" data-testid="regulars-list">
          {data.items.map((r) => (
            <li key={r.userId} className="regulars-list__row" data-testid={`regular-row-${r.userId}`}>
              <Avatar name={r.displayName} size="sm" />
              <Link to={`/users/${r.userId}`} className="regulars-list__name">
                {r.displayName}
              </Link>
              {r.source === 'ROSTER' ? (
                <span className="regular-chip__source">roster</span>
              ) : (
                <Button
                  size="sm"
                  variant="ghost"
                  loading={pendingFor === r.userId}
                  disabled={set.isPending}
                  onClick={() => set.mutate({ userId: r.userId, regular: false })}
                  aria-label={`Remove ${r.displayName} from the regulars`}
                  icon={<XIcon size={14} />}
                  data-testid={`remove-regular-${r.userId}`}
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {data.suggestions.length > 0 && (
        <section className="card__pad regulars-suggest" aria-label="Who has been coming">
          <h3 className="tool-section__title">Who has been coming</h3>
          <ul className="regulars-suggest__list" data-testid="regular-suggestions">
            {data.suggestions.map((s) => (
              <li key={s.userId}>
                <button
                  type="button"
                  className="suggest-chip"
                  disabled={set.isPending}
                  onClick={() => add(s.userId)}
                  aria-label={`Add ${s.displayName} to the regulars (came ${s.attended} ${plural(s.attended, 'time')})`}
                  data-testid={`add-regular-${s.userId}`}
                >
                  {pendingFor === s.userId ? <Spinner size="sm" /> : <PlusIcon size={14} />}
                  <span>{s.displayName}</span>
                  <span className="suggest-chip__count">{s.attended}×</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="card__pad regulars-add">
        <PersonPicker label="Add someone else" value={picked} onChange={setPicked} exclude={ids} excludedNote="Already a regular" data-testid="regular-picker" />
        <Button size="sm" disabled={!picked || set.isPending} loading={set.isPending && pendingFor === picked?.id} onClick={() => picked && add(picked.id)} data-testid="add-regular">
          Add
        </Button>
      </div>
    </Card>
  );
}
