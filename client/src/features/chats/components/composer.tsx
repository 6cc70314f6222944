// Writing a message: a textarea that grows with its text, Enter sends and
// Shift+Enter starts a new line (and Enter that ends an IME composition
// does neither), a counter once the 2,000-character limit is near, and
// Send. The text is handed over and the box cleared at once: the message
// shows in the thread as "Sending…" (api/outbox.ts).

import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { SendIcon } from '../../../components/ui/icons';
import { checkDraft, MAX_CHARS } from '../model/composer';

/** Tallest the box grows before it scrolls. */
const MAX_HEIGHT_PX = 180;

export function Composer({ title, onSend }: { title: string; onSend: (text: string) => void }) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
  const check = checkDraft(text);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  const submit = () => {
    if (check.empty || check.over) return;
    onSend(text);
    setText('');
    ref.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  };

  return (
    <form
      className="chat-composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="chat-composer"
    >
      <textarea
        ref={ref}
        className="input input--textarea chat-composer__input"
        rows={1}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={`Message ${title}`}
        aria-label={`Message ${title}`}
        aria-describedby={check.showCounter ? counterId : undefined}
        aria-invalid={check.over || undefined}
        data-testid="chat-input"
      />
      {check.showCounter && (
        <span id={counterId} className={`chat-composer__count${check.over ? ' chat-composer__count--over' : ''}`} data-testid="chat-counter" aria-live="polite">
          {check.count.toLocaleString('en-US')} / {MAX_CHARS.toLocaleString('en-US')}
          {check.over && <span className="sr-only"> characters: too long to send</span>}
        </span>
      )}
      <Button type="submit" className="chat-composer__send" disabled={check.empty || check.over} icon={<SendIcon size={18} />} aria-label="Send" data-testid="chat-send" />
    </form>
  );
}
