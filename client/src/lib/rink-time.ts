// Event and game times, one rule everywhere (docs/conventions.md › Times on
// screen): a time is shown on the rink's clock, in the rink's zone, and
// labelled with the zone's short name ("EST") when the device's clock reads
// differently at that instant. Without a rink (an event with no facility)
// it is the device's clock, unlabelled. Every screen that shows an event's
// or a game's time formats it here.

/** The device's IANA zone (UTC when it cannot tell). */
export function deviceZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A short name of a zone at an instant, e.g. "EST" or "GMT+1". */
export function zoneAbbreviation(ms: number, zone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(new Date(ms));
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
  } catch {
    return zone;
  }
}

/** Whether two zones read the same wall clock (and day) at an instant. */
export function sameClock(ms: number, a: string, b: string): boolean {
  if (a === b) return true;
  const fmt = (z: string) => {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: z, hour: 'numeric', minute: 'numeric', day: 'numeric' }).format(new Date(ms));
    } catch {
      return z;
    }
  };
  return fmt(a) === fmt(b);
}

/** The zone to show a time in: the rink's when known (and valid), else the device's. */
export function shownZone(rinkZone: string | null | undefined, device: string = deviceZone()): string {
  if (!rinkZone) return device;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: rinkZone });
    return rinkZone;
  } catch {
    return device;
  }
}

/** The label a time at `ms` carries: the rink zone's short name when the device reads another clock, else null. */
export function zoneLabel(ms: number, rinkZone: string | null | undefined, device: string = deviceZone()): string | null {
  const zone = shownZone(rinkZone, device);
  return sameClock(ms, zone, device) ? null : zoneAbbreviation(ms, zone);
}

function fmt(zone: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(undefined, { ...opts, timeZone: zone });
}

const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** `YYYY-MM-DD` of an instant in a zone. */
function dayKeyIn(ms: number, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

/** "7:00 PM", on the rink's clock, without a label. */
export function rinkClock(iso: string, rinkZone: string | null | undefined, device: string = deviceZone()): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  return fmt(shownZone(rinkZone, device), TIME).format(new Date(ms));
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
  const f = fmt(zone, TIME);
  const text =
    !Number.isNaN(end) && end > start && dayKeyIn(start, zone) === dayKeyIn(end, zone) && typeof f.formatRange === 'function'
      ? f.formatRange(new Date(start), new Date(end))
      : f.format(new Date(start));
  const label = zoneLabel(start, rinkZone, device);
  return label ? `${text} ${label}` : text;
}

/** The calendar tile on cards ("SAT" / "28" / "NOV"), of the day at the rink. */
export function rinkDateTile(iso: string, rinkZone: string | null | undefined, device: string = deviceZone()): { weekday: string; day: string; month: string } {
  const ms = Date.parse(iso);
  const d = new Date(Number.isNaN(ms) ? 0 : ms);
  const zone = shownZone(rinkZone, device);
  return {
    weekday: fmt(zone, { weekday: 'short' }).format(d),
    day: fmt(zone, { day: 'numeric' }).format(d),
    month: fmt(zone, { month: 'short' }).format(d),
  };
}

/** `YYYY-MM-DD` of an instant on the rink's calendar ("" for a bad instant). */
export function rinkDayKey(iso: string, rinkZone: string | null | undefined, device: string = deviceZone()): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : dayKeyIn(ms, shownZone(rinkZone, device));
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
  const diff = days(dayKeyIn(ms, zone)) - days(dayKeyIn(now.getTime(), zone));
  if (diff === 0) return 'Today';
  if (diff === 1) return 'Tomorrow';
  if (diff === -1) return 'Yesterday';
  const sameYear = dayKeyIn(ms, zone).slice(0, 4) === dayKeyIn(now.getTime(), zone).slice(0, 4);
  return fmt(zone, { weekday: 'long', month: 'long', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) }).format(new Date(ms));
}
