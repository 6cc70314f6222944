import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChoiceGroup } from './choice-group';

type Size = 'S' | 'M' | 'L';
const SIZES: Size[] = ['S', 'M', 'L'];

/** A group that keeps its own value, as the forms do, and reports every change. */
function Sizes({ initial = null, disabled }: { initial?: Size | null; disabled?: boolean }) {
  const [value, setValue] = useState<Size | null>(initial);
  const [changes, setChanges] = useState<Size[]>([]);
  return (
    <>
      <button type="button">before</button>
      <ChoiceGroup
        aria-label="Size"
        options={SIZES.map((s) => ({ value: s, content: s, 'data-testid': `size-${s}`, className: s === 'L' ? 'opt--big' : undefined }))}
        value={value}
        onChange={(s) => {
          setValue(s);
          setChanges((c) => [...c, s]);
        }}
        className="sizes"
        optionClassName="opt"
        checkedClassName="opt--on"
        disabled={disabled}
        data-testid="sizes"
      />
      <button type="button">after</button>
      <output data-testid="changes">{changes.join(',')}</output>
    </>
  );
}

const option = (s: Size) => screen.getByTestId(`size-${s}`);
const checkedOnes = () => screen.getAllByRole('radio').filter((r) => r.getAttribute('aria-checked') === 'true');

describe('ChoiceGroup', () => {
  it('is a named radio group of radios with exactly the value checked', () => {
    render(<Sizes initial="M" />);
    expect(screen.getByRole('radiogroup', { name: 'Size' })).toBe(screen.getByTestId('sizes'));
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('aria-checked'))).toEqual(['false', 'true', 'false']);
    expect(option('M')).toHaveClass('opt', 'opt--on');
    expect(option('S')).not.toHaveClass('opt--on');
    expect(option('L')).toHaveAttribute('class', 'opt opt--big');
  });

  it('takes its name from another element with aria-labelledby', () => {
    render(
      <>
        <span id="size-label">Shirt size</span>
        <ChoiceGroup aria-labelledby="size-label" options={[{ value: 'S', content: 'S' }]} value="S" onChange={() => {}} className="g" optionClassName="o" />
      </>,
    );
    expect(screen.getByRole('radiogroup', { name: 'Shirt size' })).toBeInTheDocument();
  });

  it('is one tab stop, on the checked option', async () => {
    const user = userEvent.setup();
    render(<Sizes initial="L" />);
    expect(screen.getAllByRole('radio').map((r) => r.tabIndex)).toEqual([-1, -1, 0]);
    await user.click(screen.getByText('before'));
    await user.tab();
    expect(option('L')).toHaveFocus();
    await user.tab();
    expect(screen.getByText('after')).toHaveFocus();
    await user.tab({ shift: true });
    expect(option('L')).toHaveFocus();
  });

  it('is one tab stop, on the first option, when none is checked', async () => {
    const user = userEvent.setup();
    render(<Sizes />);
    expect(checkedOnes()).toEqual([]);
    expect(screen.getAllByRole('radio').map((r) => r.tabIndex)).toEqual([0, -1, -1]);
    await user.click(screen.getByText('before'));
    await user.tab();
    expect(option('S')).toHaveFocus();
    await user.tab();
    expect(screen.getByText('after')).toHaveFocus();
  });

  it('selects the next option with Arrow Right and Down, wrapping, and focus follows', async () => {
    const user = userEvent.setup();
    render(<Sizes initial="M" />);
    await user.click(screen.getByText('before'));
    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(option('L')).toHaveFocus();
    expect(option('L')).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{ArrowDown}');
    expect(option('S')).toHaveFocus();
    expect(checkedOnes()).toEqual([option('S')]);
    expect(screen.getAllByRole('radio').map((r) => r.tabIndex)).toEqual([0, -1, -1]);
    expect(screen.getByTestId('changes')).toHaveTextContent('L,S');
  });

  it('selects the previous option with Arrow Left and Up, wrapping', async () => {
    const user = userEvent.setup();
    render(<Sizes initial="M" />);
    await user.click(screen.getByText('before'));
    await user.tab();
    await user.keyboard('{ArrowLeft}');
    expect(option('S')).toHaveFocus();
    expect(option('S')).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{ArrowUp}');
    expect(option('L')).toHaveFocus();
    expect(checkedOnes()).toEqual([option('L')]);
    expect(screen.getByTestId('changes')).toHaveTextContent('S,L');
  });

  it('selects the first with Home and the last with End', async () => {
    const user = userEvent.setup();
    render(<Sizes initial="M" />);
    await user.click(screen.getByText('before'));
    await user.tab();
    await user.keyboard('{End}');
    expect(option('L')).toHaveFocus();
    expect(checkedOnes()).toEqual([option('L')]);
    await user.keyboard('{Home}');
    expect(option('S')).toHaveFocus();
    expect(checkedOnes()).toEqual([option('S')]);
  });

  it('selects the focused option with Space when none is checked', async () => {
    const user = userEvent.setup();
    render(<Sizes />);
    await user.click(screen.getByText('before'));
    await user.tab();
    await user.keyboard(' ');
    expect(checkedOnes()).toEqual([option('S')]);
    expect(screen.getByTestId('changes')).toHaveTextContent('S');
  });

  it('selects the focused option with Enter when none is checked', async () => {
    const user = userEvent.setup();
    render(<Sizes />);
    await user.click(screen.getByText('before'));
    await user.tab();
    await user.keyboard('{Enter}');
    expect(checkedOnes()).toEqual([option('S')]);
  });

  it('selects an option on click', async () => {
    const user = userEvent.setup();
    render(<Sizes initial="S" />);
    await user.click(option('L'));
    expect(checkedOnes()).toEqual([option('L')]);
    expect(screen.getByTestId('changes')).toHaveTextContent('L');
  });

  it('leaves other keys alone', async () => {
    const user = userEvent.setup();
    render(<Sizes initial="M" />);
    await user.click(screen.getByText('before'));
    await user.tab();
    await user.keyboard('a{Escape}');
    expect(option('M')).toHaveFocus();
    expect(screen.getByTestId('changes')).toBeEmptyDOMElement();
  });

  it('does nothing when disabled', async () => {
    const user = userEvent.setup();
    render(<Sizes initial="M" disabled />);
    for (const r of screen.getAllByRole('radio')) expect(r).toBeDisabled();
    await user.click(option('L'));
    await user.click(screen.getByText('before'));
    await user.tab();
    expect(screen.getByText('after')).toHaveFocus();
    // A disabled button takes no focus, but a key event may still reach it.
    fireEvent.keyDown(option('M'), { key: 'ArrowRight' });
    fireEvent.keyDown(option('M'), { key: 'End' });
    expect(checkedOnes()).toEqual([option('M')]);
    expect(screen.getByTestId('changes')).toBeEmptyDOMElement();
  });
});
