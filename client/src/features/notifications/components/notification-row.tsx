// One notification as a row: what happened, the detail, when; bold while
// unread. Opening it marks it read and goes to its event, roster or game.

import { Link } from 'react-router';
import { describeNotification } from '../model/describe';
import { ago } from '../model/when';
import type { AppNotification } from '../model/types';

export function NotificationRow({ n, onOpen }: { n: AppNotification; onOpen: (n: AppNotification) => void }) {
  const d = describeNotification(n);
  const unread = !n.readAt;
  return (
    <li className={`notif-row${unread ? ' notif-row--unread' : ''}`} data-testid="notification" data-type={n.type} data-unread={unread}>
      <Link to={d.href} className="notif-row__link" onClick={() => onOpen(n)}>
        {unread && <span className="notif-row__dot" aria-label="Unread" />}
        <span className="notif-row__text">
          <span className="notif-row__title">{d.title}</span>
          {d.body && <span className="notif-row__body">{d.body}</span>}
          <span className="notif-row__when">{ago(n.createdAt)}</span>
        </span>
      </Link>
    </li>
  );
}
