// Calendar days at a rink. A season runs from one day to another in the
// facility's time zone, while the server stores instants (RFC 3339): these
// helpers turn a picked day into the instant it starts (or ends) at the rink,
// and an instant back into the rink's day, whatever zone the browser is in.

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(ms: number, tz: string): Wall | null {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(ms));
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? NaN);
    const wall = { year: get('year'), month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute'), second: get('second') };
    return Object.values(wall).some(Number.isNaN) ? null : wall;
  } catch {
    return null;
  }
}

/** How far the zone's wall clock is ahead of UTC at `ms`, in milliseconds. */
export function zoneOffsetMs(ms: number, tz: string): number {
  const w = wallClock(ms, tz);
  if (!w) return 0;
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `YYYY-MM-DD` at the rink → the instant that day starts (00:00:00) or ends
 * (23:59:59) there, as RFC 3339 UTC. Null for a malformed day.
 */
export function zonedDayToIso(day: string, tz: string, edge: 'start' | 'end'): string | null {
  const m = DAY_RE.exec(day.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, s] = edge === 'start' ? [0, 0, 0] : [23, 59, 59];
  const wanted = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wanted);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  // Guess with the offset at the wall time, then once more with the offset
  // at the guess (that settles days on which the clocks change).
  let ms = wanted - zoneOffsetMs(wanted, tz);
  ms = wanted - zoneOffsetMs(ms, tz);
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** The first and last years a date may fall in (the server's rule: 1900–2200). */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2200;

/** A picked day's year is one the server takes ("9999-12-31" is not). */
export function dayInRange(day: string): boolean {
  const m = DAY_RE.exec(day.trim());
  const year = m ? Number(m[1]) : NaN;
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

/** An instant → `YYYY-MM-DD` at the rink ('' when unreadable). */
export function isoToZonedDay(iso: string, tz: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const w = wallClock(ms, tz);
  if (!w) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** "Sep 1, 2026" as the day is at the rink. */
export function formatZonedDay(iso: string, tz: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: tz, month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(ms));
  } catch {
    return new Date(ms).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
  }
}

/** "Sep 1, 2026 – Mar 31, 2027" at the rink. */
export function formatDayRange(startIso: string, endIso: string, tz: string): string {
  return `${formatZonedDay(startIso, tz)} – ${formatZonedDay(endIso, tz)}`;
}
