// Time zones, in one place: which zone a time is shown in, reading an
// instant on a zone's clock and calendar, turning a day or a wall-clock
// time at a rink (or on this device) into an instant, and the list of
// zones a facility may pick. Built on `Intl` alone: the formats are the
// browser's, in the viewer's locale, so a library of our own formats would
// only change how things read.
//
// The rule for event and game times (docs/conventions.md › Times on
// screen): a time is shown on the rink's clock, labelled with the zone's
// short name ("EST") when the device's clock reads differently at that
// instant; without a rink (or with a zone this browser cannot read) it is
// the device's clock, unlabelled. The `rink…` functions below apply it.

// ── Zones ──────────────────────────────────────────────────────────────────

/** The device's IANA zone (UTC when it cannot tell). */
export function deviceZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const known = new Map<string, boolean>();

/** Whether this browser can show times in `zone`. */
export function isZone(zone: string): boolean {
  let ok = known.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    known.set(zone, ok);
  }
  return ok;
}

/** The zone to show a time in: the rink's when known (and valid), else the device's. */
export function shownZone(rinkZone: string | null | undefined, device: string = deviceZone()): string {
  return rinkZone && isZone(rinkZone) ? rinkZone : device;
}

// Formatters are costly to build and a chat or a schedule formats hundreds
// of times with the same few options; they are kept, keyed by what made them.
const formatters = new Map<string, Intl.DateTimeFormat>();
/** Enough for every zone and option set a session uses; past it the cache starts over. */
const MAX_FORMATTERS = 500;

function formatter(locale: string | undefined, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify([locale ?? '', opts]);
  let f = formatters.get(key);
  if (!f) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    f = new Intl.DateTimeFormat(locale, opts);
    formatters.set(key, f);
  }
  return f;
}

function toMs(at: number | string | Date): number {
  if (typeof at === 'number') return at;
  if (typeof at === 'string') return Date.parse(at);
  return at.getTime();
}

/**
 * An instant as `zone`'s clock reads it, in `opts` (no `timeZone`) and
 * `locale` (the viewer's by default). The device's clock without a zone or
 * for one this browser cannot read; '' for an unreadable instant.
 */
export function formatIn(at: number | string | Date, zone: string | null | undefined, opts: Intl.DateTimeFormatOptions, locale?: string): string {
  const ms = toMs(at);
  if (Number.isNaN(ms)) return '';
  return formatter(locale, { ...opts, timeZone: shownZone(zone) }).format(new Date(ms));
}

/** A short name of a zone at an instant, e.g. "EST" or "GMT+1". */
export function zoneAbbreviation(ms: number, zone: string): string {
  if (!isZone(zone)) return zone;
  const parts = formatter('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(new Date(ms));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** "UTC−05:00"-style offset of a zone (now, by default), for the zone picker; '' for an unknown zone. */
export function zoneOffsetName(zone: string, at: number = Date.now()): string {
  if (!isZone(zone)) return '';
  const parts = formatter('en-US', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(new Date(at));
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
  return name.replace('GMT', 'UTC') || 'UTC';
}

/** A zone as people read it: "America/New York" for `America/New_York`. */
export function zoneName(zone: string): string {
  return zone.replace(/_/g, ' ');
}

/** Whether two zones read the same wall clock (and day) at an instant. */
export function sameClock(ms: number, a: string, b: string): boolean {
  if (a === b) return true;
  const read = (z: string) => (isZone(z) ? formatter('en-US', { timeZone: z, hour: 'numeric', minute: 'numeric', day: 'numeric' }).format(new Date(ms)) : z);
  return read(a) === read(b);
}

/** The label a time at `ms` carries: the rink zone's short name when the device reads another clock, else null. */
export function zoneLabel(ms: number, rinkZone: string | null | undefined, device: string = deviceZone()): string | null {
  const zone = shownZone(rinkZone, device);
  return sameClock(ms, zone, device) ? null : zoneAbbreviation(ms, zone);
}

// ── An instant on a zone's clock and calendar ──────────────────────────────

/** What a zone's wall clock reads at an instant (month 1–12, hour 0–23). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock of `zone` at `ms`; null for a zone this browser cannot read. */
export function wallClock(ms: number, zone: string): WallClock | null {
  if (Number.isNaN(ms) || !isZone(zone)) return null;
  const parts = formatter('en-US', {
    timeZone: zone,
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
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of an instant on a zone's calendar (the device's for an unknown zone); '' for a bad instant. */
export function dayKey(at: number | string | Date, zone: string | null | undefined): string {
  return formatIn(at, zone, { year: 'numeric', month: '2-digit', day: '2-digit' }, 'en-CA');
}

/** How far the zone's wall clock is ahead of UTC at `ms`, in milliseconds (0 for an unknown zone). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const w = wallClock(ms, zone);
  if (!w) return 0;
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

// ── Days at a rink (a season runs from one day to another there) ───────────

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first and last years a date may fall in (the server's rule: 1900–2200). */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2200;

/** A picked day's year is one the server takes ("9999-12-31" is not). */
export function dayInRange(day: string): boolean {
  const m = DAY_RE.exec(day.trim());
  const year = m ? Number(m[1]) : NaN;
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

/**
 * `YYYY-MM-DD` at the rink → the instant that day starts (00:00:00) or ends
 * (23:59:59) there, as RFC 3339 UTC. Null for a malformed day.
 */
export function zonedDayToIso(day: string, zone: string, edge: 'start' | 'end'): string | null {
  const m = DAY_RE.exec(day.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, s] = edge === 'start' ? [0, 0, 0] : [23, 59, 59];
  const wanted = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wanted);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  // Guess with the offset at the wall time, then once more with the offset
  // at the guess (that settles days on which the clocks change).
  let ms = wanted - zoneOffsetMs(wanted, zone);
  ms = wanted - zoneOffsetMs(ms, zone);
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** An instant → `YYYY-MM-DD` at the rink ('' when the instant or the zone is unreadable). */
export function isoToZonedDay(iso: string, zone: string): string {
  const w = wallClock(Date.parse(iso), zone);
  return w ? `${w.year}-${pad2(w.month)}-${pad2(w.day)}` : '';
}

/** "Sep 1, 2026" as the day is at the rink. */
export function formatZonedDay(iso: string, zone: string): string {
  return formatIn(iso, zone, { month: 'short', day: 'numeric', year: 'numeric' });
}

/** "Sep 1, 2026 – Mar 31, 2027" at the rink. */
export function formatDayRange(startIso: string, endIso: string, zone: string): string {
  return `${formatZonedDay(startIso, zone)} – ${formatZonedDay(endIso, zone)}`;
}

// ── This device's wall clock, for `<input type="datetime-local">` ─────────

/** `<input type="datetime-local">` value for an RFC 3339 time, on the device's clock. */
export function toLocalInput(iso: string | null | undefined): string {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** RFC 3339 (UTC) for a `datetime-local` value; null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

// ── Event and game times on the rink's clock ───────────────────────────────

const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** "7:00 PM", on the rink's clock, without a label ('' for a bad instant). */
export function rinkClock(iso: string, rinkZone: string | null | undefined, device: string = deviceZone()): string {
  return formatIn(iso, shownZone(rinkZone, device), TIME);
}

/**
 * "7:00 – 8:30 PM", "7:00 PM" without an end (or one on another day at the
 * rink), then " EST" when the device's clock reads differently.
 */
export function rinkTimeRange(startIso: string, endIso: string | null | undefined, rinkZone: string | null | undefined, device: string = deviceZone()): string {
  const start = Date.parse(startIso);
  if (Number.isNaN(start)) return '';
  const zone = shownZone(rinkZone, device);
  const end = endIso ? Date.parse(endIso) : NaN;
  const f = formatter(undefined, { ...TIME, timeZone: zone });
  const text =
    !Number.isNaN(end) && end > start && dayKey(start, zone) === dayKey(end, zone) && typeof f.formatRange === 'function'
      ? f.formatRange(new Date(start), new Date(end))
      : f.format(new Date(start));
  const label = zoneLabel(start, rinkZone, device);
  return label ? `${text} ${label}` : text;
}

/** The calendar tile on cards ("SAT" / "28" / "NOV"), of the day at the rink. */
export function rinkDateTile(iso: string, rinkZone: string | null | undefined, device: string = deviceZone()): { weekday: string; day: string; month: string } {
  const ms = Date.parse(iso);
  const at = Number.isNaN(ms) ? 0 : ms;
  const zone = shownZone(rinkZone, device);
  return {
    weekday: formatIn(at, zone, { weekday: 'short' }),
    day: formatIn(at, zone, { day: 'numeric' }),
    month: formatIn(at, zone, { month: 'short' }),
  };
}

/** `YYYY-MM-DD` of an instant on the rink's calendar ("" for a bad instant). */
export function rinkDayKey(iso: string, rinkZone: string | null | undefined, device: string = deviceZone()): string {
  return dayKey(iso, shownZone(rinkZone, device));
}

/**
 * "Today", "Tomorrow", "Yesterday" — counted on the rink's calendar — else
 * "Saturday, November 28" (the year added when it is not this year).
 */
export function rinkDayLabel(iso: string, rinkZone: string | null | undefined, now: Date = new Date(), device: string = deviceZone()): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const zone = shownZone(rinkZone, device);
  const days = (key: string) => Date.parse(`${key}T00:00:00Z`) / 86_400_000;
  const diff = days(dayKey(ms, zone)) - days(dayKey(now, zone));
  if (diff === 0) return 'Today';
  if (diff === 1) return 'Tomorrow';
  if (diff === -1) return 'Yesterday';
  const sameYear = dayKey(ms, zone).slice(0, 4) === dayKey(now, zone).slice(0, 4);
  return formatIn(ms, zone, { weekday: 'long', month: 'long', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) });
}

// ── The zones a facility may be in ─────────────────────────────────────────

// When the browser cannot list its zones: the ones hockey is mostly played in.
const FALLBACK_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'America/Halifax',
  'America/St_Johns',
  'America/Toronto',
  'America/Vancouver',
  'America/Edmonton',
  'America/Winnipeg',
  'America/Regina',
  'Europe/London',
  'Europe/Stockholm',
  'Europe/Helsinki',
  'Europe/Prague',
  'Europe/Berlin',
  'Europe/Zurich',
  'Europe/Riga',
  'Europe/Moscow',
  'Asia/Tokyo',
  'Australia/Melbourne',
  'UTC',
];

let allZones: string[] | null = null;

/** Every IANA zone the browser knows (UTC among them), else the short list above. */
export function allTimeZones(): string[] {
  if (allZones) return allZones;
  try {
    const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
    const list = intl.supportedValuesOf?.('timeZone');
    allZones = list && list.length > 0 ? [...list] : FALLBACK_ZONES;
    if (!allZones.includes('UTC')) allZones.push('UTC');
  } catch {
    allZones = FALLBACK_ZONES;
  }
  return allZones;
}

/** Zones matching what is typed: a city or region starting with it first, then any containing it. */
export function searchTimeZones(query: string): string[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, '_');
  const zones = allTimeZones();
  if (!q) return zones;
  const starts: string[] = [];
  const contains: string[] = [];
  for (const z of zones) {
    const lz = z.toLowerCase();
    const city = lz.slice(lz.lastIndexOf('/') + 1);
    if (city.startsWith(q) || lz.startsWith(q)) starts.push(z);
    else if (lz.includes(q)) contains.push(z);
  }
  return [...starts, ...contains];
}
