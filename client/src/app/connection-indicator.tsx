import { useConnectionState, type ConnectionState } from '../lib/ws';

const LABELS: Record<ConnectionState, string> = {
  connecting: 'Connecting',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
};

const TITLES: Record<ConnectionState, string> = {
  connecting: 'Connecting to live updates',
  live: 'Live updates are on',
  reconnecting: 'Connection lost — reconnecting. Live scores and RSVPs will catch up.',
  offline: 'You are offline. Live updates resume when you reconnect.',
};

export function ConnectionIndicator() {
  const state = useConnectionState();
  return (
    <span className={`conn conn--${state}`} role="status" aria-live="polite" title={TITLES[state]} data-testid="connection-indicator" data-state={state}>
      <span className="conn__dot" aria-hidden="true" />
      <span className="conn__label">{LABELS[state]}</span>
    </span>
  );
}
