// One game or event of a schedule: when (on the rink's clock, the zone
// named when it is not the viewer's), what, where, my standing, and the
// one-tap answers an event of mine, or a league game of my roster, offers.

import { useRef } from 'react';
import { Link } from 'react-router';
import type { ScheduleItem } from '../../../lib/api-types';
import { ApiError, errorMessage } from '../../../lib/api';
import { useReveal } from '../../../lib/use-reveal';
import { EVENT_TYPE_LABELS } from '../../../lib/event-format';
import { Button } from '../../../components/ui/button';
import { useAnswer } from '../api/schedule';
import { answerLabel, answersFor, scoreLine, stateLabel, stateTone, zonedWhen } from '../model/schedule';

/**
 * A refusal in words: a deleted event is "Event not found", whatever the
 * server's phrase; a game's refusal (locked, over, off the roster) is the
 * server's own sentence.
 */
export function answerError(err: unknown, kind: ScheduleItem['kind'] = 'EVENT'): string {
  if (kind === 'EVENT' && err instanceof ApiError && err.status === 404) return 'Event not found. It may have been deleted.';
  return errorMessage(err);
}

export function ScheduleRow({ item, showDay = true }: { item: ScheduleItem; showDay?: boolean }) {
  const when = zonedWhen(item);
  const answer = useAnswer();
  const errorRef = useRef<HTMLSpanElement>(null);
  useReveal(errorRef, answer.isError);
  const label = stateLabel(item);
  const answers = answersFor(item);
  const kind = item.kind === 'GAME' ? 'League game' : item.eventType ? EVENT_TYPE_LABELS[item.eventType] : 'Event';
  const href = item.kind === 'GAME' ? `/games/${item.id}` : `/events/${item.id}`;
  const score = scoreLine(item);
  const cancelled = item.status === 'CANCELLED' || item.status === 'POSTPONED';
  return (
    <li className={`agenda-row${cancelled ? ' agenda-row--cancelled' : ''}`} data-testid={`schedule-${item.id}`}>
      <div className="agenda-row__when">
        {showDay && <span className="agenda-row__day">{when.day}</span>}
        <span className="agenda-row__time">{when.time}</span>
        {when.zone && (
          <span className="agenda-row__zone" title={`Rink time (${item.timeZone ?? ''})`}>
            {when.zone}
          </span>
        )}
      </div>
      <div className="agenda-row__body">
        <span className="agenda-row__chips">
          <span className="event-chip">{kind}</span>
          {cancelled && <span className="event-chip event-chip--cancelled">{item.status === 'POSTPONED' ? 'Postponed' : 'Cancelled'}</span>}
          {item.status === 'LIVE' && <span className="event-chip agenda-row__live">Live</span>}
          {item.teamName && <span className="agenda-row__team">{item.teamName}</span>}
        </span>
        <Link to={href} className="agenda-row__title">
          {item.title}
        </Link>
        {(score || item.place) && <span className="agenda-row__place">{score ?? item.place}</span>}
      </div>
      <div className="agenda-row__state">
        {label && item.myState && (
          <span className={`sched-state sched-state--${stateTone(item.myState, item.status)}`} data-testid="my-state">
            {label}
          </span>
        )}
        {answers.length > 0 && (
          <span className="agenda-row__answers">
            {answers.map((a) => (
              <Button
                key={a}
                size="sm"
                variant={a === 'ATTENDING' ? 'primary' : 'ghost'}
                loading={answer.isPending && answer.variables?.answer === a}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ item, answer: a })}
              >
                {answerLabel(a, item.myState)}
              </Button>
            ))}
          </span>
        )}
        {answer.isError && (
          <span className="agenda-row__error" role="alert" ref={errorRef} data-testid="answer-error">
            {answerError(answer.error, item.kind)}
          </span>
        )}
      </div>
    </li>
  );
}

export function ScheduleList({ items, testId }: { items: ScheduleItem[]; testId?: string }) {
  return (
    <ul className="sched-list" data-testid={testId}>
      {items.map((i) => (
        <ScheduleRow key={`${i.kind}-${i.id}`} item={i} />
      ))}
    </ul>
  );
}
