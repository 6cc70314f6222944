// One feed item: who did what in plain words, when, and what it is about
// (the event's time and spots left, the team, the season, the post text).
// A sync's new league games are about their season (older items: one event).

import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/avatar';
import { CalendarIcon, RinkIcon, StarIcon, TeamIcon } from '../../../components/ui/icons';
import { EVENT_TYPE_LABELS, eventWhen, relativeTime } from '../../../lib/event-format';
import { displayName } from '../../../lib/format';
import { describeFeedItem, spotsLeft, type Segment } from '../model/describe';
import type { FeedEventResource, FeedItem, FeedPostResource, FeedRosterResource, FeedSeasonResource } from '../model/types';
import { PostText } from './post-text';
import { SuggestionList } from './suggestions';

export function FeedCard({ item, fresh = false, viewerFirstName }: { item: FeedItem; fresh?: boolean; viewerFirstName?: string | null }) {
  const segments = describeFeedItem(item, viewerFirstName);
  return (
    <article
      className={`feed-card feed-card--${item.type.toLowerCase().replace(/_/g, '-')}${fresh ? ' feed-card--fresh' : ''}`}
      data-testid="feed-item"
      data-type={item.type}
    >
      <FeedMedia item={item} />
      <div className="feed-card__main">
        <p className="feed-card__headline">
          <Headline segments={segments} />
          <time className="feed-card__time" dateTime={item.updatedAt} title={new Date(item.updatedAt).toLocaleString()}>
            {relativeTime(item.updatedAt)}
          </time>
        </p>
        <FeedBody item={item} />
      </div>
    </article>
  );
}

function Headline({ segments }: { segments: Segment[] }) {
  return (
    <span className="feed-card__words" data-testid="feed-headline">
      {segments.map((s, i) =>
        s.to ? (
          <Link key={i} to={s.to}>
            {s.text}
          </Link>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </span>
  );
}

function FeedMedia({ item }: { item: FeedItem }) {
  const actor = item.actors[0];
  if (actor && item.type !== 'EVENT_UPDATED' && item.type !== 'EXTERNAL_GAME_IMPORTED') {
    const stacked = item.actors[1] && item.aggregatedData.count > 1 ? item.actors[1] : null;
    return (
      <span className={`feed-card__media${stacked ? ' feed-card__media--stack' : ''}`} aria-hidden="true">
        <Avatar name={displayName(actor)} src={actor.profileImage} size="md" />
        {stacked && <Avatar name={displayName(stacked)} src={stacked.profileImage} size="xs" />}
      </span>
    );
  }
  const icon =
    item.resourceType === 'EVENT' ? <CalendarIcon size={20} /> : item.resourceType === 'SEASON' ? <RinkIcon size={20} /> : item.resourceType === 'ROSTER' ? <TeamIcon size={20} /> : <StarIcon size={20} />;
  return (
    <span className="feed-card__media feed-card__media--icon" aria-hidden="true">
      {icon}
    </span>
  );
}

function FeedBody({ item }: { item: FeedItem }) {
  const r = item.resource;
  switch (item.type) {
    case 'EVENT_CREATED':
    case 'EVENT_UPDATED':
      return r ? <EventBlock event={r as FeedEventResource} /> : null;
    case 'EXTERNAL_GAME_IMPORTED':
      if (!r) return null;
      return item.resourceType === 'SEASON' ? <SeasonBlock season={r as FeedSeasonResource} /> : <EventBlock event={r as FeedEventResource} />;
    case 'USER_JOINED_TEAM':
    case 'TEAM_ROSTER_UPDATED': {
      const roster = r as FeedRosterResource | null;
      if (!roster) return null;
      return (
        <Link to={`/rosters/${roster.id}`} className="feed-block">
          <span className="feed-block__title">{roster.name}</span>
          <span className="feed-block__meta">{[roster.teamName, roster.seasonName].filter(Boolean).join(' · ')}</span>
        </Link>
      );
    }
    case 'SEASON_STARTED':
      return r ? <SeasonBlock season={r as FeedSeasonResource} /> : null;
    case 'POST_CREATED': {
      const p = r as FeedPostResource | null;
      return p ? <PostText content={p.content} className="feed-card__post" /> : <p className="muted">This post was removed.</p>;
    }
    case 'WELCOME_MESSAGE':
      return <p className="feed-card__note">Posts, games and roster moves from the people, rinks and teams you follow show up here as they happen.</p>;
    case 'FIRST_FOLLOW_ENCOURAGEMENT': {
      const s = item.aggregatedData.suggestions;
      return s ? <SuggestionList suggestions={s} /> : null;
    }
    default:
      return null;
  }
}

function SeasonBlock({ season: s }: { season: FeedSeasonResource }) {
  const range = [s.startDate, s.endDate].filter((d): d is string => !!d).map((d) => new Date(d).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }));
  return (
    <Link to={`/seasons/${s.id}`} className="feed-block">
      <span className="feed-block__title">{s.name}</span>
      <span className="feed-block__meta">{[range.join(' – '), s.facilityName].filter(Boolean).join(' · ')}</span>
    </Link>
  );
}

function EventBlock({ event }: { event: FeedEventResource }) {
  const spots = spotsLeft(event);
  const place = event.facilityName ?? event.location;
  return (
    <Link to={`/events/${event.id}`} className={`feed-block feed-block--event${event.cancelled ? ' feed-block--cancelled' : ''}`}>
      <span className="feed-block__kicker">{EVENT_TYPE_LABELS[event.eventType] ?? 'Event'}</span>
      <span className="feed-block__title">{event.title}</span>
      <span className="feed-block__meta">{[eventWhen(event), place].filter(Boolean).join(' · ')}</span>
      {spots && (
        <span className={`feed-block__spots${event.cancelled ? ' feed-block__spots--off' : ''}`} data-testid="spots-left">
          {spots}
        </span>
      )}
    </Link>
  );
}
