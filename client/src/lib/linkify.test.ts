import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

describe('linkify', () => {
  it('splits http(s) URLs out of the text', () => {
    expect(linkify('Ice at https://rink.example/ice?x=1, see you')).toEqual([
      { kind: 'text', text: 'Ice at ' },
      { kind: 'link', text: 'https://rink.example/ice?x=1', href: 'https://rink.example/ice?x=1' },
      { kind: 'text', text: ', see you' },
    ]);
  });

  it('leaves sentence punctuation out of the link', () => {
    const pieces = linkify('Go to http://a.example/b.');
    expect(pieces[1]).toEqual({ kind: 'link', text: 'http://a.example/b', href: 'http://a.example/b' });
    expect(pieces[2]).toEqual({ kind: 'text', text: '.' });
  });

  it('never makes javascript: or other schemes into links', () => {
    for (const s of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>', 'ftp://x.example']) {
      expect(linkify(s).every((p) => p.kind === 'text')).toBe(true);
    }
  });

  it('keeps markup as text', () => {
    expect(linkify('<script>alert(1)</script>')).toEqual([{ kind: 'text', text: '<script>alert(1)</script>' }]);
  });
});
