import { describe, expect, it } from 'vitest';
import { centsToInput, currencySymbol, formatMoney, MAX_COST_CENTS, parseMoney } from './money';

describe('formatMoney', () => {
  it('writes cents as the currency reads, in the given locale', () => {
    expect(formatMoney(1750, 'USD', 'en-US')).toBe('$17.50');
    expect(formatMoney(0, 'USD', 'en-US')).toBe('$0.00');
    expect(formatMoney(125_000, 'USD', 'en-US')).toBe('$1,250.00');
    expect(formatMoney(1750, 'CAD', 'en-CA')).toBe('$17.50');
    expect(formatMoney(1750, 'CAD', 'en-US')).toBe('CA$17.50');
    expect(formatMoney(1750, 'EUR', 'de-DE')).toBe('17,50\u00a0€');
    expect(formatMoney(1750, 'GBP', 'en-GB')).toBe('£17.50');
  });

  it('knows currencies without minor units', () => {
    expect(formatMoney(1750, 'JPY', 'en-US')).toBe('¥1,750');
  });

  it('falls back to the code for a currency Intl does not know', () => {
    expect(formatMoney(1750, 'not-a-code', 'en-US')).toBe('17.50 not-a-code');
  });

  it('gives the symbol an input shows, and the amount as a form edits it', () => {
    expect(currencySymbol('USD', 'en-US')).toBe('$');
    expect(currencySymbol('EUR', 'en-US')).toBe('€');
    expect(centsToInput(1750, 'USD')).toBe('17.50');
    expect(centsToInput(null, 'USD')).toBe('');
    expect(centsToInput(1750, 'JPY')).toBe('1750');
  });
});

describe('parseMoney', () => {
  it('reads what people type for an amount', () => {
    expect(parseMoney('17.5')).toEqual({ cents: 1750 });
    expect(parseMoney('17.50')).toEqual({ cents: 1750 });
    expect(parseMoney('$17.50')).toEqual({ cents: 1750 });
    expect(parseMoney(' CA$ 40 ', 'CAD')).toEqual({ cents: 4000 });
    expect(parseMoney('17')).toEqual({ cents: 1700 });
    expect(parseMoney('17.')).toEqual({ cents: 1700 });
    expect(parseMoney('.5')).toEqual({ cents: 50 });
    expect(parseMoney('0')).toEqual({ cents: 0 });
    expect(parseMoney('350 USD')).toEqual({ cents: 35000 });
  });

  it('tells thousands from decimals by the separators', () => {
    expect(parseMoney('1,250')).toEqual({ cents: 125000 });
    expect(parseMoney('1,250.00')).toEqual({ cents: 125000 });
    expect(parseMoney('1.250,00', 'EUR')).toEqual({ cents: 125000 });
    expect(parseMoney('17,50', 'EUR')).toEqual({ cents: 1750 });
    expect(parseMoney('17,5', 'SEK')).toEqual({ cents: 1750 });
    expect(parseMoney('1 250,50 kr', 'SEK')).toEqual({ cents: 125050 });
  });

  it('refuses what is not an amount, and says why', () => {
    expect(parseMoney('')).toEqual({ error: 'Enter the cost of the ice.' });
    expect(parseMoney('   ')).toEqual({ error: 'Enter the cost of the ice.' });
    expect(parseMoney('-5')).toEqual({ error: 'The cost cannot be negative.' });
    expect(parseMoney('abc')).toEqual({ error: 'Enter an amount like 250 or 250.00.' });
    expect(parseMoney('12a4')).toEqual({ error: 'Enter an amount like 250 or 250.00.' });
    expect(parseMoney('1,25.00')).toEqual({ error: 'Enter an amount like 250 or 250.00.' });
    expect(parseMoney('17.505')).toEqual({ error: 'At most 2 digits after the decimal point.' });
    expect(parseMoney('17.5', 'JPY')).toEqual({ error: 'Whole amounts only.' });
  });

  it('keeps to the server\'s range: 0 to 100,000.00', () => {
    expect(parseMoney('100000')).toEqual({ cents: MAX_COST_CENTS });
    expect(parseMoney('100,000.00')).toEqual({ cents: MAX_COST_CENTS });
    const over = parseMoney('100000.01');
    expect('error' in over && over.error).toMatch(/^At most .*100,000\.00\.$/);
    expect('error' in parseMoney('1,000,000')).toBe(true);
  });
});
