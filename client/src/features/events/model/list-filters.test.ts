import { describe, expect, it } from 'vitest';
import { listQuery } from '../api/events';
import { readParams, toFilters, writeParams, type ListParams } from './list-filters';

const TODAY = '2030-03-10';

const params = (over: Partial<ListParams> = {}): ListParams => ({
  ...readParams(new URLSearchParams()),
  ...over,
});

describe('events list filters in the URL', () => {
  it('round-trips every filter through the search params', () => {
    const v = params({ when: 'custom', fromDay: '2030-03-01', toDay: '2030-03-31', eventType: 'GAME', facilityId: 'f-1', community: true, going: true, mine: true, cancelled: true });
    const url = writeParams(v);
    expect(url.get('community')).toBe('1');
    expect(url.get('facility')).toBe('f-1');
    expect(readParams(new URLSearchParams(url.toString()))).toEqual(v);
  });

  it('leaves the defaults out of the URL', () => {
    expect(writeParams(params()).toString()).toBe('');
    expect(readParams(new URLSearchParams())).toMatchObject({ when: 'upcoming', facilityId: '', community: false });
  });

  it('keeps "community events" only together with a rink', () => {
    expect(readParams(new URLSearchParams('community=1'))).toMatchObject({ facilityId: '', community: false });
    expect(writeParams(params({ community: true })).has('community')).toBe(false);
    // Clearing the rink drops the toggle with it.
    const cleared = writeParams({ ...readParams(new URLSearchParams('facility=f-1&community=1')), facilityId: '' });
    expect(cleared.toString()).toBe('');
  });

  it('asks the server for community events only with a rink and the toggle on', () => {
    const atRink = toFilters(params({ facilityId: 'f-1' }), TODAY);
    expect(atRink.includeCommunity).toBeUndefined();
    expect(listQuery(atRink, 20, null).includeCommunity).toBeUndefined();

    const withCommunity = toFilters(params({ facilityId: 'f-1', community: true }), TODAY);
    expect(withCommunity).toMatchObject({ facilityId: 'f-1', includeCommunity: true });
    expect(listQuery(withCommunity, 20, null)).toMatchObject({ facilityId: 'f-1', includeCommunity: true });

    expect(toFilters(params({ community: true }), TODAY).includeCommunity).toBeUndefined();
    expect(listQuery({ includeCommunity: true }, 20, null).includeCommunity).toBeUndefined();
  });
});
