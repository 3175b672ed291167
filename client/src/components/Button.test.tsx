import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';

/** A form whose submit button loads until the test says the work is done, as the app's forms do. */
function SlowForm({ onSubmit }: { onSubmit: () => void }) {
  const [loading, setLoading] = useState(false);
  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit();
    setLoading(true);
  }
  return (
    <form onSubmit={handleSubmit}>
      <label>
        Title
        <input name="title" />
      </label>
      <Button type="submit" loading={loading}>
        Create Course
      </Button>
      <Button onClick={() => setLoading(false)}>Finish</Button>
    </form>
  );
}

describe('Button', () => {
  it('is a plain button that does not submit forms unless asked', () => {
    render(<Button>Cancel</Button>);
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveAttribute('type', 'button');
  });

  it('is busy, unavailable and shows a spinner while loading, keeping its name', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const { container } = render(
      <Button loading onClick={onClick}>
        Create Course
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Create Course' });
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(container.querySelector('.button__spinner')).toBeInTheDocument();

    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('keeps keyboard focus while it loads, so a keyboard user is not dropped to the page', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<SlowForm onSubmit={onSubmit} />);
    const submit = screen.getByRole('button', { name: 'Create Course' });
    await user.tab();
    await user.tab();
    expect(submit).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(submit).toHaveAttribute('aria-busy', 'true');
    // Not disabled: a browser moves focus off a disabled button, to <body>.
    expect(submit).toBeEnabled();
    expect(submit).toHaveFocus();

    // Still reachable with Tab while it loads, as a screen reader user would look for it.
    await user.tab({ shift: true });
    await user.tab();
    expect(submit).toHaveFocus();
  });

  it('submits nothing while loading, by click, Enter or Enter in a field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<SlowForm onSubmit={onSubmit} />);
    const submit = screen.getByRole('button', { name: 'Create Course' });
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);

    await user.click(submit);
    await user.keyboard('{Enter}');
    await user.type(screen.getByLabelText('Title'), 'Biology{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it('is enabled, not busy and without a spinner when idle', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const { container } = render(<Button onClick={onClick}>Create Course</Button>);
    const button = screen.getByRole('button', { name: 'Create Course' });
    expect(button).toBeEnabled();
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button).not.toHaveAttribute('aria-disabled');
    expect(container.querySelector('.button__spinner')).not.toBeInTheDocument();

    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('stays disabled when asked to, loading or not', () => {
    render(
      <Button disabled loading>
        Create Course
      </Button>,
    );
    expect(screen.getByRole('button', { name: 'Create Course' })).toBeDisabled();
  });
});
