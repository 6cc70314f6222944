// The browser's Notification API: a notification that arrives while the tab
// is in the background is shown by the system too. Permission is asked only
// when the person taps a button offering it (on the notifications page, or
// when they join a waitlist), never on load.

import { useSyncExternalStore } from 'react';

export type AlertPermission = NotificationPermission | 'unsupported';

const listeners = new Set<() => void>();

export function alertPermission(): AlertPermission {
  if (typeof window === 'undefined' || typeof window.Notification === 'undefined') return 'unsupported';
  return window.Notification.permission;
}

/** The current permission, re-read after `askForAlerts`. */
export function useAlertPermission(): AlertPermission {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    alertPermission,
    () => 'unsupported' as const,
  );
}

/** Asks the browser (call from a tap); resolves to what the person chose. */
export async function askForAlerts(): Promise<AlertPermission> {
  if (alertPermission() === 'unsupported') return 'unsupported';
  try {
    await window.Notification.requestPermission();
  } finally {
    listeners.forEach((l) => l());
  }
  return alertPermission();
}

/** Whether a notification arriving now should also be shown by the system. */
export function tabIsHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/** Shows a system notification; clicking it brings the tab back and opens `href`. */
export function showSystemAlert(title: string, body: string, tag: string, open: () => void): void {
  if (alertPermission() !== 'granted') return;
  try {
    const n = new window.Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      open();
      n.close();
    };
  } catch {
    // Some browsers only allow notifications from a service worker: the bell still counts it.
  }
}
