import { useState, type FormEvent } from 'react';
import { useFormErrors } from '../../../lib/use-form-errors';
import { useAuth } from '../../../lib/auth/auth-context';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Logo } from '../../../components/ui/logo';
import '../auth.css';

const USERNAME_RE = /^[a-zA-Z0-9_.-]{3,30}$/;

export function SignInPage() {
  const { mode, SignInWidget } = useAuth();
  return (
    <div className="signin">
      <section className="signin__hero" aria-hidden="false">
        <Logo />
        <h1 className="signin__title">
          Your rink.
          <br />
          <span className="signin__title-accent">Live.</span>
        </h1>
        <p className="signin__lead">
          Rosters, RSVPs that never overbook, and scores that update on every phone and arena screen the second the
          puck crosses the line.
        </p>
        <ul className="signin__points">
          <li>
            <span className="signin__dot signin__dot--blue" /> Follow players, rinks and teams
          </li>
          <li>
            <span className="signin__dot signin__dot--red" /> Grab the last skater spot — fairly
          </li>
          <li>
            <span className="signin__dot signin__dot--green" /> Live scoreboards for every game
          </li>
        </ul>
      </section>
      <section className="signin__panel">
        <div className="signin__card">
          {mode === 'clerk' && SignInWidget ? <SignInWidget /> : <DevSignInForm />}
        </div>
      </section>
    </div>
  );
}

/** The one field of the dev sign-in; any other refusal is said above it. */
const PLACEMENT = { fields: ['username'] };

function DevSignInForm() {
  const { signInDev } = useAuth();
  const [username, setUsername] = useState('');
  const { errors, formError, check, fail } = useFormErrors(PLACEMENT);
  // Stays on after a sign-in that went through: the page gives way to the app.
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const name = username.trim();
    if (!check(USERNAME_RE.test(name) ? {} : { username: '3–30 letters, digits, dots, dashes or underscores.' })) return;
    setBusy(true);
    try {
      await signInDev?.(name);
    } catch (err) {
      fail(err);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="stack" data-testid="dev-sign-in">
      <div>
        <h2 className="signin__card-title">Sign in</h2>
        <p className="muted">Development mode: pick any username. New names get a fresh account.</p>
      </div>
      {formError && <Alert>{formError}</Alert>}
      <TextField
        label="Username"
        prefix="@"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        error={errors.username}
        autoFocus
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="gretzky99"
        data-testid="dev-username"
      />
      <Button type="submit" size="lg" block loading={busy} data-testid="dev-sign-in-submit">
        Continue
      </Button>
      <p className="signin__note">Dev auth is for local use only. Production sign-in uses Clerk.</p>
    </form>
  );
}
