// "Add to calendar": the event as a single `.ics` file (with my standing in
// its title), downloaded through the signed-in API.

import { useState } from 'react';
import { errorMessage, requestBlob } from '../../../lib/api';
import { Button } from '../../../components/ui/button';
import { CalendarIcon } from '../../../components/ui/icons';

/** A file name from a title: letters and digits joined by dashes. */
export function icsFileName(title: string): string {
  const slug = title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').toLowerCase();
  return `${slug || 'event'}.ics`;
}

export function AddToCalendar({ eventId, title }: { eventId: string; title: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await requestBlob(`/events/${encodeURIComponent(eventId)}/calendar.ics`);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = icsFileName(title);
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="add-to-calendar">
      <Button size="sm" variant="secondary" icon={<CalendarIcon size={16} />} loading={busy} onClick={() => void download()} data-testid="add-to-calendar">
        Add to calendar
      </Button>
      {error && (
        <span className="field__error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
