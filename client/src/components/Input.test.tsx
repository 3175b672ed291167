import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Input } from './Input';
import { Textarea } from './Textarea';

describe('Input', () => {
  it('binds its label to the input', () => {
    render(<Input label="Course Code" placeholder="e.g. CS101" />);
    expect(screen.getByLabelText('Course Code')).toHaveAttribute('placeholder', 'e.g. CS101');
  });

  it('shows an error line, marks the input invalid and describes it with the error', () => {
    render(<Input label="Email" error="Enter a valid e-mail address." />);
    const input = screen.getByLabelText('Email');
    expect(input).toBeInvalid();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Enter a valid e-mail address.');
  });

  // Issue 25: Arabic and Hebrew answers were left-aligned.
  it('lets free text follow the direction of what is typed, but not addresses or passwords', () => {
    render(
      <>
        <Input label="Title" />
        <Input label="Email" type="email" />
        <Input label="Password" type="password" />
        <Textarea label="Answer" />
      </>,
    );
    expect(screen.getByLabelText('Title')).toHaveAttribute('dir', 'auto');
    expect(screen.getByLabelText('Answer')).toHaveAttribute('dir', 'auto');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('dir');
    expect(screen.getByLabelText('Password', { selector: 'input' })).not.toHaveAttribute('dir');
  });

  it('is neither invalid nor described without an error or hint', () => {
    render(<Input label="Email" />);
    const input = screen.getByLabelText('Email');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it('describes the input with both its hint and its error', () => {
    render(<Input label="Password" type="password" hint="8 to 128 characters." error="Too short." />);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('8 to 128 characters. Too short.');
  });

  it('shows and hides a password with its toggle button', async () => {
    const user = userEvent.setup();
    render(<Input label="Password" type="password" defaultValue="s3cret-pass" />);
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    expect(input).toHaveValue('s3cret-pass');

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it('has no toggle for other types', () => {
    render(<Input label="Email" type="email" />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  // Issue 25: a 5,000-character pasted title was cut to 200 without a word.
  it.each([
    ['Input', () => <Input label="Title" maxLength={20} hint="Shown on the card." />],
    ['Textarea', () => <Textarea label="Title" maxLength={20} hint="Shown on the card." />],
  ])('%s says when a paste was cut to its maxLength, and no more once a paste fits', async (_, field) => {
    const user = userEvent.setup();
    render(field());
    const box = screen.getByLabelText('Title');
    expect(box).toHaveAccessibleDescription('Shown on the card.');
    await user.click(box);
    await user.paste('x'.repeat(50));
    expect(box).toHaveValue('x'.repeat(20));
    expect(screen.getByRole('status')).toHaveTextContent(
      'The pasted text was cut to 20 characters, the most this field holds.',
    );
    expect(box).toHaveAccessibleDescription(/cut to 20 characters.*Shown on the card\./);
    await user.clear(box);
    await user.paste('short');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
