// IANA time zones for the facility form, from the browser when it can list
// them, else a short list of the zones hockey is mostly played in.

const FALLBACK = [
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

let cached: string[] | null = null;

export function allTimeZones(): string[] {
  if (cached) return cached;
  try {
    const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
    const list = intl.supportedValuesOf?.('timeZone');
    cached = list && list.length > 0 ? [...list] : FALLBACK;
    if (!cached.includes('UTC')) cached.push('UTC');
  } catch {
    cached = FALLBACK;
  }
  return cached;
}

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** "UTC−05:00" style offset right now, for the picker's second line. */
export function currentOffset(tz: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'shortOffset' }).formatToParts(new Date());
    const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
    return name.replace('GMT', 'UTC') || 'UTC';
  } catch {
    return '';
  }
}

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
