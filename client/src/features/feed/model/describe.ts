// Every feed item in plain words: a headline made of text and links (who,
// what, where), so the card renders it with <Link>s and tests read it as a
// sentence. Aggregated items say "Alice Ames and 4 others".

import type { UserSummary } from '../../../lib/api-types';
import { displayName, plural } from '../../../lib/format';
import type {
  EventChange,
  FeedEventResource,
  FeedItem,
  FeedPostResource,
  FeedRosterResource,
  FeedSeasonResource,
} from './types';

export interface Segment {
  text: string;
  /** In-app path when the words link somewhere. */
  to?: string;
}

/** The headline as one string (tests, aria labels, titles). */
export const sentence = (segments: readonly Segment[]): string => segments.map((s) => s.text).join('');

/** "Alice Ames", "Alice Ames and Bob Burr", "Alice Ames and 4 others"; null without actors. */
export function actorSegments(item: Pick<FeedItem, 'actors' | 'aggregatedData'>): Segment[] | null {
  const [first, second] = item.actors;
  if (!first) return null;
  const count = Math.max(item.aggregatedData.count, item.actors.length, 1);
  const link = (u: UserSummary): Segment => ({ text: displayName(u), to: `/users/${u.id}` });
  if (count === 1) return [link(first)];
  if (count === 2 && second) return [link(first), { text: ' and ' }, link(second)];
  const others = count - 1;
  return [link(first), { text: ` and ${others} ${plural(others, 'other')}` }];
}

const CHANGE_WORDS: Record<EventChange, string> = {
  TIME: 'time',
  PLACE: 'place',
  LIMITS: 'spots',
  CANCELLED: 'status',
};

/** "the time and place", "the time, place and spots". */
function changeList(changes: readonly EventChange[]): string {
  const words = changes.filter((c) => c !== 'CANCELLED').map((c) => CHANGE_WORDS[c]);
  if (words.length === 0) return 'the details';
  if (words.length === 1) return `the ${words[0]}`;
  return `the ${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const t = (text: string): Segment => ({ text });

function eventLink(e: FeedEventResource | null, fallback = 'an event'): Segment {
  return e ? { text: e.title, to: `/events/${e.id}` } : t(fallback);
}

function teamLink(r: FeedRosterResource | null): Segment {
  return r ? { text: r.teamName, to: `/teams/${r.teamId}` } : t('a team');
}

/** What an item says, per type. `viewerFirstName` greets in the welcome. */
export function describeFeedItem(item: FeedItem, viewerFirstName?: string | null): Segment[] {
  const who = actorSegments(item);
  switch (item.type) {
    case 'EVENT_CREATED': {
      const e = item.resource as FeedEventResource | null;
      if (!who) return [t('New on the schedule: '), eventLink(e)];
      return [...who, t(' created '), eventLink(e)];
    }
    case 'EVENT_UPDATED': {
      const e = item.resource as FeedEventResource | null;
      const changes = item.aggregatedData.changes ?? [];
      if (changes.includes('CANCELLED') || e?.cancelled) return [eventLink(e, 'An event'), t(' was cancelled')];
      return [eventLink(e, 'An event'), t(` changed ${changeList(changes)}`)];
    }
    case 'WELCOME_MESSAGE':
      return [t(viewerFirstName ? `Welcome to Rinkside, ${viewerFirstName}!` : 'Welcome to Rinkside!')];
    case 'FIRST_FOLLOW_ENCOURAGEMENT':
      return [t('Follow a few people, rinks and teams to fill your feed')];
    case 'USER_JOINED_TEAM':
      return [...(who ?? [t('Someone')]), t(' joined '), teamLink(item.resource as FeedRosterResource | null)];
    case 'TEAM_ROSTER_UPDATED': {
      const r = item.resource as FeedRosterResource | null;
      // A departure (a join is USER_JOINED_TEAM alone since issue 26; older items may be joins).
      return [t('Roster change on '), teamLink(r), ...(who ? [t(': '), ...who] : [])];
    }
    case 'SEASON_STARTED': {
      const s = item.resource as FeedSeasonResource | null;
      const season: Segment = s ? { text: s.name, to: `/seasons/${s.id}` } : t('A season');
      if (s?.facilityName && s.facilityId) return [season, t(' started at '), { text: s.facilityName, to: `/facilities/${s.facilityId}` }];
      return [season, t(' started')];
    }
    case 'EXTERNAL_GAME_IMPORTED': {
      // A sync's new games, about the season (docs/sync.md); items written
      // before that were about one event, and may still be in a feed.
      if (item.resourceType === 'EVENT') return [t('New league game on the schedule: '), eventLink(item.resource as FeedEventResource | null, 'a game')];
      const s = item.resource as FeedSeasonResource | null;
      const season: Segment = s ? { text: s.name, to: `/seasons/${s.id}` } : t('the league’s schedule');
      const games = item.aggregatedData.games;
      if (typeof games === 'number' && games > 0) return [t(`${games} league ${plural(games, 'game')} added to `), season];
      return [t('New league games added to '), season];
    }
    case 'POST_CREATED': {
      const p = item.resource as FeedPostResource | null;
      if (who) return [...who, t(' posted')];
      return [t(p?.authorName ? `${p.authorName} posted` : 'New post')];
    }
    default:
      return [t('Something happened')];
  }
}

/** "3 skater spots left · 1 goalie spot left", "Full", or null when there are no limits. */
export function spotsLeft(e: FeedEventResource): string | null {
  if (e.cancelled) return 'Cancelled';
  const parts: string[] = [];
  if (e.skaterSpotsLeft !== null) parts.push(e.skaterSpotsLeft > 0 ? `${e.skaterSpotsLeft} skater ${plural(e.skaterSpotsLeft, 'spot')} left` : 'Skaters full');
  if (e.goalieSpotsLeft !== null) parts.push(e.goalieSpotsLeft > 0 ? `${e.goalieSpotsLeft} goalie ${plural(e.goalieSpotsLeft, 'spot')} left` : 'Goalies full');
  return parts.length ? parts.join(' · ') : null;
}
