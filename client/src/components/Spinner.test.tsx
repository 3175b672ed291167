import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Spinner } from './Spinner';

describe('Spinner', () => {
  it('is announced as a status with its label', () => {
    render(<Spinner label="Loading courses" />);
    expect(screen.getByRole('status', { name: 'Loading courses' })).toBeInTheDocument();
  });

  it("is called 'Loading' when no label is given", () => {
    render(<Spinner />);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  });
});
