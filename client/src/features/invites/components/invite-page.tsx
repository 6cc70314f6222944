// /invite/:code — what an invite is for and who sent it (docs/invites.md ›
// Opening one). Anyone may open it: signed out it stands on a screen of its
// own and asks to sign up or sign in, which comes back here afterwards
// (lib/auth/return-to.ts); signed in, in the app's shell, one tap joins and
// lands on the roster or the event. A closed invite (expired, revoked,
// used up) says so plainly and offers nothing.

import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { InvitePreview } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';
import { signInPath } from '../../../lib/auth/return-to';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { TeamIcon } from '../../../components/ui/icons';
import { Logo } from '../../../components/ui/logo';
import { withNotice } from '../../../components/ui/route-notice';
import { PageSpinner } from '../../../components/ui/spinner';
import { useAcceptInvite, useInvitePreview } from '../api/invites';
import { acceptOutcome, closedText, expiryText, inviteHeadline, inviteWhen, joinLabel } from '../model/invites';
import '../invites.css';

export function InvitePage() {
  const { code = '' } = useParams();
  const { status } = useAuth();
  const signedIn = status === 'signed-in';
  const view = <InviteView key={code} code={code} signedIn={signedIn} />;
  if (signedIn) return view;
  return (
    <div className="invite-screen">
      <header className="invite-screen__top">
        <Link to="/" aria-label="Rinkside">
          <Logo />
        </Link>
      </header>
      <main className="invite-screen__main">{view}</main>
    </div>
  );
}

function InviteView({ code, signedIn }: { code: string; signedIn: boolean }) {
  const preview = useInvitePreview(code);
  if (preview.isPending) return <PageSpinner label="Loading invite" />;
  if (preview.isError && !preview.data) {
    const notFound = preview.error instanceof ApiError && preview.error.status === 404;
    return (
      <Card data-testid="invite-missing">
        <EmptyState
          icon={<TeamIcon size={28} />}
          title={notFound ? 'No such invite' : 'Could not load this invite'}
          action={notFound ? undefined : <Button variant="secondary" onClick={() => void preview.refetch()}>Try again</Button>}
        >
          {notFound ? 'Check the link, or ask whoever sent it for a new one.' : errorMessage(preview.error)}
        </EmptyState>
      </Card>
    );
  }
  return <InviteDetails code={code} preview={preview.data} signedIn={signedIn} />;
}

function InviteDetails({ code, preview, signedIn }: { code: string; preview: InvitePreview; signedIn: boolean }) {
  const navigate = useNavigate();
  const accept = useAcceptInvite(code);
  // A request filed: the page stays and says so (the roster is not theirs to see as a player yet).
  const [sent, setSent] = useState<string | null>(null);
  // Closed: in the server's words when accepting is what found out (409 invite_closed), else the preview's.
  const refusedClosed = accept.error instanceof ApiError && accept.error.code === 'invite_closed' ? errorMessage(accept.error) : null;
  const closed = closedText(preview.status) === null ? null : (refusedClosed ?? closedText(preview.status));
  const when = inviteWhen(preview);

  const join = () =>
    accept.mutate(undefined, {
      onSuccess: (accepted) => {
        const outcome = acceptOutcome(accepted, preview);
        if (outcome.to === null) setSent(outcome.message);
        else navigate(outcome.to, { state: withNotice(outcome.notice) });
      },
    });

  return (
    <Card className="invite-page" data-testid="invite-page">
      <p className="invite-page__kicker">{preview.kind === 'EVENT' ? 'Event invite' : 'Team invite'}</p>
      <h1 className="invite-page__headline" data-testid="invite-headline">
        {inviteHeadline(preview)}
      </h1>
      {when && (
        <p className="invite-page__when" data-testid="invite-when">
          {when}
        </p>
      )}
      <div className="invite-page__body">
        {sent ? (
          <div data-testid="invite-sent">
            <Alert tone="success">{sent}</Alert>
          </div>
        ) : closed ? (
          <div data-testid="invite-closed">
            <Alert tone="warning" title={closed}>
              Ask whoever sent it for a new one.
            </Alert>
          </div>
        ) : (
          <>
            {preview.kind === 'ROSTER' && preview.requireApproval && (
              <p className="muted" data-testid="invite-approval-note">
                The captain approves each new player: joining sends them your request.
              </p>
            )}
            {accept.isError && (
              <div data-testid="invite-error">
                <Alert>{errorMessage(accept.error)}</Alert>
              </div>
            )}
            {signedIn ? (
              <Button size="lg" block loading={accept.isPending} onClick={join} data-testid="invite-join">
                {joinLabel(preview)}
              </Button>
            ) : (
              <ButtonLink to={signInPath(`/invite/${code}`)} variant="primary" size="lg" block data-testid="invite-sign-in">
                Sign up or sign in to join
              </ButtonLink>
            )}
            <p className="muted small" data-testid="invite-expires">
              {expiryText(preview)}
            </p>
          </>
        )}
      </div>
    </Card>
  );
}
