// First sign-in: who you are on the ice, the positions you play, and the
// terms. Ends with onboardingComplete = true.

import { useState, type FormEvent } from 'react';
import { acceptLegal, useUpdateMe } from '../api/me';
import { LEGAL_VERSION } from '../../../config/constants';
import { errorMessage, type FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { ProfileType } from '../../../lib/api-types';
import { useAuth, useCurrentUser } from '../../../lib/auth/auth-context';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Logo } from '../../../components/ui/logo';
import { CheckIcon } from '../../../components/ui/icons';
import { ProfileTypePicker } from './profile-type-picker';
import { PositionsEditor } from './positions-editor';
import { TermsSummary } from './terms-summary';
import '../profile.css';
import { useMyPositions } from '../../../lib/me';

const STEPS = ['About you', 'Positions', 'Terms'] as const;

export function OnboardingPage() {
  const user = useCurrentUser();
  const { signOut } = useAuth();
  const [step, setStep] = useState(0);

  return (
    <div className="onboarding">
      <header className="onboarding__top">
        <Logo />
        <button type="button" className="link-btn" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main className="onboarding__main">
        <ol className="steps" aria-label="Onboarding progress">
          {STEPS.map((label, i) => (
            <li
              key={label}
              className={`steps__item${i === step ? ' steps__item--current' : ''}${i < step ? ' steps__item--done' : ''}`}
              aria-current={i === step ? 'step' : undefined}
            >
              <span className="steps__dot">{i < step ? <CheckIcon size={14} /> : i + 1}</span>
              <span className="steps__label">{label}</span>
            </li>
          ))}
        </ol>
        {step === 0 && <AboutStep key={user.id} onDone={() => setStep(1)} />}
        {step === 1 && <PositionsStep onBack={() => setStep(0)} onDone={() => setStep(2)} />}
        {step === 2 && <TermsStep onBack={() => setStep(1)} />}
      </main>
    </div>
  );
}

function AboutStep({ onDone }: { onDone: () => void }) {
  const user = useCurrentUser();
  const update = useUpdateMe();
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [username, setUsername] = useState(user.username ?? '');
  const [types, setTypes] = useState<ProfileType[]>(user.profileTypes);
  const { errors, formError, check, run } = useFormErrors();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!username.trim()) local.username = 'Pick a username.';
    if (types.length === 0) local.profileTypes = 'Choose at least one.';
    if (!check(local)) return;
    await run(async () => {
      await update.mutateAsync({
        username: username.trim(),
        firstName: firstName.trim() || null,
        lastName: lastName.trim() || null,
        profileTypes: types,
      });
      onDone();
    });
  }

  return (
    <form className="onboarding__card" onSubmit={submit} noValidate>
      <h1 className="onboarding__title">Welcome to Rinkside{user.firstName ? `, ${user.firstName}` : ''}</h1>
      <p className="onboarding__lead">Tell the rink who you are. You can pick more than one.</p>
      {formError && <Alert>{formError}</Alert>}
      <ProfileTypePicker value={types} onChange={setTypes} error={errors.profileTypes} />
      <div className="form-grid">
        <TextField label="First name" value={firstName} onChange={(e) => setFirstName(e.target.value)} error={errors.firstName} optional autoComplete="given-name" />
        <TextField label="Last name" value={lastName} onChange={(e) => setLastName(e.target.value)} error={errors.lastName} optional autoComplete="family-name" />
      </div>
      <TextField
        label="Username"
        prefix="@"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        error={errors.username}
        autoComplete="username"
        hint="How teammates find and mention you."
      />
      <div className="onboarding__actions">
        <span />
        <Button type="submit" size="lg" loading={update.isPending} data-testid="onboarding-next">
          Continue
        </Button>
      </div>
    </form>
  );
}

function PositionsStep({ onBack, onDone }: { onBack: () => void; onDone: () => void }) {
  const user = useCurrentUser();
  const positions = useMyPositions();
  const isPlayer = user.profileTypes.includes('PLAYER');
  const count = positions.data?.length ?? 0;
  const [error, setError] = useState<string | null>(null);

  function next() {
    if (isPlayer && count === 0) {
      setError('Add at least one position you play.');
      return;
    }
    onDone();
  }

  return (
    <div className="onboarding__card">
      <h1 className="onboarding__title">Where do you play?</h1>
      <p className="onboarding__lead">
        Add each position with your skill level and star the one you prefer. Captains use this to fill lines and pickup
        organisers to balance teams.
      </p>
      {error && count === 0 && <Alert>{error}</Alert>}
      <PositionsEditor />
      <div className="onboarding__actions">
        <Button variant="ghost" onClick={onBack}>
          Back
        </Button>
        <Button size="lg" onClick={next} data-testid="onboarding-next">
          {!isPlayer && count === 0 ? 'Skip' : 'Continue'}
        </Button>
      </div>
    </div>
  );
}

function TermsStep({ onBack }: { onBack: () => void }) {
  const user = useCurrentUser();
  const { setUser } = useAuth();
  const update = useUpdateMe();
  const alreadyAccepted = user.legalVersion === LEGAL_VERSION;
  const [accepted, setAccepted] = useState(alreadyAccepted);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function finish() {
    if (!accepted) {
      setError('Please accept the terms to continue.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (!alreadyAccepted) setUser(await acceptLegal(LEGAL_VERSION));
      await update.mutateAsync({ onboardingComplete: true });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="onboarding__card">
      <h1 className="onboarding__title">The fine print</h1>
      <p className="onboarding__lead">Short version below. It's the same deal for everyone on Rinkside.</p>
      <TermsSummary />
      <label className={`check${error && !accepted ? ' check--invalid' : ''}`}>
        <input
          type="checkbox"
          checked={accepted}
          disabled={alreadyAccepted}
          onChange={(e) => setAccepted(e.target.checked)}
          data-testid="accept-terms"
        />
        <span>
          I accept the Rinkside Terms of Service and Privacy Policy <span className="muted">(version {LEGAL_VERSION})</span>
        </span>
      </label>
      {error && <Alert>{error}</Alert>}
      <div className="onboarding__actions">
        <Button variant="ghost" onClick={onBack}>
          Back
        </Button>
        <Button size="lg" onClick={() => void finish()} loading={busy} data-testid="onboarding-finish">
          Finish and hit the ice
        </Button>
      </div>
    </div>
  );
}
