// Home's first section: my next games and skates (two weeks ahead), with
// my standing on each and one tap to answer. Which rows: model/next-up.ts.
// A game under way (or about to be) follows its `game:ID` topic, as the
// game page and the arena display do, so its score moves without a reload.

import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import type { GameDocument } from '../../../lib/api-types';
import { gameTopic } from '../../../lib/games';
import { useTopic } from '../../../lib/ws';
import { ButtonLink } from '../../../components/ui/button';
import { CalendarIcon } from '../../../components/ui/icons';
import { useMySchedule } from '../api/schedule';
import { selectNextUp, withLiveScore, worthWatching, type LiveScore } from '../model/next-up';
import { ScheduleList } from './schedule-row';
import '../schedule.css';

/** Subscribes to one game's topic while mounted and hands its score up. */
function GameWatch({ id, onScore }: { id: string; onScore: (id: string, score: LiveScore) => void }) {
  const live = useTopic<GameDocument>(gameTopic(id));
  const data = live?.data;
  const status = data?.status;
  const home = data?.homeScore;
  const away = data?.awayScore;
  useEffect(() => {
    if (status !== undefined && home !== undefined && away !== undefined) onScore(id, { status, homeScore: home, awayScore: away });
  }, [id, status, home, away, onScore]);
  return null;
}

export function NextUp() {
  const schedule = useMySchedule();
  const [live, setLive] = useState<Record<string, LiveScore>>({});
  const onScore = useCallback((id: string, score: LiveScore) => setLive((prev) => ({ ...prev, [id]: score })), []);
  const now = new Date();
  const items = selectNextUp(
    (schedule.data?.items ?? []).map((i) => withLiveScore(i, live[i.id])),
    now,
  );
  const watched = items.filter((i) => worthWatching(i, now));
  return (
    <section className="next-up card" aria-labelledby="next-up-title" data-testid="next-up">
      {watched.map((i) => (
        <GameWatch key={i.id} id={i.id} onScore={onScore} />
      ))}
      <div className="next-up__head">
        <h2 id="next-up-title" className="next-up__title">
          Next up <span className="next-up__sub">my games and skates</span>
        </h2>
        <ButtonLink to="/schedule" size="sm" variant="ghost" data-testid="my-schedule-link">
          My schedule
        </ButtonLink>
      </div>
      {schedule.isPending ? (
        <div className="sched-skeleton skeleton" aria-hidden="true" />
      ) : schedule.isError ? (
        <p className="muted">{errorMessage(schedule.error)}</p>
      ) : items.length === 0 ? (
        <Link to="/events" className="next-up__empty">
          <CalendarIcon size={22} />
          <span>
            <strong>Nothing in the next four weeks.</strong>
            <span className="muted"> Find a skate or a game and grab a spot.</span>
          </span>
        </Link>
      ) : (
        <ScheduleList items={items} testId="next-up-list" />
      )}
    </section>
  );
}
