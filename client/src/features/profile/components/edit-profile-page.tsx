import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { useUpdateMe, type MePatch } from '../api/me';
import { errorMessage, type FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { ProfileType, User } from '../../../lib/api-types';
import { useAuth, useCurrentUser } from '../../../lib/auth/auth-context';
import { displayName } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { LogOutIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { ProfileTypePicker } from './profile-type-picker';
import { PositionsEditor } from './positions-editor';
import '../profile.css';

const BIO_MAX = 500;

interface Draft {
  username: string;
  firstName: string;
  lastName: string;
  bio: string;
  profileImage: string;
  profileTypes: ProfileType[];
}

function draftOf(u: User): Draft {
  return {
    username: u.username ?? '',
    firstName: u.firstName ?? '',
    lastName: u.lastName ?? '',
    bio: u.bio ?? '',
    profileImage: u.profileImage ?? '',
    profileTypes: u.profileTypes,
  };
}

/** Only what changed, with empty text meaning "clear it". */
export function diffDraft(user: User, d: Draft): MePatch {
  const patch: MePatch = {};
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  if (d.username.trim() !== (user.username ?? '')) patch.username = d.username.trim();
  if (text(d.firstName) !== (user.firstName ?? null)) patch.firstName = text(d.firstName);
  if (text(d.lastName) !== (user.lastName ?? null)) patch.lastName = text(d.lastName);
  if (text(d.bio) !== (user.bio ?? null)) patch.bio = text(d.bio);
  if (text(d.profileImage) !== (user.profileImage ?? null)) patch.profileImage = text(d.profileImage);
  if (d.profileTypes.join() !== user.profileTypes.join()) patch.profileTypes = d.profileTypes;
  return patch;
}

export function EditProfilePage() {
  const user = useCurrentUser();
  const { signOut } = useAuth();
  const update = useUpdateMe();
  const paymentsToggle = useUpdateMe();
  // The box flips on the tap (a controlled checkbox would bounce back until
  // the mutation's state lands); the server's answer then replaces it.
  const [collectDraft, setCollectDraft] = useState<boolean | null>(null);
  const location = useLocation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(user));
  const { errors, formError, check, run, clear } = useFormErrors();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (location.hash === '#positions' || location.hash === '#payments') document.getElementById(location.hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [location.hash]);

  const patch = diffDraft(user, draft);
  const dirty = Object.keys(patch).length > 0;

  function set<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    setSaved(false);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!draft.username.trim()) local.username = 'A username is required.';
    if (draft.profileTypes.length === 0) local.profileTypes = 'Choose at least one.';
    if (draft.profileImage.trim() && !/^https?:\/\//i.test(draft.profileImage.trim())) local.profileImage = 'Use an http(s) image address.';
    if (!check(local) || !dirty) return;
    await run(async () => {
      const next = await update.mutateAsync(patch);
      setDraft(draftOf(next));
      setSaved(true);
    });
  }

  const previewName = displayName({ username: draft.username || user.username, firstName: draft.firstName, lastName: draft.lastName });

  return (
    <div className="stack-lg">
      <PageHeader
        eyebrow="Settings"
        title="Edit profile"
        actions={<ButtonLink to={`/users/${user.id}`} variant="ghost">View profile</ButtonLink>}
      />
      <form onSubmit={submit} noValidate className="stack-lg" data-testid="edit-profile-form">
        <Card>
          <CardHeader title="Profile" subtitle="What people see when they find you." />
          {formError && <Alert>{formError}</Alert>}
          <div className="avatar-edit">
            <Avatar name={previewName} src={draft.profileImage.trim() || null} size="lg" />
            <TextField
              label="Photo URL"
              optional
              type="url"
              inputMode="url"
              placeholder="https://…"
              value={draft.profileImage}
              onChange={(e) => set('profileImage', e.target.value)}
              error={errors.profileImage}
            />
          </div>
          <div className="form-grid">
            <TextField label="First name" optional value={draft.firstName} onChange={(e) => set('firstName', e.target.value)} error={errors.firstName} autoComplete="given-name" />
            <TextField label="Last name" optional value={draft.lastName} onChange={(e) => set('lastName', e.target.value)} error={errors.lastName} autoComplete="family-name" />
          </div>
          <TextField label="Username" prefix="@" value={draft.username} onChange={(e) => set('username', e.target.value)} error={errors.username} autoComplete="username" />
          <TextAreaField
            label="Bio"
            optional
            rows={4}
            maxLength={BIO_MAX}
            placeholder="Beer league center, 20 years on skates, always up for a sub."
            value={draft.bio}
            onChange={(e) => set('bio', e.target.value)}
            error={errors.bio}
          />
        </Card>
        <Card>
          <CardHeader title="I am a…" subtitle="Pick every role you have in hockey." />
          <ProfileTypePicker value={draft.profileTypes} onChange={(v) => set('profileTypes', v)} error={errors.profileTypes} />
        </Card>
        <div className={`sticky-actions${dirty ? ' sticky-actions--dirty' : ''}`}>
          {saved && !dirty && (
            <span className="saved-note" role="status">
              Saved
            </span>
          )}
          <Button type="button" variant="ghost" disabled={!dirty || update.isPending} onClick={() => { setDraft(draftOf(user)); clear(); }}>
            Discard
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!dirty} data-testid="save-profile">
            Save changes
          </Button>
        </div>
      </form>
      <Card id="positions">
        <CardHeader title="Positions" subtitle="Saved as you go. Star the one you prefer." />
        <PositionsEditor />
      </Card>
      <Card id="payments">
        <CardHeader title="Event payments" subtitle="For organisers who collect money for ice time." />
        {/* A rink's staff turn collecting on (docs/sides-and-bill.md › Who may
            collect); the person may only turn it off. */}
        <label className="check">
          <input
            type="checkbox"
            checked={collectDraft ?? user.canCollectEventPayments}
            disabled={paymentsToggle.isPending || !(collectDraft ?? user.canCollectEventPayments)}
            onChange={(e) => {
              setCollectDraft(e.target.checked);
              paymentsToggle.mutate({ canCollectEventPayments: e.target.checked }, { onSettled: () => setCollectDraft(null) });
            }}
            aria-describedby="collect-payments-hint"
            data-testid="collect-payments"
          />
          <span>
            <strong>I collect payments for my events</strong>
            <br />
            <span className="muted small" id="collect-payments-hint">
              {(collectDraft ?? user.canCollectEventPayments)
                ? 'You can split the cost of the ice and mark people paid on events you organise. Rinkside does not move money; it keeps track of who paid you. Turning this off is for good until a rink turns it on again.'
                : 'A rink turns this on: the staff of a rink where you organise events can let you collect for the ice from the event page. Rinkside does not move money; it keeps track of who paid you.'}
            </span>
          </span>
        </label>
        {paymentsToggle.error && <Alert>{errorMessage(paymentsToggle.error)}</Alert>}
        {paymentsToggle.isSuccess && (
          <p className="saved-note" role="status" data-testid="collect-payments-saved">
            Saved
          </p>
        )}
      </Card>
      <Card>
        <CardHeader title="Account" />
        <dl className="facts">
          {user.email && (
            <div>
              <dt>Email</dt>
              <dd>{user.email}</dd>
            </div>
          )}
          <div>
            <dt>Terms accepted</dt>
            <dd>
              {user.legalVersion
                ? `Version ${user.legalVersion}${user.legalAcceptedAt ? ` on ${new Date(user.legalAcceptedAt).toLocaleDateString()}` : ''}`
                : 'Not yet'}
            </dd>
          </div>
        </dl>
        <Button variant="secondary" icon={<LogOutIcon size={16} />} onClick={() => void signOut()}>
          Sign out
        </Button>
      </Card>
    </div>
  );
}
