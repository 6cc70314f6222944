// Whether the tab is in front (the Page Visibility API), as a render input:
// for what should only happen while someone can see it (marking a chat read).

import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

const visible = () => document.visibilityState !== 'hidden';

export function usePageVisible(): boolean {
  return useSyncExternalStore(subscribe, visible, () => true);
}
