import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ListPage, type ListPageProps } from './ListPage';

const courses = ['Biology', 'Chemistry', 'Physics'];

/** A list screen over three courses that filters as the user types, as the real screens do. */
function Courses(props: Partial<ListPageProps>) {
  const [query, setQuery] = useState('');
  const visible = courses.filter((title) => title.toLowerCase().includes(query.trim().toLowerCase()));
  return (
    <ListPage
      title="Courses"
      subtitle="Browse and access your enrolled courses"
      searchLabel="Search courses"
      searchPlaceholder="Search courses by title or code..."
      query={query}
      onQueryChange={setQuery}
      count={{ shown: visible.length, total: courses.length, noun: ['course', 'courses'] }}
      {...props}
    >
      <ul aria-label="Courses">
        {visible.map((title) => (
          <li key={title}>{title}</li>
        ))}
      </ul>
    </ListPage>
  );
}

describe('ListPage', () => {
  it('shows its title, subtitle, search box and list, and counts what the search leaves', async () => {
    const user = userEvent.setup();
    render(<Courses />);
    expect(screen.getByRole('heading', { level: 1, name: 'Courses' })).toBeInTheDocument();
    expect(screen.getByText('Browse and access your enrolled courses')).toBeInTheDocument();
    expect(screen.getByText('3 courses')).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search courses' }), 'bio');
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('1 of 3 courses')).toBeInTheDocument();
  });

  it('names a single item in the singular, and shows no count for an empty or unloaded list', () => {
    const { rerender } = render(<Courses count={{ shown: 1, total: 1, noun: ['course', 'courses'] }} />);
    expect(screen.getByText('1 course')).toBeInTheDocument();
    rerender(<Courses count={{ shown: 0, total: 0, noun: ['course', 'courses'] }} />);
    expect(screen.queryByText(/^\d+( of \d+)? courses?$/)).not.toBeInTheDocument();
    rerender(<Courses count={undefined} />);
    expect(screen.queryByText(/^\d+( of \d+)? courses?$/)).not.toBeInTheDocument();
  });

  it('gives a teacher Generate Samples and the create button, each doing its job; a student neither', async () => {
    const user = userEvent.setup();
    const onCreate = vi.fn();
    const onGenerateSamples = vi.fn();
    const { rerender } = render(
      <Courses
        actions={{ createLabel: 'Create Course', onCreate, onGenerateSamples, generatingSamples: false }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Create Course' }));
    await user.click(screen.getByRole('button', { name: 'Generate Samples' }));
    expect(onCreate).toHaveBeenCalledTimes(1);
    expect(onGenerateSamples).toHaveBeenCalledTimes(1);

    rerender(<Courses actions={false} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows that samples are being generated, and can keep that button off phones', () => {
    render(
      <Courses
        actions={{
          createLabel: 'Create Course',
          onCreate: () => {},
          onGenerateSamples: () => {},
          generatingSamples: true,
          samplesDesktopOnly: true,
        }}
      />,
    );
    const samples = screen.getByRole('button', { name: 'Generate Samples' });
    expect(samples).toHaveAttribute('aria-busy', 'true');
    expect(samples).toHaveClass('hide-on-phone');
    expect(screen.getByRole('button', { name: 'Create Course' })).not.toHaveClass('hide-on-phone');
  });
});
