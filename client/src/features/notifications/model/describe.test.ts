import { describe, expect, it } from 'vitest';
import { describeNotification } from './describe';
import { makeNotification } from './test-fixtures';

describe('describeNotification', () => {
  it('says what happened and links to the thing', () => {
    const promoted = describeNotification(makeNotification());
    expect(promoted.title).toBe("You're in: Tuesday pickup");
    expect(promoted.body).toContain('Maple Arena');
    expect(promoted.href).toBe('/events/e-1');

    const final = describeNotification(
      makeNotification({ type: 'GAME_FINAL', resourceType: 'GAME', resourceId: 'g-1', data: { homeName: 'Ice Owls', awayName: 'Hawks', homeScore: 3, awayScore: 2 } }),
    );
    expect(final.title).toBe('Final: Ice Owls 3, Hawks 2');
    expect(final.href).toBe('/games/g-1');

    const approved = describeNotification(
      makeNotification({ type: 'JOIN_REQUEST_APPROVED', resourceType: 'ROSTER', resourceId: 'r-1', data: { teamName: 'Ice Owls', rosterName: 'Owls A', seasonName: 'Winter 2026' } }),
    );
    expect(approved.title).toBe('Welcome to Ice Owls');
    expect(approved.body).toBe('Your request to join Owls A (Winter 2026) was approved.');
    expect(approved.href).toBe('/rosters/r-1');
  });

  it('counts a chat’s unread messages, quotes the newest, and opens the conversation', () => {
    const chat = makeNotification({
      type: 'CHAT_MESSAGE',
      resourceType: 'CONVERSATION',
      resourceId: 'roster-r-1',
      data: { conversationId: 'roster-r-1', title: 'Owls', from: 'Sid', preview: 'see you at 9', unread: 3 },
    });
    expect(describeNotification(chat)).toEqual({ title: '3 new messages in Owls', body: 'Sid: see you at 9', href: '/chats/roster-r-1' });
    expect(describeNotification({ ...chat, data: { ...chat.data, unread: 1 } }).title).toBe('A new message in Owls');
  });

  it('words reminders by how far ahead they are, and moves by what moved', () => {
    const base = makeNotification({ type: 'EVENT_REMINDER' });
    expect(describeNotification({ ...base, data: { ...base.data, minutesBefore: 1440 } }).title).toBe('Tomorrow: Tuesday pickup');
    expect(describeNotification({ ...base, data: { ...base.data, minutesBefore: 120, status: 'WAITLISTED' } }).title).toBe('In 2 hours: Tuesday pickup');
    expect(describeNotification({ ...base, data: { ...base.data, minutesBefore: 120, status: 'WAITLISTED' } }).body).toContain('waitlist');
    expect(describeNotification({ ...base, data: { ...base.data, minutesBefore: 30 } }).title).toBe('In 30 minutes: Tuesday pickup');
    const moved = makeNotification({ type: 'EVENT_MOVED', data: { title: 'Tuesday pickup', changes: ['TIME', 'PLACE'], startDate: '2026-12-02T03:00:00.000Z' } });
    expect(describeNotification(moved).title).toBe('New time and place: Tuesday pickup');
  });

  it('says why an event was cancelled when the organiser did', () => {
    const base = makeNotification({ type: 'EVENT_CANCELLED' });
    const why = describeNotification({ ...base, data: { ...base.data, reason: 'Zamboni broke down.' } });
    expect(why.title).toBe('Cancelled: Tuesday pickup');
    expect(why.body).toMatch(/^Zamboni broke down\. · /);
    expect(describeNotification({ ...base, data: { ...base.data, reason: null } }).body).not.toContain('null');
  });

  it('words a sub match by the places open, and opens the event', () => {
    const base = makeNotification({ type: 'SUB_MATCH' });
    const goalie = describeNotification({ ...base, data: { ...base.data, open: { skaters: null, goalies: 1 } } });
    expect(goalie.title).toBe('Sub wanted: Tuesday pickup');
    expect(goalie.body).toMatch(/^1 goalie place open · /);
    expect(goalie.body).toContain('Maple Arena');
    expect(goalie.href).toBe('/events/e-1');
    const both = describeNotification({ ...base, data: { ...base.data, open: { skaters: 2, goalies: 1 } } });
    expect(both.body).toMatch(/^2 skater places and 1 goalie place open · /);
  });

  it('words a side by its jersey, and falls back to "teams are set" without one', () => {
    const base = makeNotification({ type: 'SIDES_SET' });
    const dark = describeNotification({ ...base, data: { ...base.data, side: 'DARK' } });
    expect(dark.title).toBe("You're on Dark for Tuesday pickup");
    expect(dark.body).toMatch(/^Bring your dark jersey\. · /);
    expect(dark.body).toContain('Maple Arena');
    expect(dark.href).toBe('/events/e-1');
    expect(describeNotification({ ...base, data: { ...base.data, side: 'LIGHT' } }).title).toBe("You're on Light for Tuesday pickup");
    const unknown = describeNotification({ ...base, data: { ...base.data, side: null } });
    expect(unknown.title).toBe('Teams are set for Tuesday pickup');
  });

  it('tells the organiser what the game-day check found missing', () => {
    const base = makeNotification({ type: 'SHORT_HANDED' });
    const short = describeNotification({ ...base, data: { ...base.data, missing: { skaters: 3, goalies: 1 } } });
    expect(short.title).toBe('Short 3 skaters and 1 goalie: Tuesday pickup');
    expect(short.body).toMatch(/^A call for subs is up on the sub market\. · /);
    expect(short.href).toBe('/events/e-1');
    expect(describeNotification({ ...base, data: { ...base.data, missing: { skaters: 0, goalies: 1 } } }).title).toBe('Short 1 goalie: Tuesday pickup');
  });

  it('asks for an answer to a game of my roster, and opens the roster', () => {
    const data = { title: 'Ice Owls vs Bears', startDate: '2026-11-27T02:30:00.000Z', timezone: 'America/Toronto', rosterId: 'r-1', gameId: 'g-1', kind: 'GAME' as const, teamName: 'Ice Owls', opponent: 'Bears' };
    const nudge = describeNotification(makeNotification({ type: 'AVAILABILITY_NUDGE', resourceType: 'GAME', resourceId: 'g-1', data: { ...data, byName: 'Alex' } }));
    expect(nudge.title).toBe('Alex asks: are you in for Thu 9:30 PM vs Bears?');
    expect(nudge.body).toBe('Ice Owls · Answer in or out on the roster.');
    expect(nudge.href).toBe('/rosters/r-1');
    // Without who nudged, the team asks; without an opponent, the game's title says which.
    const plain = describeNotification(makeNotification({ type: 'AVAILABILITY_NUDGE', resourceType: 'GAME', resourceId: 'g-1', data: { ...data, opponent: null } }));
    expect(plain.title).toBe('Ice Owls asks: are you in for Ice Owls vs Bears, Thu 9:30 PM?');

    const reminder = describeNotification(makeNotification({ type: 'AVAILABILITY_REMINDER', resourceType: 'GAME', resourceId: 'g-1', data }));
    expect(reminder.title).toBe('Thursday 9:30 PM vs Bears — are you in?');
    expect(reminder.href).toBe('/rosters/r-1');
    // An imported game names its event; without a roster id the link falls back to the resource.
    const imported = describeNotification(makeNotification({ type: 'AVAILABILITY_REMINDER', resourceType: 'EVENT', resourceId: 'e-9', data: { ...data, rosterId: undefined, kind: 'EVENT' } }));
    expect(imported.href).toBe('/events/e-9');
  });
});
