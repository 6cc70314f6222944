// The words and the link of a notification, for the bell, the history page
// and the browser notification alike.

import { formatIn } from '../../../lib/time-zone';
import type { AppNotification, NotificationData } from './types';

export interface Described {
  /** One line: what happened. */
  title: string;
  /** The detail under it: which event, which team, the score. */
  body: string;
  /** Where opening it goes. */
  href: string;
}

function eventName(n: AppNotification): string {
  return n.data.title ?? 'An event';
}

function eventWhen(n: AppNotification): string {
  if (!n.data.startDate) return '';
  const where = n.data.facilityName ?? n.data.location ?? null;
  const when = formatIn(n.data.startDate, n.data.timezone, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  return where ? `${when} · ${where}` : when;
}

function reminderLead(minutes: number | undefined): string {
  if (!minutes) return 'Coming up';
  if (minutes % 1440 === 0) return minutes === 1440 ? 'Tomorrow' : `In ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'In an hour' : `In ${minutes / 60} hours`;
  return `In ${minutes} minutes`;
}

/** "1 goalie place open", "2 skater places and 1 goalie place open"; '' when nothing is counted. */
function openPlaces(open: NotificationData['open']): string {
  if (!open) return '';
  const part = (n: number | null, what: string) => (n && n > 0 ? `${n} ${what} ${n === 1 ? 'place' : 'places'}` : null);
  const parts = [part(open.skaters, 'skater'), part(open.goalies, 'goalie')].filter((p): p is string => p !== null);
  return parts.length ? `${parts.join(' and ')} open` : '';
}

function link(n: AppNotification): string {
  if (n.type === 'CHAT_MESSAGE' && n.data.conversationId) return `/chats/${encodeURIComponent(n.data.conversationId)}`;
  // A nudge or a reminder to answer opens the roster's board, where the answer is given.
  if ((n.type === 'AVAILABILITY_NUDGE' || n.type === 'AVAILABILITY_REMINDER') && n.data.rosterId) return `/rosters/${encodeURIComponent(n.data.rosterId)}`;
  const id = encodeURIComponent(n.resourceId);
  switch (n.resourceType) {
    case 'EVENT':
      return `/events/${id}`;
    case 'GAME':
      return `/games/${id}`;
    case 'ROSTER':
      return `/rosters/${id}`;
    default:
      return '/notifications';
  }
}

export function describeNotification(n: AppNotification): Described {
  const href = link(n);
  const d = n.data;
  const team = d.teamName ?? 'the team';
  const season = d.seasonName ? ` (${d.seasonName})` : '';
  const game = `${d.homeName ?? 'Home'} vs ${d.awayName ?? 'Away'}`;
  switch (n.type) {
    case 'WAITLIST_PROMOTED':
      return { title: `You're in: ${eventName(n)}`, body: `A spot opened and you moved off the waitlist. ${eventWhen(n)}`.trim(), href };
    case 'REMOVED_FROM_EVENT':
      return { title: `Taken off the list: ${eventName(n)}`, body: `An organiser removed you. ${eventWhen(n)}`.trim(), href };
    case 'EVENT_CANCELLED':
      return { title: `Cancelled: ${eventName(n)}`, body: [d.reason, eventWhen(n)].filter(Boolean).join(' · ') || 'This event will not take place.', href };
    case 'EVENT_MOVED': {
      const what = (d.changes ?? []).map((c) => (c === 'TIME' ? 'time' : 'place')).join(' and ') || 'details';
      return { title: `New ${what}: ${eventName(n)}`, body: `Now ${eventWhen(n)}`, href };
    }
    case 'EVENT_REMINDER': {
      const state = d.status === 'WAITLISTED' ? ' You are on the waitlist.' : '';
      return { title: `${reminderLead(d.minutesBefore)}: ${eventName(n)}`, body: `${eventWhen(n)}${state}`, href };
    }
    case 'SIDES_SET': {
      // One per person per event, replaced on every change: it says the side as it now is.
      const side = d.side === 'DARK' ? 'Dark' : d.side === 'LIGHT' ? 'Light' : null;
      return side
        ? { title: `You're on ${side} for ${eventName(n)}`, body: [side === 'Dark' ? 'Bring your dark jersey.' : 'Bring your white jersey.', eventWhen(n)].filter(Boolean).join(' · '), href }
        : { title: `Teams are set for ${eventName(n)}`, body: eventWhen(n) || 'See who is on which side.', href };
    }
    case 'SHORT_HANDED':
      return { title: `Short ${missingInWords(d.missing)}: ${eventName(n)}`, body: ['A call for subs is up on the sub market.', eventWhen(n)].filter(Boolean).join(' · '), href };
    case 'AVAILABILITY_NUDGE':
      return { title: `${d.byName || d.teamName || 'Your captain'} asks: are you in for ${gameMoment(d, 'short')}?`, body: answerBody(d), href };
    case 'AVAILABILITY_REMINDER':
      return { title: `${capitalisedFirst(gameMoment(d, 'long'))} — are you in?`, body: answerBody(d), href };
    case 'SUB_MATCH':
      return { title: `Sub wanted: ${eventName(n)}`, body: [openPlaces(d.open), eventWhen(n)].filter(Boolean).join(' · '), href };
    case 'JOIN_REQUEST_APPROVED':
      return { title: `Welcome to ${team}`, body: `Your request to join ${d.rosterName ?? 'the roster'}${season} was approved.`, href };
    case 'JOIN_REQUEST_REJECTED':
      return { title: `Not this time: ${team}`, body: `Your request to join ${d.rosterName ?? 'the roster'}${season} was declined.`, href };
    case 'ADDED_TO_ROSTER':
      return { title: `You're on ${team}`, body: `Added to ${d.rosterName ?? 'the roster'}${season}.`, href };
    case 'GAME_STARTED':
      return { title: `Puck drop: ${game}`, body: 'Your game is live. Follow the score.', href };
    case 'CHAT_MESSAGE':
      return { title: chatTitle(d), body: [d.from, d.preview].filter(Boolean).join(': '), href };
    case 'GAME_FINAL':
      return { title: `Final: ${d.homeName ?? 'Home'} ${d.homeScore ?? 0}, ${d.awayName ?? 'Away'} ${d.awayScore ?? 0}`, body: game, href };
    default:
      return { title: 'Something happened', body: '', href };
  }
}

/**
 * A game to answer, as a nudge or reminder names it: "Thu 9:30 PM vs Bears"
 * (`long`: "Thursday 9:30 PM vs Bears"), on the rink's clock; the game's
 * title stands in for an unknown opponent.
 */
function gameMoment(d: NotificationData, style: 'short' | 'long'): string {
  const iso = d.startDate;
  const when = iso ? formatIn(iso, d.timezone, { weekday: style, hour: 'numeric', minute: '2-digit' }, 'en-US') : '';
  if (d.opponent) return when ? `${when} vs ${d.opponent}` : `the game vs ${d.opponent}`;
  const title = d.title ?? 'the game';
  return when ? `${title}, ${when}` : title;
}

/** "3 new messages in Owls", "A new message in Owls". */
function chatTitle(d: NotificationData): string {
  const where = d.title ?? 'your team chat';
  const n = d.unread ?? 1;
  return n > 1 ? `${n} new messages in ${where}` : `A new message in ${where}`;
}

function capitalisedFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Under a nudge or reminder: the team, and where the answer goes. */
function answerBody(d: NotificationData): string {
  return [d.teamName, 'Answer in or out on the roster.'].filter(Boolean).join(' · ');
}

/** "3 skaters and 1 goalie" (the server's words for the game-day check). */
export function missingInWords(missing: { skaters: number; goalies: number } | undefined): string {
  const part = (n: number, one: string, many: string) => (n === 0 ? null : n === 1 ? `1 ${one}` : `${n} ${many}`);
  const parts = [part(missing?.skaters ?? 0, 'skater', 'skaters'), part(missing?.goalies ?? 0, 'goalie', 'goalies')].filter(Boolean);
  return parts.length ? parts.join(' and ') : 'players';
}
