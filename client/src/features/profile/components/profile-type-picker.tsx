import { PROFILE_TYPES, type ProfileType } from '../../../lib/api-types';
import { PROFILE_TYPE_BLURBS, PROFILE_TYPE_LABELS } from '../../../lib/format';
import type { ReactNode } from 'react';
import {
  ArenaIcon,
  CheckIcon,
  ClipboardIcon,
  MegaphoneIcon,
  StickIcon,
  StopwatchIcon,
  WhistleIcon,
} from '../../../components/ui/icons';
import '../profile.css';

const ICONS: Record<ProfileType, ReactNode> = {
  PLAYER: <StickIcon size={22} />,
  COACH: <ClipboardIcon size={22} />,
  REFEREE: <WhistleIcon size={22} />,
  SCORE_KEEPER: <StopwatchIcon size={22} />,
  FACILITY_MANAGER: <ArenaIcon size={22} />,
  FAN: <MegaphoneIcon size={22} />,
};

export function ProfileTypePicker({
  value,
  onChange,
  error,
}: {
  value: ProfileType[];
  onChange: (next: ProfileType[]) => void;
  error?: string | null;
}) {
  function toggle(t: ProfileType) {
    onChange(value.includes(t) ? value.filter((v) => v !== t) : PROFILE_TYPES.filter((p) => p === t || value.includes(p)));
  }
  return (
    <fieldset className="type-picker" aria-describedby={error ? 'profile-types-error' : undefined}>
      <legend className="sr-only">Profile types</legend>
      <div className="type-picker__grid">
        {PROFILE_TYPES.map((t) => {
          const on = value.includes(t);
          return (
            <label key={t} className={`type-card${on ? ' type-card--on' : ''}`} data-testid={`profile-type-${t}`}>
              <input type="checkbox" className="sr-only" checked={on} onChange={() => toggle(t)} />
              <span className="type-card__icon" aria-hidden="true">
                {ICONS[t]}
              </span>
              <span className="type-card__text">
                <span className="type-card__name">{PROFILE_TYPE_LABELS[t]}</span>
                <span className="type-card__blurb">{PROFILE_TYPE_BLURBS[t]}</span>
              </span>
              <span className="type-card__check" aria-hidden="true">
                {on && <CheckIcon size={16} />}
              </span>
            </label>
          );
        })}
      </div>
      {error && (
        <p className="field__error" id="profile-types-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
