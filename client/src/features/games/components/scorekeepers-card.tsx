// The game's score keepers (`/games/{id}/scorekeepers`), managed by its
// staff: the season's facility owner and managers and the owners and
// managers of either team. A score keeper can score and set lineups, but
// cannot assign others.

import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { SEARCH_DEBOUNCE_MS } from '../../../config/constants';
import { displayName, handle } from '../../../lib/format';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { SearchBox } from '../../../components/ui/search-box';
import { Spinner } from '../../../components/ui/spinner';
import { useAddScorekeeper, usePeopleSearch, useRemoveScorekeeper, useScorekeepers } from '../api/games';

export function ScorekeepersCard({ gameId }: { gameId: string }) {
  const list = useScorekeepers(gameId, true);
  const add = useAddScorekeeper(gameId);
  const remove = useRemoveScorekeeper(gameId);
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = usePeopleSearch(q, q.length > 0);
  const keepers = list.data ?? [];
  const already = new Set(keepers.map((k) => k.userId));
  const results = (search.data?.items ?? []).filter((p) => !already.has(p.id));
  const error = add.error ?? remove.error;

  return (
    <Card data-testid="scorekeepers">
      <CardHeader title="Score keepers" subtitle="People you add here can run this console for this game: score, undo and set lineups." />
      {list.isPending ? (
        <Spinner label="Loading score keepers" />
      ) : keepers.length === 0 ? (
        <p className="empty-line">No score keepers assigned. You and the other staff can score it yourselves.</p>
      ) : (
        <ul className="keepers">
          {keepers.map((k) => (
            <li key={k.userId} className="keepers__row" data-testid={`keeper-${k.userId}`}>
              <span className="keepers__name">{k.displayName}</span>
              <ConfirmButton
                size="sm"
                variant="ghost"
                confirmLabel="Remove?"
                onConfirm={() => remove.mutate(k.userId)}
                loading={remove.isPending && remove.variables === k.userId}
                data-testid={`remove-keeper-${k.userId}`}
              >
                Remove
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      <div className="keepers__add">
        <SearchBox value={text} onChange={setText} placeholder="Add a score keeper: search by name" label="Find a person to add as score keeper" busy={Boolean(q) && search.isFetching} testId="keeper-search" />
        {q && (
          <ul className="keepers__results" aria-label="People found">
            {search.isPending && <li className="keepers__hint">Searching…</li>}
            {!search.isPending && results.length === 0 && <li className="keepers__hint">No one else matches “{q}”.</li>}
            {results.map((p) => (
              <li key={p.id} className="keepers__row">
                <span className="keepers__name">
                  {displayName(p)}
                  {handle(p) && <span className="muted small"> {handle(p)}</span>}
                </span>
                <Button
                  size="sm"
                  variant="secondary"
                  loading={add.isPending && add.variables === p.id}
                  onClick={() => add.mutate(p.id, { onSuccess: () => setText('') })}
                  data-testid={`add-keeper-${p.id}`}
                >
                  Add
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error && <Alert>{errorMessage(error)}</Alert>}
    </Card>
  );
}
