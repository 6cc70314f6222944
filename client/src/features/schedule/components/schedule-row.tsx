// One game or event of a schedule: when (on the rink's clock, the zone
// named when it is not the viewer's), what, where, my standing, and the
// one-tap answers an event of mine offers.

import { Link } from 'react-router';
import type { ScheduleItem } from '../../../lib/api-types';
import { errorMessage } from '../../../lib/api';
import { EVENT_TYPE_LABELS } from '../../../lib/event-format';
import { Button } from '../../../components/ui/button';
import { useAnswer } from '../api/schedule';
import { answerLabel, answersFor, scoreLine, stateLabel, stateTone, zonedWhen } from '../model/schedule';

export function ScheduleRow({ item, showDay = true }: { item: ScheduleItem; showDay?: boolean }) {
  const when = zonedWhen(item);
  const answer = useAnswer();
  const label = stateLabel(item);
  const answers = answersFor(item);
  const kind = item.kind === 'GAME' ? 'League game' : item.eventType ? EVENT_TYPE_LABELS[item.eventType] : 'Event';
  const href = item.kind === 'GAME' ? `/games/${item.id}` : `/events/${item.id}`;
  const score = scoreLine(item);
  const cancelled = item.status === 'CANCELLED' || item.status === 'POSTPONED';
  return (
    <li className={`sched-row${cancelled ? ' sched-row--cancelled' : ''}`} data-testid={`schedule-${item.id}`}>
      <div className="sched-row__when">
        {showDay && <span className="sched-row__day">{when.day}</span>}
        <span className="sched-row__time">{when.time}</span>
        {when.zone && (
          <span className="sched-row__zone" title={`Rink time (${item.timeZone ?? ''})`}>
            {when.zone}
          </span>
        )}
      </div>
      <div className="sched-row__body">
        <span className="sched-row__chips">
          <span className="event-chip">{kind}</span>
          {cancelled && <span className="event-chip event-chip--cancelled">{item.status === 'POSTPONED' ? 'Postponed' : 'Cancelled'}</span>}
          {item.status === 'LIVE' && <span className="event-chip sched-row__live">Live</span>}
          {item.teamName && <span className="sched-row__team">{item.teamName}</span>}
        </span>
        <Link to={href} className="sched-row__title">
          {item.title}
        </Link>
        {(score || item.place) && <span className="sched-row__place">{score ?? item.place}</span>}
      </div>
      <div className="sched-row__state">
        {label && item.myState && (
          <span className={`sched-state sched-state--${stateTone(item.myState, item.status)}`} data-testid="my-state">
            {label}
          </span>
        )}
        {answers.length > 0 && (
          <span className="sched-row__answers">
            {answers.map((a) => (
              <Button
                key={a}
                size="sm"
                variant={a === 'ATTENDING' ? 'primary' : 'ghost'}
                loading={answer.isPending && answer.variables?.answer === a}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ eventId: item.id, answer: a })}
              >
                {answerLabel(a, item.myState)}
              </Button>
            ))}
          </span>
        )}
        {answer.isError && (
          <span className="sched-row__error" role="alert">
            {errorMessage(answer.error)}
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
