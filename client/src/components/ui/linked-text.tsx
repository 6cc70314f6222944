// Text a person wrote, with its http(s) URLs as links (lib/linkify.ts):
// text nodes and <a> elements only, so markup shows as the characters it
// is. Posts and chat messages both render through it, so a link is a link
// by the same rules everywhere.

import { useMemo, type HTMLAttributes } from 'react';
import { linkify } from '../../lib/linkify';

export interface LinkedTextProps extends HTMLAttributes<HTMLElement> {
  text: string;
  /** The element around the pieces (a post is a paragraph; a chat message sits in a div). */
  as?: 'p' | 'div' | 'span';
}

export function LinkedText({ text, as: Tag = 'p', ...rest }: LinkedTextProps) {
  const pieces = useMemo(() => linkify(text), [text]);
  return (
    <Tag {...rest}>
      {pieces.map((p, i) =>
        p.kind === 'link' ? (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer nofollow">
            {p.text}
          </a>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </Tag>
  );
}
