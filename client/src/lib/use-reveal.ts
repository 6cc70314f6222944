// Bring a message that just appeared into view, clear of the phone's fixed
// bottom bar (issue 26: an error under a schedule row showed behind it).
// The margin comes from CSS (`scroll-margin-bottom` on alerts, styles.css).

import { useEffect, type RefObject } from 'react';

export function useReveal(ref: RefObject<HTMLElement | null>, shown: boolean): void {
  useEffect(() => {
    if (!shown) return;
    const el = ref.current;
    // jsdom has no layout and no scrollIntoView.
    if (el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [ref, shown]);
}
