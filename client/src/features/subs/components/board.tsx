// The board: every active status, newest first, filtered by kind, position,
// rink, level and time window (kept in the address bar), a page at a time.

import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { HOCKEY_POSITIONS, STATUS_TYPES, UNIVERSAL_DIVISIONS, type StatusType } from '../../../lib/api-types';
import { DIVISION_LABELS, POSITION_LABELS } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FacilityPicker } from '../../../components/ui/facility-picker';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField } from '../../../components/ui/field';
import { FilterIcon, MegaphoneIcon } from '../../../components/ui/icons';
import { LoadMore } from '../../../components/ui/load-more';
import { useBoard } from '../api/statuses';
import { STATUS_TYPE_LABELS } from '../model/describe';
import { activeBoardFilters, BOARD_WHEN_OPTIONS, readBoardParams, toBoardFilters, writeBoardParams, type BoardParams, type BoardWhen } from '../model/board-filters';
import { StatusCard } from './status-card';
import { useDivisionScale } from '../../../lib/divisions';

/** The board says "rink" where the rest of the app says "facility". */
const RINK = { one: 'rink', many: 'rinks' };

export function Board() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readBoardParams(searchParams);
  const [today] = useState(() => new Date());
  const board = useBoard(toBoardFilters(params, today));
  const items = board.data?.pages.flatMap((p) => p.items) ?? [];
  const panelCount = activeBoardFilters(params);
  const [panelOpen, setPanelOpen] = useState(panelCount > 0);
  const update = (patch: Partial<BoardParams>) => setSearchParams(writeBoardParams({ ...params, ...patch }), { replace: true });
  const anyFilter = panelCount > 0 || params.type !== '';

  return (
    <Card className="subs-block" data-testid="board" aria-labelledby="board-title">
      <header className="card__header">
        <div>
          <h2 className="card__title" id="board-title">
            The board
          </h2>
          <p className="card__subtitle">Everyone who is free to play, short a player, or building a roster.</p>
        </div>
      </header>

      <section className="board-filters" aria-label="Filters">
        <div className="board-filters__chips">
          <button
            type="button"
            className="subs-chip board-filters__more"
            aria-expanded={panelOpen}
            aria-controls="board-filter-panel"
            onClick={() => setPanelOpen((o) => !o)}
            data-testid="board-more-filters"
          >
            <FilterIcon size={15} /> Filters{panelCount > 0 && <span className="subs-chip__count">{panelCount}</span>}
          </button>
          <span className="board-filters__sep" aria-hidden="true" />
          <div className="board-filters__kinds" role="group" aria-label="Kind">
            <FilterChip on={params.type === ''} onClick={() => update({ type: '' })} testId="board-type-all">
              All
            </FilterChip>
            {STATUS_TYPES.map((t) => (
              <FilterChip key={t} on={params.type === t} onClick={() => update({ type: params.type === t ? '' : (t as StatusType) })} testId={`board-type-${t}`}>
                {STATUS_TYPE_LABELS[t]}
              </FilterChip>
            ))}
          </div>
        </div>
        <div id="board-filter-panel" className="board-filters__panel" hidden={!panelOpen}>
          <SelectField label="Position" value={params.position} onChange={(e) => update({ position: e.target.value as BoardParams['position'] })} data-testid="board-position">
            <option value="">Any position</option>
            {HOCKEY_POSITIONS.map((p) => (
              <option key={p} value={p}>
                {POSITION_LABELS[p]}
              </option>
            ))}
          </SelectField>
          <DivisionFilter value={params.division} onChange={(division) => update({ division })} />
          <FacilityPicker label="Rink" optional value={params.facilityId} onChange={(facilityId) => update({ facilityId })} noun={RINK} placeholder="Any rink" data-testid="board-facility" />
          <SelectField label="When" value={params.when} onChange={(e) => update({ when: e.target.value as BoardWhen })} data-testid="board-when">
            {BOARD_WHEN_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </SelectField>
        </div>
      </section>

      {board.isPending ? (
        <BoardSkeleton />
      ) : board.isError ? (
        <Alert action={<Button variant="secondary" size="sm" onClick={() => void board.refetch()}>Try again</Button>}>{errorMessage(board.error)}</Alert>
      ) : items.length === 0 ? (
        <EmptyState
          icon={<MegaphoneIcon size={28} />}
          title={anyFilter ? 'Nobody matches these filters' : 'The board is quiet'}
          action={
            anyFilter ? (
              <Button variant="secondary" onClick={() => setSearchParams(new URLSearchParams(), { replace: true })} data-testid="board-clear">
                Clear filters
              </Button>
            ) : undefined
          }
        >
          {anyFilter ? 'Try another level or rink, or a wider window.' : 'Post that you are free to sub or that your team needs someone, and you will be first on it.'}
        </EmptyState>
      ) : (
        // Dimmed while another filter's answer or a fresher one is on its way (the cache shows the last one meanwhile).
        <div className={`board-list${board.isPlaceholderData || (board.isRefetching && !board.isFetchingNextPage) ? ' board-list--stale' : ''}`}>
          <ul className="board-list__items" data-testid="board-list">
            {items.map((s) => (
              <li key={s.id}>
                <StatusCard status={s} />
              </li>
            ))}
          </ul>
          <LoadMore hasMore={board.hasNextPage} loading={board.isFetchingNextPage} onLoadMore={() => void board.fetchNextPage()} />
        </div>
      )}
    </Card>
  );
}

function FilterChip({ on, onClick, children, testId }: { on: boolean; onClick: () => void; children: ReactNode; testId?: string }) {
  return (
    <button type="button" className="subs-chip" aria-pressed={on} onClick={onClick} data-testid={testId}>
      {children}
    </button>
  );
}

function DivisionFilter({ value, onChange }: { value: BoardParams['division']; onChange: (v: BoardParams['division']) => void }) {
  const scale = useDivisionScale();
  // Until the scale has loaded, the names the client knows read the same.
  const levels = scale.data ?? UNIVERSAL_DIVISIONS.map((v, i) => ({ value: v, name: DIVISION_LABELS[v], level: i + 1, description: '' }));
  return (
    <SelectField label="Level" value={value} onChange={(e) => onChange(e.target.value as BoardParams['division'])} hint={value ? 'This level and one step either side.' : undefined} data-testid="board-division">
      <option value="">Any level</option>
      {levels.map((l) => (
        <option key={l.value} value={l.value} title={l.description || undefined}>
          {l.level}. {l.name}
        </option>
      ))}
    </SelectField>
  );
}

function BoardSkeleton() {
  return (
    <ul className="board-list__items" aria-hidden="true">
      {[0, 1, 2].map((i) => (
        <li key={i} className="status-card status-card--skeleton">
          <span className="status-who">
            <span className="skeleton skeleton--circle" style={{ width: 40, height: 40 }} />
            <span className="status-who__text" style={{ flex: 1 }}>
              <span className="skeleton skeleton--line" style={{ width: `${40 + i * 12}%` }} />
              <span className="skeleton skeleton--line skeleton--short" />
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
