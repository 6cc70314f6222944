// The frame of an arena display: full screen, no sign-in, no navigation.
// It owns the one promise a display makes: never show a stale score
// without saying so. While the tab's socket is not live, a large
// "Reconnecting" mark says since when the numbers have not been confirmed,
// and the numbers dim; the socket reconnects by itself and resubscribes,
// and the next snapshot makes the screen whole again.

import { useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'jotai';
import { connectionStateAtom, useConnectionState } from '../../../lib/ws';
import { Logo } from '../../../components/ui/logo';
import '../display.css';

/** Hide the pointer and the full-screen button after this long without a move. */
const IDLE_AFTER_MS = 3000;

/** Re-renders every `intervalMs` with the current time (for clocks and "today"). */
export function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}

function useIdle(ms: number): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let t = setTimeout(() => setIdle(true), ms);
    const wake = () => {
      setIdle(false);
      clearTimeout(t);
      t = setTimeout(() => setIdle(true), ms);
    };
    window.addEventListener('pointermove', wake);
    window.addEventListener('keydown', wake);
    return () => {
      clearTimeout(t);
      window.removeEventListener('pointermove', wake);
      window.removeEventListener('keydown', wake);
    };
  }, [ms]);
  return idle;
}

/**
 * The connection as a display must tell it: `fresh` only while the socket
 * is live and the page holds data pushed through it; after the socket was
 * lost, `lostAt` is when (the numbers were confirmed up to then).
 */
export function useFreshness(hasLiveData: boolean) {
  const state = useConnectionState();
  const live = state === 'live';
  const [everLive, setEverLive] = useState(live);
  if (live && !everLive) setEverLive(true);
  // When the connection went: stamped as the state changes, not while rendering.
  const store = useStore();
  const [lostAt, setLostAt] = useState<number | null>(null);
  useEffect(() => {
    let seenLive = store.get(connectionStateAtom) === 'live';
    return store.sub(connectionStateAtom, () => {
      if (store.get(connectionStateAtom) === 'live') {
        seenLive = true;
        setLostAt(null);
      } else if (seenLive) {
        setLostAt((prev) => prev ?? Date.now());
      }
    });
  }, [store]);
  return { fresh: live && hasLiveData, reconnecting: !live && everLive, lostAt };
}

function clock(d: Date): string {
  return d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

export function ConnectionMark({
  fresh,
  reconnecting,
  lostAt,
  hasData,
  what = 'Scores',
  quiet = false,
}: {
  fresh: boolean;
  reconnecting: boolean;
  lostAt: number | null;
  hasData: boolean;
  /** What the screen shows, for "Scores as of 8:02:10 PM". */
  what?: string;
  /**
   * A healthy connection is a small dot with no word: on a screen whose
   * pill says the game's own state (LIVE, FINAL, "Starts 7:00 PM"), a
   * second "Live" about the socket reads as the game's (issue 26).
   */
  quiet?: boolean;
}) {
  if (fresh && quiet) {
    return <span className="dmark dmark--ok" data-testid="display-connection" data-state="live" role="img" aria-label="Connected" title="Connected" />;
  }
  if (fresh) {
    return (
      <span className="dmark dmark--live" data-testid="display-connection" data-state="live">
        <span className="dmark__dot" aria-hidden="true" />
        Live
      </span>
    );
  }
  const since = lostAt ? new Date(lostAt).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' }) : null;
  return (
    <span className={`dmark ${reconnecting ? 'dmark--lost' : 'dmark--connecting'}`} role="status" data-testid="display-connection" data-state={reconnecting ? 'reconnecting' : 'connecting'}>
      <span className="dmark__dot" aria-hidden="true" />
      <span className="dmark__text">
        {reconnecting ? 'Reconnecting…' : 'Connecting…'}
        {reconnecting && hasData && <span className="dmark__since">{since ? `${what} as of ${since}` : `${what} may be out of date`}</span>}
      </span>
    </span>
  );
}

export function DisplayFrame({
  title,
  subtitle,
  mark,
  stale,
  children,
  footer,
  testId,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  mark: ReactNode;
  /** Dim the numbers: they are not confirmed by a live connection. */
  stale: boolean;
  children: ReactNode;
  footer?: ReactNode;
  testId: string;
}) {
  const now = useNow(10_000);
  const idle = useIdle(IDLE_AFTER_MS);
  const [full, setFull] = useState(false);
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const canFull = typeof document !== 'undefined' && typeof document.documentElement.requestFullscreen === 'function';

  return (
    <div className={`display${stale ? ' display--stale' : ''}${idle ? ' display--idle' : ''}`} data-testid={testId} data-stale={stale}>
      <header className="display__top">
        <div className="display__brand">
          <Logo compact />
          <div className="display__titles">
            <p className="display__title">{title}</p>
            {subtitle && <p className="display__subtitle">{subtitle}</p>}
          </div>
        </div>
        <div className="display__right">
          {canFull && (
            <button type="button" className={`display__fullscreen${full ? ' display__fullscreen--gone' : ''}`} onClick={() => void document.documentElement.requestFullscreen().catch(() => undefined)}>
              Full screen
            </button>
          )}
          {mark}
          <span className="display__clock">{clock(now)}</span>
        </div>
      </header>
      <main className="display__main">{children}</main>
      {footer && <footer className="display__foot">{footer}</footer>}
    </div>
  );
}
