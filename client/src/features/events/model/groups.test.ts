import { describe, expect, it } from 'vitest';
import type { GroupConfig, HockeyPosition } from '../../../lib/api-types';
import { assignGroups } from './groups';

const p = (id: string, position: HockeyPosition) => ({ userId: id, position });
const names = (groups: ReturnType<typeof assignGroups<{ userId: string; position: HockeyPosition }>>) => groups.map((g) => g.members.map((m) => m.userId));

const twoByPosition: GroupConfig = { groups: [{ name: 'Dark', color: '#111111' }, { name: 'Light', color: '#eeeeee' }], balanceBy: 'POSITION' };
const twoByOrder: GroupConfig = { ...twoByPosition, balanceBy: 'ORDER' };

describe('assignGroups', () => {
  it('without a group config is one list in acceptance order', () => {
    const people = [p('a', 'CENTER'), p('b', 'GOALIE'), p('c', 'LEFT_DEFENSE')];
    const out = assignGroups(people, null);
    expect(out).toHaveLength(1);
    expect(out[0]?.group).toBeNull();
    expect(names(out)).toEqual([['a', 'b', 'c']]);
  });

  it('ORDER alternates in acceptance order, whatever the positions', () => {
    const people = [p('a', 'GOALIE'), p('b', 'GOALIE'), p('c', 'CENTER'), p('d', 'LEFT_WING'), p('e', 'RIGHT_DEFENSE')];
    expect(names(assignGroups(people, twoByOrder))).toEqual([
      ['a', 'c', 'e'],
      ['b', 'd'],
    ]);
  });

  it('POSITION spreads goalies first, then defence, then forwards, each in acceptance order', () => {
    const people = [
      p('f1', 'CENTER'),
      p('d1', 'LEFT_DEFENSE'),
      p('g1', 'GOALIE'),
      p('f2', 'LEFT_WING'),
      p('d2', 'RIGHT_DEFENSE'),
      p('g2', 'GOALIE'),
      p('f3', 'RIGHT_WING'),
      p('d3', 'LEFT_DEFENSE'),
      p('f4', 'CENTER'),
    ];
    const [dark, light] = names(assignGroups(people, twoByPosition));
    // Goalies: g1 → Dark, g2 → Light. Defence carries on: d1 Dark, d2 Light, d3 Dark.
    // Forwards carry on from there: f1 Light, f2 Dark, f3 Light, f4 Dark.
    expect(dark).toEqual(['g1', 'd1', 'd3', 'f2', 'f4']);
    expect(light).toEqual(['g2', 'd2', 'f1', 'f3']);
  });

  it('POSITION keeps every line and the group sizes within one of each other', () => {
    // One of each line: a restart per line would put all three in the first group.
    const out = names(assignGroups([p('f', 'CENTER'), p('d', 'LEFT_DEFENSE'), p('g', 'GOALIE')], twoByPosition));
    expect(out).toEqual([['g', 'f'], ['d']]);
  });

  it('deals into three or four groups round-robin', () => {
    const four: GroupConfig = {
      balanceBy: 'POSITION',
      groups: [
        { name: 'A', color: '#000001' },
        { name: 'B', color: '#000002' },
        { name: 'C', color: '#000003' },
        { name: 'D', color: '#000004' },
      ],
    };
    const people = [p('g1', 'GOALIE'), p('g2', 'GOALIE'), p('d1', 'LEFT_DEFENSE'), p('d2', 'RIGHT_DEFENSE'), p('d3', 'LEFT_DEFENSE'), p('f1', 'CENTER')];
    const out = assignGroups(people, four);
    expect(out.map((g) => g.group?.name)).toEqual(['A', 'B', 'C', 'D']);
    expect(names(out)).toEqual([['g1', 'd3'], ['g2', 'f1'], ['d1'], ['d2']]);
  });

  it('gives every group an entry even when nobody is attending, and never drops anyone', () => {
    expect(names(assignGroups([], twoByPosition))).toEqual([[], []]);
    const cycle: HockeyPosition[] = ['CENTER', 'GOALIE', 'LEFT_DEFENSE', 'RIGHT_WING'];
    const many = Array.from({ length: 23 }, (_, i) => p(`u${i}`, cycle[i % 4] ?? 'CENTER'));
    const out = assignGroups(many, twoByPosition);
    expect(out.flatMap((g) => g.members).map((m) => m.userId).sort()).toEqual(many.map((m) => m.userId).sort());
    const sizes = out.map((g) => g.members.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });
});
