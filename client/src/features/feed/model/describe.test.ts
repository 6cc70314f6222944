import { describe, expect, it } from 'vitest';
import { describeFeedItem, sentence, spotsLeft } from './describe';
import { feedItem, person } from './test-fixtures';
import type { FeedEventResource, FeedRosterResource, FeedSeasonResource } from './types';

const alice = person('u-alice', 'Alice');
const bob = person('u-bob', 'Bob');
const roster: FeedRosterResource = { id: 'ro1', name: 'Ice Owls — Winter', teamId: 't1', teamName: 'Ice Owls', seasonId: null, seasonName: null };
const event: FeedEventResource = {
  id: 'e1',
  title: 'Friday pickup',
  eventType: 'PRACTICE',
  startDate: '2026-03-06T19:00:00Z',
  endDate: '2026-03-06T20:30:00Z',
  facilityId: 'f1',
  facilityName: 'Polar Arena',
  location: null,
  cancelled: false,
  maxSkaters: 20,
  maxGoalies: 2,
  attendingSkaters: 17,
  attendingGoalies: 2,
  skaterSpotsLeft: 3,
  goalieSpotsLeft: 0,
};

const season: FeedSeasonResource = { id: 's9', name: 'Fall 2026 Adult League', startDate: '2026-09-01T04:00:00Z', endDate: null, facilityId: 'f1', facilityName: 'Polar Arena' };

const say = (...args: Parameters<typeof describeFeedItem>) => sentence(describeFeedItem(...args));

describe('describeFeedItem', () => {
  it('aggregates joins as "X and N others"', () => {
    const item = feedItem({ id: 'i1', type: 'USER_JOINED_TEAM', resourceType: 'ROSTER', resource: roster, actors: [alice, bob], aggregatedData: { actorIds: ['u-alice', 'u-bob', 'c', 'd', 'e'], count: 5 } });
    expect(say(item)).toBe('Alice and 4 others joined Ice Owls');
  });

  it('names both people when two joined', () => {
    const item = feedItem({ id: 'i1', type: 'USER_JOINED_TEAM', resourceType: 'ROSTER', resource: roster, actors: [alice, bob], aggregatedData: { actorIds: ['u-alice', 'u-bob'], count: 2 } });
    expect(say(item)).toBe('Alice and Bob joined Ice Owls');
  });

  it('links the people and the team', () => {
    const segs = describeFeedItem(feedItem({ id: 'i1', type: 'USER_JOINED_TEAM', resource: roster, actors: [alice], aggregatedData: { actorIds: ['u-alice'], count: 1 } }));
    expect(segs.filter((s) => s.to).map((s) => s.to)).toEqual(['/users/u-alice', '/teams/t1']);
  });

  it.each([
    [{ type: 'POST_CREATED' as const, actors: [alice] }, 'Alice posted'],
    [{ type: 'EVENT_CREATED' as const, actors: [alice], resource: event }, 'Alice created Friday pickup'],
    [{ type: 'EVENT_UPDATED' as const, resource: event, aggregatedData: { actorIds: [], count: 1, changes: ['TIME' as const, 'PLACE' as const] } }, 'Friday pickup changed the time and place'],
    [{ type: 'EVENT_UPDATED' as const, resource: { ...event, cancelled: true }, aggregatedData: { actorIds: [], count: 1, changes: ['CANCELLED' as const] } }, 'Friday pickup was cancelled'],
    [{ type: 'TEAM_ROSTER_UPDATED' as const, actors: [bob], resource: roster }, 'Roster change on Ice Owls: Bob'],
    [{ type: 'SEASON_STARTED' as const, resource: { id: 's1', name: 'Winter 2026', startDate: '2026-01-05', endDate: null, facilityId: 'f1', facilityName: 'Polar Arena' } }, 'Winter 2026 started at Polar Arena'],
    [{ type: 'EXTERNAL_GAME_IMPORTED' as const, resourceType: 'EVENT' as const, resource: event }, 'New league game on the schedule: Friday pickup'],
    [{ type: 'EXTERNAL_GAME_IMPORTED' as const, resourceType: 'SEASON' as const, resource: season, aggregatedData: { actorIds: [], count: 1, games: 12 } }, '12 league games added to Fall 2026 Adult League'],
    [{ type: 'EXTERNAL_GAME_IMPORTED' as const, resourceType: 'SEASON' as const, resource: season, aggregatedData: { actorIds: [], count: 1, games: 1 } }, '1 league game added to Fall 2026 Adult League'],
    [{ type: 'EXTERNAL_GAME_IMPORTED' as const, resourceType: 'SEASON' as const, resource: season }, 'New league games added to Fall 2026 Adult League'],
    [{ type: 'FIRST_FOLLOW_ENCOURAGEMENT' as const }, 'Follow a few people, rinks and teams to fill your feed'],
  ])('says %o in plain words', (over, words) => {
    expect(say(feedItem({ id: 'i', ...over }))).toBe(words);
  });

  it('links a sync’s new games to their season, and an older item to its event', () => {
    const bySeason = describeFeedItem(feedItem({ id: 'g', type: 'EXTERNAL_GAME_IMPORTED', resourceType: 'SEASON', resourceId: 's9', resource: season, aggregatedData: { actorIds: [], count: 1, games: 12 } }));
    expect(bySeason.filter((s) => s.to).map((s) => s.to)).toEqual(['/seasons/s9']);
    const byEvent = describeFeedItem(feedItem({ id: 'g', type: 'EXTERNAL_GAME_IMPORTED', resourceType: 'EVENT', resource: event }));
    expect(byEvent.filter((s) => s.to).map((s) => s.to)).toEqual(['/events/e1']);
  });

  it('greets by first name', () => {
    expect(say(feedItem({ id: 'w', type: 'WELCOME_MESSAGE', resourceType: 'USER' }), 'Alice')).toBe('Welcome to Rinkside, Alice!');
  });
});

describe('spotsLeft', () => {
  it('says what is left per position', () => {
    expect(spotsLeft(event)).toBe('3 skater spots left · Goalies full');
  });
  it('says nothing without limits', () => {
    expect(spotsLeft({ ...event, skaterSpotsLeft: null, goalieSpotsLeft: null })).toBeNull();
  });
});
