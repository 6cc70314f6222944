// A post's plain text with its http(s) URLs as links, by the shared rules
// (components/ui/linked-text.tsx), so markup in a post shows as the
// characters it is.

import { LinkedText } from '../../../components/ui/linked-text';

export function PostText({ content, className }: { content: string; className?: string }) {
  return <LinkedText text={content} className={`post-text${className ? ` ${className}` : ''}`} data-testid="post-text" />;
}
