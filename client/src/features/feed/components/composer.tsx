// Write a post: a textarea with a character counter, a button that stays
// off while the text is empty or too long, and the server's 422 in place.

import { useState, type FormEvent } from 'react';
import { useFormErrors } from '../../../lib/use-form-errors';
import { Button } from '../../../components/ui/button';
import { POST_MAX_CHARS, postLength, postProblem } from '../model/composer';
import type { Post } from '../model/types';

export interface ComposerProps {
  /** Sends the text; rejects with the server's error. */
  onPost: (content: string) => Promise<Post>;
  placeholder?: string;
  onPosted?: (post: Post) => void;
}

const PLACEMENT = { fields: ['content'] };

/** Show the count once the text is this close to the limit, so the usual short post stays calm. */
const COUNTER_FROM = POST_MAX_CHARS - 500;

export function Composer({ onPost, onPosted, placeholder = 'Share something with the people who follow you…' }: ComposerProps) {
  const [content, setContent] = useState('');
  // One message under the box: the server's about the text, else why the post failed.
  const { errors, formError, run, reset, submitting: sending } = useFormErrors(PLACEMENT);
  const error = errors.content ?? formError;
  const length = postLength(content);
  const problem = postProblem(content);
  const over = length > POST_MAX_CHARS;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (problem || sending) return;
    reset();
    await run(async () => {
      const post = await onPost(content.trim());
      setContent('');
      onPosted?.(post);
    });
  }

  return (
    <form className="composer card" onSubmit={(e) => void submit(e)} data-testid="composer">
      <label className="sr-only" htmlFor="composer-text">
        New post
      </label>
      <textarea
        id="composer-text"
        className="composer__input"
        value={content}
        onChange={(e) => {
          setContent(e.target.value);
          if (error) reset();
        }}
        placeholder={placeholder}
        rows={3}
        aria-invalid={error || over ? true : undefined}
        aria-describedby="composer-counter composer-error"
      />
      <div className="composer__bar">
        <span
          id="composer-counter"
          className={`composer__counter${over ? ' composer__counter--over' : length >= COUNTER_FROM ? ' composer__counter--near' : ''}`}
          data-testid="composer-counter"
        >
          {length.toLocaleString('en-US')} / {POST_MAX_CHARS.toLocaleString('en-US')}
        </span>
        <Button type="submit" size="sm" disabled={problem !== null} loading={sending} data-testid="composer-submit">
          Post
        </Button>
      </div>
      {(error || over) && (
        <p id="composer-error" className="composer__error" role="alert">
          {error ?? problem}
        </p>
      )}
    </form>
  );
}
