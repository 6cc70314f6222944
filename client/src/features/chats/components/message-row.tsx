// One line of a thread: a message (author, time, the text with its links,
// "(edited)", or "Message deleted"), with Edit for its author (inline) and
// Delete for its author or a moderator; or one of my sends still on its
// way ("Sending…", "Not sent — Retry", or the server's refusal).

import { useState, type KeyboardEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../../../lib/api';
import type { ChatMessage } from '../../../lib/api-types';
import { displayName } from '../../../lib/format';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { LinkedText } from '../../../components/ui/linked-text';
import { deleteChatMessage, patchChatMessage } from '../api/chats';
import { checkDraft, MAX_CHARS } from '../model/composer';
import { allowedOn } from '../model/conversations';
import { fullWhen, timeOfDay } from '../model/days';
import type { PendingSend } from '../model/outbox';

export interface MessageRowProps {
  message: ChatMessage;
  myId: string;
  canModerate: boolean;
  /** The same author just before, within minutes: no second name and avatar. */
  continued: boolean;
  /** An edit's or delete's answer, for the thread to show at once. */
  onWritten: (m: ChatMessage) => void;
}

function editError(err: unknown): string {
  if (err instanceof ApiError && err.status === 409) return 'This message was deleted, so it cannot be edited.';
  return errorMessage(err);
}

export function MessageRow({ message: m, myId, canModerate, continued, onWritten }: MessageRowProps) {
  const [editing, setEditing] = useState(false);
  const mine = m.author.id === myId;
  const deleted = Boolean(m.deletedAt) || m.body === null;
  const allowed = allowedOn(m, myId, canModerate);
  const name = mine ? 'You' : displayName(m.author);
  const edit = useMutation({
    mutationFn: (body: string) => patchChatMessage(m.conversationId, m.id, body),
    onSuccess: (saved) => {
      onWritten(saved);
      setEditing(false);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteChatMessage(m.conversationId, m.id),
    // 204, no body: the message as it now is, until the push says the same.
    onSuccess: () => onWritten({ ...m, body: null, deletedAt: m.deletedAt ?? new Date().toISOString() }),
  });

  return (
    <li
      className={`msg${mine ? ' msg--mine' : ''}${continued ? ' msg--continued' : ''}${deleted ? ' msg--deleted' : ''}`}
      data-testid="chat-message"
      data-message-id={m.id}
      data-seq={m.seq}
      data-author={m.author.id}
    >
      <span className="msg__avatar">{!continued && <Avatar name={displayName(m.author)} src={m.author.profileImage} size="sm" />}</span>
      <div className="msg__main">
        {!continued && (
          <div className="msg__meta">
            <strong className="msg__author" data-testid="chat-message-author">
              {name}
            </strong>
            <time className="msg__time" dateTime={m.createdAt} title={fullWhen(m.createdAt)}>
              {timeOfDay(m.createdAt)}
            </time>
          </div>
        )}
        {deleted ? (
          <p className="msg__body msg__body--deleted" data-testid="chat-message-deleted">
            Message deleted
          </p>
        ) : editing ? (
          <EditBox
            initial={m.body ?? ''}
            saving={edit.isPending}
            error={edit.isError ? editError(edit.error) : null}
            onSave={(body) => (body === (m.body ?? '').trim() ? setEditing(false) : edit.mutate(body))}
            onCancel={() => {
              edit.reset();
              setEditing(false);
            }}
          />
        ) : (
          <div className="msg__bubble">
            <LinkedText as="div" className="msg__body" text={m.body ?? ''} data-testid="chat-message-body" />
            {m.editedAt && (
              <span className="msg__edited" data-testid="chat-message-edited" title={fullWhen(m.editedAt)}>
                (edited)
              </span>
            )}
            {continued && (
              <time className="msg__time msg__time--inline" dateTime={m.createdAt} title={fullWhen(m.createdAt)}>
                {timeOfDay(m.createdAt)}
              </time>
            )}
          </div>
        )}
        {!editing && (allowed.edit || allowed.remove) && (
          <div className="msg__actions">
            {allowed.edit && (
              <Button variant="ghost" size="sm" onClick={() => setEditing(true)} data-testid="chat-edit">
                Edit
              </Button>
            )}
            {allowed.remove && (
              <ConfirmButton variant="ghost" size="sm" confirmLabel="Delete?" onConfirm={() => remove.mutate()} loading={remove.isPending} data-testid="chat-delete">
                Delete
              </ConfirmButton>
            )}
          </div>
        )}
        {remove.isError && (
          <p className="msg__error" role="alert">
            {errorMessage(remove.error)}
          </p>
        )}
      </div>
    </li>
  );
}

function EditBox({ initial, saving, error, onSave, onCancel }: { initial: string; saving: boolean; error: string | null; onSave: (body: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const check = checkDraft(text);
  const save = () => {
    if (!check.empty && !check.over) onSave(text.trim());
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      save();
    }
  };
  return (
    <div className="msg__edit">
      <textarea className="input input--textarea msg__edit-input" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} aria-label="Edit message" autoFocus data-testid="chat-edit-input" />
      {check.showCounter && (
        <span className={`chat-composer__count${check.over ? ' chat-composer__count--over' : ''}`}>
          {check.count.toLocaleString('en-US')} / {MAX_CHARS.toLocaleString('en-US')}
        </span>
      )}
      <div className="msg__edit-actions">
        <Button size="sm" onClick={save} loading={saving} disabled={check.empty || check.over} data-testid="chat-edit-save">
          Save
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel} data-testid="chat-edit-cancel">
          Cancel
        </Button>
      </div>
      {error && (
        <p className="msg__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export interface PendingRowProps {
  pending: PendingSend;
  continued: boolean;
  myName: string;
  myImage: string | null;
  onRetry: () => void;
  onDiscard: (key: string) => void;
}

export function PendingRow({ pending: p, continued, myName, myImage, onRetry, onDiscard }: PendingRowProps) {
  const waiting = p.state === 'queued' || p.state === 'sending';
  return (
    <li className={`msg msg--mine msg--pending${continued ? ' msg--continued' : ''}${waiting ? '' : ' msg--failed'}`} data-testid="chat-pending" data-state={p.state} data-key={p.key}>
      <span className="msg__avatar">{!continued && <Avatar name={myName} src={myImage} size="sm" />}</span>
      <div className="msg__main">
        {!continued && (
          <div className="msg__meta">
            <strong className="msg__author">You</strong>
          </div>
        )}
        <div className="msg__bubble">
          <LinkedText as="div" className="msg__body" text={p.body} data-testid="chat-message-body" />
        </div>
        <p className="msg__status" data-testid="chat-pending-status" role={waiting ? undefined : 'alert'}>
          {waiting && 'Sending…'}
          {p.state === 'unsent' && (
            <>
              <span>Not sent — </span>
              <button type="button" className="msg__link" onClick={onRetry} data-testid="chat-retry">
                Retry
              </button>
              <button type="button" className="msg__link msg__link--quiet" onClick={() => onDiscard(p.key)} data-testid="chat-discard">
                Discard
              </button>
            </>
          )}
          {p.state === 'refused' && (
            <>
              <span data-testid="chat-pending-error">{p.error}</span>{' '}
              {p.retryable && (
                <button type="button" className="msg__link" onClick={onRetry} data-testid="chat-retry">
                  Retry
                </button>
              )}
              <button type="button" className="msg__link msg__link--quiet" onClick={() => onDiscard(p.key)} data-testid="chat-discard">
                Discard
              </button>
            </>
          )}
        </p>
      </div>
    </li>
  );
}
