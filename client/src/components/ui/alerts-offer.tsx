// "Tell me when it happens": asks the browser for permission to show
// notifications while Rinkside is in the background, from a tap. Shown only
// while the browser has not been asked yet.

import { useState } from 'react';
import { Button } from './button';
import { askForAlerts, useAlertPermission } from '../../lib/browser-alerts';
import './alerts-offer.css';

export function AlertsOffer({ text, compact = false }: { text: string; compact?: boolean }) {
  const permission = useAlertPermission();
  const [asking, setAsking] = useState(false);
  if (permission !== 'default') return null;
  return (
    <div className={`alerts-offer${compact ? ' alerts-offer--compact' : ''}`} data-testid="alerts-offer">
      <p className="alerts-offer__text">{text}</p>
      <Button
        size="sm"
        variant="secondary"
        loading={asking}
        onClick={() => {
          setAsking(true);
          void askForAlerts().finally(() => setAsking(false));
        }}
        data-testid="alerts-enable"
      >
        Turn on alerts
      </Button>
    </div>
  );
}

/** What the browser lets us do, in words (the notifications page). */
export function AlertsState() {
  const permission = useAlertPermission();
  if (permission === 'granted') return <p className="muted" data-testid="alerts-state">Alerts are on: while Rinkside is in the background, your browser shows new notifications.</p>;
  if (permission === 'denied') return <p className="muted" data-testid="alerts-state">Your browser blocks alerts from Rinkside. Allow them in the site settings to get them.</p>;
  if (permission === 'unsupported') return null;
  return <AlertsOffer text="Get an alert from your browser when something happens while Rinkside is in the background." />;
}
