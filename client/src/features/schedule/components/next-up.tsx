// Home's first section: my next games and skates (two weeks ahead), with
// my standing on each and one tap to answer.

import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { ButtonLink } from '../../../components/ui/button';
import { CalendarIcon } from '../../../components/ui/icons';
import { useMySchedule } from '../api/schedule';
import { ScheduleList } from './schedule-row';
import '../schedule.css';

const SHOWN = 6;

export function NextUp() {
  const schedule = useMySchedule();
  const items = (schedule.data?.items ?? []).filter((i) => i.myState !== 'DECLINED').slice(0, SHOWN);
  return (
    <section className="next-up card" aria-labelledby="next-up-title" data-testid="next-up">
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
