import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazyPage';

/** A page with state of its own, as the Assignments page holds an open answer dialog. */
function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((c) => c + 1)}>
      {label} {count}
    </button>
  );
}

// Issue 25 (item 10) looks for what re-mounted the Assignments page a few seconds after a load: not
// the page's lazy wrapper, which keeps the page it first showed through later renders.
describe('lazyPage', () => {
  it('keeps a page first shown before its chunk came: a later render does not build it anew', async () => {
    let arrive!: (module: { Counter: typeof Counter }) => void;
    const Page = lazyPage(
      () => new Promise<{ Counter: typeof Counter }>((resolve) => (arrive = resolve)),
      (m) => m.Counter,
    );
    const view = render(
      <Suspense fallback={<p>Loading</p>}>
        <Page label="Clicked" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    await act(async () => arrive({ Counter }));
    const button = await screen.findByRole('button', { name: 'Clicked 0' });
    await userEvent.click(button);
    expect(button).toHaveTextContent('Clicked 1');

    // The parent renders again (say, on a token refresh): the same page, its state kept.
    view.rerender(
      <Suspense fallback={<p>Loading</p>}>
        <Page label="Clicked" />
      </Suspense>,
    );
    expect(screen.getByRole('button')).toBe(button);
    expect(button).toHaveTextContent('Clicked 1');
  });

  it('keeps a page whose chunk came while the boundary showed another page (a link followed)', async () => {
    let arrive!: (module: { Counter: typeof Counter }) => void;
    const Page = lazyPage(
      () => new Promise<{ Counter: typeof Counter }>((resolve) => (arrive = resolve)),
      (m) => m.Counter,
    );
    const Shell = ({ page, tick }: { page: 'home' | 'lazy'; tick: number }) => (
      <Suspense fallback={<p>Loading</p>}>
        <p>Tick {tick}</p>
        {page === 'home' ? <p>Home</p> : <Page label="Clicked" />}
      </Suspense>
    );
    const view = render(<Shell page="home" tick={0} />);
    expect(screen.getByText('Home')).toBeInTheDocument();
    // A link followed: the boundary already shows a page when the new one suspends.
    view.rerender(<Shell page="lazy" tick={0} />);
    await act(async () => arrive({ Counter }));
    const button = await screen.findByRole('button', { name: 'Clicked 0' });
    await userEvent.click(button);
    expect(button).toHaveTextContent('Clicked 1');

    // Later the shell renders again (a token refresh): the page keeps its state.
    view.rerender(<Shell page="lazy" tick={1} />);
    expect(screen.getByText('Tick 1')).toBeInTheDocument();
    expect(screen.getByRole('button')).toBe(button);
    expect(button).toHaveTextContent('Clicked 1');
  });

  it('shows a page loaded ahead at once, without suspending', async () => {
    const Page = lazyPage(
      async () => ({ Counter }),
      (m) => m.Counter,
    );
    await Page.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page label="Ready" />
      </Suspense>,
    );
    expect(screen.getByRole('button', { name: 'Ready 0' })).toBeInTheDocument();
  });
});
