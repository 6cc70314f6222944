// Split attendees into 2–4 groups (jersey colours), balanced by position or
// by order of acceptance. Off = one plain list.

import type { GroupConfig } from '../../../lib/api-types';
import { Button } from '../../../components/ui/button';
import { ChoiceGroup } from '../../../components/ui/choice-group';
import { PlusIcon, XIcon } from '../../../components/ui/icons';
import { defaultGroupConfig, GROUP_PRESETS, MAX_GROUPS, MIN_GROUPS } from '../model/event-draft';

export function GroupConfigEditor({ value, onChange, error }: { value: GroupConfig | null; onChange: (v: GroupConfig | null) => void; error?: string | null }) {
  const on = value !== null;
  return (
    <fieldset className={`groups-editor${error ? ' groups-editor--invalid' : ''}`} data-testid="group-editor" aria-describedby={error ? 'groups-error' : undefined}>
      <legend className="sr-only">Groups</legend>
      <label className="switch-row">
        <span className="switch-row__text">
          <strong>Split into groups</strong>
          <span className="muted small">Dark vs light, or up to four colours. Everyone sees the same split.</span>
        </span>
        <input type="checkbox" role="switch" className="switch" checked={on} onChange={(e) => onChange(e.target.checked ? defaultGroupConfig() : null)} data-testid="groups-toggle" />
      </label>
      {value && (
        <>
          <ul className="groups-editor__list">
            {value.groups.map((g, i) => (
              <li key={i} className="groups-editor__row">
                <input
                  type="color"
                  className="color-input"
                  value={/^#[0-9a-fA-F]{6}$/.test(g.color) ? g.color : '#888888'}
                  onChange={(e) => onChange({ ...value, groups: value.groups.map((x, j) => (j === i ? { ...x, color: e.target.value } : x)) })}
                  aria-label={`Colour of group ${i + 1}`}
                />
                <input
                  className="input"
                  value={g.name}
                  maxLength={30}
                  onChange={(e) => onChange({ ...value, groups: value.groups.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })}
                  aria-label={`Name of group ${i + 1}`}
                  placeholder={`Group ${i + 1}`}
                  data-testid={`group-name-${i}`}
                />
                <button
                  type="button"
                  className="icon-btn icon-btn--danger"
                  disabled={value.groups.length <= MIN_GROUPS}
                  onClick={() => onChange({ ...value, groups: value.groups.filter((_, j) => j !== i) })}
                  aria-label={`Remove group ${g.name || i + 1}`}
                >
                  <XIcon size={16} />
                </button>
              </li>
            ))}
          </ul>
          {value.groups.length < MAX_GROUPS && (
            <Button
              size="sm"
              variant="ghost"
              icon={<PlusIcon size={16} />}
              onClick={() => {
                const used = new Set(value.groups.map((g) => g.name));
                const next = GROUP_PRESETS.find((p) => !used.has(p.name)) ?? { name: `Group ${value.groups.length + 1}`, color: '#4cc3ff' };
                onChange({ ...value, groups: [...value.groups, { ...next }] });
              }}
              data-testid="add-group"
            >
              Add a group
            </Button>
          )}
          <ChoiceGroup
            aria-label="Balance groups by"
            options={(
              [
                ['POSITION', 'By position', 'Goalies, then D, then forwards, spread evenly'],
                ['ORDER', 'By sign-up order', '1st to one group, 2nd to the next…'],
              ] as const
            ).map(([v, label, hint]) => ({
              value: v,
              content: (
                <>
                  <strong>{label}</strong>
                  <span>{hint}</span>
                </>
              ),
              'data-testid': `balance-${v}`,
            }))}
            value={value.balanceBy}
            onChange={(balanceBy) => onChange({ ...value, balanceBy })}
            className="segmented"
            optionClassName="segmented__opt"
            checkedClassName="segmented__opt--on"
          />
        </>
      )}
      {error && (
        <p className="field__error" id="groups-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
