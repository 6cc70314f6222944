// Money on screen and in forms. The server counts in integer minor units
// ("cents") of an ISO 4217 currency (docs/sides-and-bill.md › Money); this
// is the one place that turns them into "$17.50" and back.

/** The most an ice bill may be: 100,000.00 in the bill's currency (the server's 10,000,000 cents). */
export const MAX_COST_CENTS = 10_000_000;

/** Currencies a rink can pick on its form, most used first (the server accepts any ISO 4217 code). */
export const COMMON_CURRENCIES = ['CAD', 'USD', 'EUR', 'GBP', 'SEK', 'CHF', 'CZK', 'NOK', 'DKK', 'AUD', 'NZD'] as const;

const formatters = new Map<string, Intl.NumberFormat>();

/** A currency formatter, or null for a code Intl does not know (the caller falls back to "17.50 XYZ"). */
function formatter(currency: string, locale: string | undefined): Intl.NumberFormat | null {
  const key = `${locale ?? ''}|${currency}`;
  const known = formatters.get(key);
  if (known) return known;
  try {
    const f = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formatters.set(key, f);
    return f;
  } catch {
    return null;
  }
}

/** How many minor units a currency's major unit has: 2 for most, 0 for e.g. JPY. */
export function minorDigits(currency: string): number {
  return formatter(currency, 'en')?.resolvedOptions().maximumFractionDigits ?? 2;
}

/** "$17.50" (in the reader's locale; "CA$17.50" for CAD in en-US). `locale` is for tests. */
export function formatMoney(cents: number, currency: string, locale?: string): string {
  const digits = minorDigits(currency);
  const amount = cents / 10 ** digits;
  const f = formatter(currency, locale);
  if (f) return f.format(amount);
  return `${amount.toFixed(digits)} ${currency}`;
}

/** The symbol a money input shows before the amount ("$", "CA$", "€", "kr"). */
export function currencySymbol(currency: string, locale?: string): string {
  const f = formatter(currency, locale);
  return f?.formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
}

/** The amount as a form shows it for editing: "17.50", "" for none. */
export function centsToInput(cents: number | null, currency: string): string {
  if (cents === null) return '';
  const digits = minorDigits(currency);
  return (cents / 10 ** digits).toFixed(digits);
}

export type ParsedMoney = { cents: number } | { error: string };

/**
 * What a person typed, in cents: "17.5", "17.50", "$17.50", "1,250.00",
 * "17,50" (a decimal comma) and "CA$ 40" all read. The range is 0 to
 * 100,000.00 (`max`), and no more decimals than the currency has.
 */
export function parseMoney(raw: string, currency = 'USD', max = MAX_COST_CENTS): ParsedMoney {
  const digits = minorDigits(currency);
  // Letters and symbols around the number ("$", "CA$", "kr", "USD") are not the amount.
  const text = raw.trim().replace(/^[^\d.,-]+|[^\d.,]+$/g, '').replace(/\s/g, '');
  if (raw.trim() === '') return { error: 'Enter the cost of the ice.' };
  if (text.startsWith('-')) return { error: 'The cost cannot be negative.' };
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return { error: 'Enter an amount like 250 or 250.00.' };

  // Which separator is the decimal one: with both, the last; a lone "." is
  // decimal ("17.5"); a lone "," is decimal unless three digits follow it
  // ("17,50" but "1,250"). Any other separator groups thousands.
  const count = (c: string) => text.split(c).length - 1;
  let decimal: '.' | ',' | null = null;
  if (text.includes('.') && text.includes(',')) decimal = text.lastIndexOf('.') > text.lastIndexOf(',') ? '.' : ',';
  else if (text.includes('.')) decimal = count('.') === 1 ? '.' : null;
  else if (text.includes(',')) decimal = count(',') === 1 && text.length - text.lastIndexOf(',') - 1 !== 3 ? ',' : null;
  const at = decimal ? text.lastIndexOf(decimal) : -1;
  const whole = at >= 0 ? text.slice(0, at) : text;
  const fraction = at >= 0 ? text.slice(at + 1) : '';
  // What is left of the whole part may only group thousands by threes.
  const groups = whole.split(/[.,]/);
  if (/[.,]/.test(fraction) || (groups.length > 1 && (groups.slice(1).some((g) => g.length !== 3) || (groups[0] ?? '').length > 3))) return { error: 'Enter an amount like 250 or 250.00.' };
  if (fraction.length > digits) return { error: digits === 0 ? 'Whole amounts only.' : `At most ${digits} digits after the decimal point.` };
  const units = Number(groups.join('') || '0');
  const minor = Number((fraction + '0'.repeat(digits)).slice(0, digits) || '0');
  const cents = units * 10 ** digits + minor;
  if (!Number.isSafeInteger(cents)) return { error: 'Enter an amount like 250 or 250.00.' };
  if (cents > max) return { error: `At most ${formatMoney(max, currency)}.` };
  return { cents };
}
