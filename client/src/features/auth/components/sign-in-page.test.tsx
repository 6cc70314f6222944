import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SignInPage } from './sign-in-page';
import { DEV_TOKEN_STORAGE_KEY, DevAuthProvider } from '../../../lib/auth/dev-auth-provider';
import { useAuth } from '../../../lib/auth/auth-context';
import { makeUser } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';

function Screen() {
  const { status, user, signOut } = useAuth();
  if (status === 'signed-in' && user)
    return (
      <div>
        <p>Signed in as {user.username}</p>
        <button onClick={() => void signOut()}>Sign out</button>
      </div>
    );
  if (status === 'loading') return <p>loading</p>;
  return <SignInPage />;
}

function renderDevAuth() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DevAuthProvider>
        <Screen />
      </DevAuthProvider>
    </QueryClientProvider>,
  );
}

describe('dev sign-in', () => {
  it('gets a token for dev_<username>, keeps it in localStorage, and signs out', async () => {
    const server = mockApi({
      'POST /dev/token': (c) => ({ token: 'dev-jwt', user: makeUser({ username: (c.body as { username: string }).username }) }),
      'GET /me': makeUser({ username: 'wayne99' }),
    });
    const user = userEvent.setup();
    renderDevAuth();

    await user.type(screen.getByTestId('dev-username'), 'wayne99');
    await user.click(screen.getByTestId('dev-sign-in-submit'));

    expect(await screen.findByText('Signed in as wayne99')).toBeInTheDocument();
    expect(server.callsTo('POST', '/dev/token')[0]?.body).toEqual({ clerkId: 'dev_wayne99', username: 'wayne99' });
    expect(server.callsTo('POST', '/dev/token')[0]?.headers.Authorization).toBeUndefined();
    expect(window.localStorage.getItem(DEV_TOKEN_STORAGE_KEY)).toBe('dev-jwt');

    await user.click(screen.getByText('Sign out'));
    expect(await screen.findByTestId('dev-sign-in')).toBeInTheDocument();
    expect(window.localStorage.getItem(DEV_TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('restores the session from a stored token', async () => {
    window.localStorage.setItem(DEV_TOKEN_STORAGE_KEY, 'stored-jwt');
    const server = mockApi({ 'GET /me': makeUser({ username: 'returning' }) });
    renderDevAuth();
    expect(await screen.findByText('Signed in as returning')).toBeInTheDocument();
    expect(server.callsTo('GET', '/me')[0]?.headers.Authorization).toBe('Bearer stored-jwt');
  });

  it('drops a token the server no longer accepts', async () => {
    window.localStorage.setItem(DEV_TOKEN_STORAGE_KEY, 'stale-jwt');
    mockApi({ 'GET /me': apiError(401, 'unauthorized', 'invalid token') });
    renderDevAuth();
    expect(await screen.findByTestId('dev-sign-in')).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem(DEV_TOKEN_STORAGE_KEY)).toBeNull());
  });

  it('checks the username before asking the server', async () => {
    const server = mockApi({});
    const user = userEvent.setup();
    renderDevAuth();
    await user.type(screen.getByTestId('dev-username'), 'a b');
    await user.click(screen.getByTestId('dev-sign-in-submit'));
    expect(await screen.findByText(/3–30 letters/)).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });
});
