// A post's plain text with its http(s) URLs as links: text nodes and <a>
// elements only, so markup in a post shows as the characters it is.

import { useMemo } from 'react';
import { linkify } from '../model/linkify';

export function PostText({ content, className }: { content: string; className?: string }) {
  const pieces = useMemo(() => linkify(content), [content]);
  return (
    <p className={`post-text${className ? ` ${className}` : ''}`} data-testid="post-text">
      {pieces.map((p, i) =>
        p.kind === 'link' ? (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer nofollow">
            {p.text}
          </a>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </p>
  );
}
