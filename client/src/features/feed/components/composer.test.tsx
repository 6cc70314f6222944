import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api';
import { renderWithProviders } from '../../../testing/render';
import { POST_MAX_CHARS, postProblem } from '../model/composer';
import type { Post } from '../model/types';
import { Composer } from './composer';

const post = (content: string): Post => ({ id: 'p1', content, authorId: 'u-me', createdAt: '2026-03-01T10:00:00Z', updatedAt: '2026-03-01T10:00:00Z' });

describe('postProblem', () => {
  it('refuses empty and whitespace-only text', () => {
    expect(postProblem('')).not.toBeNull();
    expect(postProblem('   \n\t ')).not.toBeNull();
  });
  it('allows exactly the limit after trimming, not one more', () => {
    expect(postProblem(`  ${'a'.repeat(POST_MAX_CHARS)}  `)).toBeNull();
    expect(postProblem('a'.repeat(POST_MAX_CHARS + 1))).toMatch(/at most 5,000/);
  });
});

describe('Composer', () => {
  it('is disabled while empty and counts characters', async () => {
    const onPost = vi.fn(async (c: string) => post(c));
    renderWithProviders(<Composer onPost={onPost} />);
    const button = screen.getByTestId('composer-submit');
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('New post'), '   ');
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('New post'), 'Ice at 9');
    expect(screen.getByTestId('composer-counter')).toHaveTextContent('8 / 5,000');
    expect(button).toBeEnabled();
  });

  it('sends the trimmed text and clears', async () => {
    const onPost = vi.fn(async (c: string) => post(c));
    renderWithProviders(<Composer onPost={onPost} />);
    await userEvent.type(screen.getByLabelText('New post'), '  Who needs a sub?  ');
    await userEvent.click(screen.getByTestId('composer-submit'));
    expect(onPost).toHaveBeenCalledWith('Who needs a sub?');
    await waitFor(() => expect(screen.getByLabelText('New post')).toHaveValue(''));
  });

  it("shows the server's 422 and keeps the text", async () => {
    const onPost = vi.fn(async () => {
      throw new ApiError(422, 'validation_failed', 'Invalid input', { content: 'Content must be 1–5,000 characters.' });
    });
    renderWithProviders(<Composer onPost={onPost} />);
    await userEvent.type(screen.getByLabelText('New post'), 'hello');
    await userEvent.click(screen.getByTestId('composer-submit'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Content must be 1–5,000 characters.');
    expect(screen.getByLabelText('New post')).toHaveValue('hello');
  });

  it('says why and disables posting over the limit', async () => {
    renderWithProviders(<Composer onPost={vi.fn()} />);
    const box = screen.getByLabelText('New post');
    await userEvent.click(box);
    await userEvent.paste('x'.repeat(POST_MAX_CHARS + 2));
    expect(screen.getByTestId('composer-submit')).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('2 too many');
  });
});
