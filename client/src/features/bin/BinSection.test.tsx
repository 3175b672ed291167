import type { BinItem } from '@classwave/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../test/api';
import { createCourse } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';
import { findToast } from '../../test/renderWithProviders';

afterEach(() => {
  vi.unstubAllGlobals();
});

const binned = (overrides: Partial<BinItem> = {}): BinItem => ({
  kind: 'assignment',
  id: crypto.randomUUID(),
  title: 'Lab report',
  courseId: crypto.randomUUID(),
  courseTitle: 'Biology',
  deletedAt: new Date().toISOString(),
  purgeAt: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
  contents: { submissions: 3, grades: 2, drafts: 0, assignments: 0, students: 0 },
  ...overrides,
});

describe('the bin on the Courses page', () => {
  it('lists what was deleted with what it holds, and restores it', async () => {
    const item = binned();
    let restored = false;
    const { user, calls } = renderRoute('/courses', 'teacher', () => ({
      'GET /api/courses': { body: [createCourse()] },
      'GET /api/bin': () => ({ body: { items: restored ? [] : [item] } }),
      [`POST /api/bin/assignment/${item.id}/restore`]: () => {
        restored = true;
        return { status: 204 };
      },
    }));
    const bin = await screen.findByRole('region', { name: 'Bin' });
    const row = within(bin).getByRole('listitem', { name: 'Lab report' });
    expect(row).toHaveTextContent('3 submissions, 2 grades');
    expect(row).toHaveTextContent('deleted for good on');
    await user.click(within(row).getByRole('button', { name: 'Restore' }));
    expect(await findToast('“Lab report” restored')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/restore'))).toBe(true);
    // The bin loads again and, empty, is not shown.
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Bin' })).not.toBeInTheDocument());
  });

  it('says why a restore was refused', async () => {
    const item = binned({ kind: 'assignment' });
    const { user } = renderRoute('/courses', 'teacher', () => ({
      'GET /api/courses': { body: [] },
      'GET /api/bin': { body: { items: [item] } },
      [`POST /api/bin/assignment/${item.id}/restore`]: apiError(409, 'Restore the course Biology first.'),
    }));
    const bin = await screen.findByRole('region', { name: 'Bin' });
    await user.click(within(bin).getByRole('button', { name: 'Restore' }));
    expect(await findToast('Restore the course Biology first.')).toBeInTheDocument();
  });

  it('is not shown to students', async () => {
    renderRoute('/courses', 'student', () => ({ 'GET /api/courses': { body: [createCourse()] } }));
    await screen.findByRole('article');
    expect(screen.queryByRole('region', { name: 'Bin' })).not.toBeInTheDocument();
  });
});
