// Pick the positions you play, a skill level for each and one preferred.
// Every change is saved at once (positions are their own resources).

import { useState } from 'react';
import { useChangePosition } from '../api/me';
import { errorMessage } from '../../../lib/api';
import { HOCKEY_POSITIONS, SKILL_LEVELS, type HockeyPosition, type PlayerPosition, type SkillLevel } from '../../../lib/api-types';
import { POSITION_LABELS, POSITION_SHORT, SKILL_LABELS } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PlusIcon, StarIcon, TrashIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import '../profile.css';
import { useMyPositions } from '../../../lib/me';

const DEFAULT_SKILL: SkillLevel = 'INTERMEDIATE';

export function PositionsEditor() {
  const positions = useMyPositions();
  const change = useChangePosition();
  const [busy, setBusy] = useState<HockeyPosition | null>(null);
  const [error, setError] = useState<string | null>(null);

  const list = positions.data ?? [];
  const byPosition = new Map<HockeyPosition, PlayerPosition>(list.map((p) => [p.position, p]));

  async function run(pos: HockeyPosition, fn: () => Promise<void>) {
    setBusy(pos);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  const add = (pos: HockeyPosition) =>
    run(pos, async () => {
      await change.mutateAsync({ op: 'add', position: pos, skillLevel: DEFAULT_SKILL, isPreferred: !list.some((p) => p.isPreferred) });
    });

  const setSkill = (p: PlayerPosition, skillLevel: SkillLevel) =>
    run(p.position, async () => {
      await change.mutateAsync({ op: 'update', id: p.id, skillLevel });
    });

  const prefer = (p: PlayerPosition) =>
    run(p.position, async () => {
      await change.mutateAsync({ op: 'update', id: p.id, isPreferred: true });
    });

  const remove = (p: PlayerPosition) =>
    run(p.position, async () => {
      await change.mutateAsync({ op: 'remove', id: p.id });
      // Keep exactly one preferred position while any remain.
      const rest = list.filter((x) => x.id !== p.id);
      const next = rest[0];
      if (p.isPreferred && next) await change.mutateAsync({ op: 'update', id: next.id, isPreferred: true });
    });

  if (positions.isPending) {
    return (
      <div className="center-pad">
        <Spinner label="Loading positions" />
      </div>
    );
  }
  if (positions.isError) return <Alert>{errorMessage(positions.error)}</Alert>;

  return (
    <div className="positions-editor" data-testid="positions-editor">
      {error && <Alert>{error}</Alert>}
      <ul className="pos-list">
        {HOCKEY_POSITIONS.map((pos) => {
          const mine = byPosition.get(pos);
          const rowBusy = busy === pos;
          return (
            <li key={pos} className={`pos-row${mine ? ' pos-row--on' : ''}${mine?.isPreferred ? ' pos-row--preferred' : ''}`} data-testid={`position-${pos}`}>
              <span className="pos-row__badge" aria-hidden="true">
                {POSITION_SHORT[pos]}
              </span>
              <span className="pos-row__name">
                {POSITION_LABELS[pos]}
                {mine?.isPreferred && <span className="pos-row__pref">Preferred</span>}
              </span>
              <div className="pos-row__controls">
                {rowBusy && <Spinner size="sm" />}
                {mine ? (
                  <>
                    <select
                      className="input input--select input--compact"
                      aria-label={`${POSITION_LABELS[pos]} skill level`}
                      value={mine.skillLevel}
                      disabled={rowBusy}
                      data-testid={`skill-${pos}`}
                      onChange={(e) => void setSkill(mine, e.target.value as SkillLevel)}
                    >
                      {SKILL_LEVELS.map((s) => (
                        <option key={s} value={s}>
                          {SKILL_LABELS[s]}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      className={`icon-btn${mine.isPreferred ? ' icon-btn--gold' : ''}`}
                      aria-label={mine.isPreferred ? `${POSITION_LABELS[pos]} is your preferred position` : `Make ${POSITION_LABELS[pos]} your preferred position`}
                      aria-pressed={mine.isPreferred}
                      disabled={rowBusy || mine.isPreferred}
                      data-testid={`prefer-${pos}`}
                      onClick={() => void prefer(mine)}
                    >
                      <StarIcon size={18} filled={mine.isPreferred} />
                    </button>
                    <button
                      type="button"
                      className="icon-btn icon-btn--danger"
                      aria-label={`Remove ${POSITION_LABELS[pos]}`}
                      disabled={rowBusy}
                      data-testid={`remove-${pos}`}
                      onClick={() => void remove(mine)}
                    >
                      <TrashIcon size={18} />
                    </button>
                  </>
                ) : (
                  <Button
                    size="sm"
                    variant="secondary"
                    icon={<PlusIcon size={16} />}
                    disabled={busy !== null}
                    data-testid={`add-${pos}`}
                    aria-label={`Add ${POSITION_LABELS[pos]}`}
                    onClick={() => void add(pos)}
                  >
                    Add
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
