import type { Comment, Post } from '@classwave/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { emptyStream } from '../../test/api';
import { createComment, createCourse, createPost, liveEvent } from '../../test/factories';
import { renderRoute } from '../../test/renderRoute';

/** A student on a course page whose stream holds `posts`, with each post's comments answered from `comments`. */
function renderStream(posts: Post[], courseId: string, comments: Record<string, Comment[]> = {}) {
  const course = createCourse({ id: courseId });
  return renderRoute(`/courses/${course.id}`, 'student', {
    [`GET /api/courses/${course.id}`]: { body: { course, assignments: [] } },
    [`GET /api/courses/${course.id}/posts`]: { body: { ...emptyStream(course.id), items: posts } },
    ...Object.fromEntries(
      [...posts.map((p) => p.id), ...Object.keys(comments)].map((id) => [
        `GET /api/posts/${id}/comments`,
        { body: { items: comments[id] ?? [], nextBefore: null } },
      ]),
    ),
  });
}

const postArticle = (text: string) => screen.getByText(text).closest('article')!;

describe('CourseStream', () => {
  it('opens the course page on its stream, saying when there is nothing in it', async () => {
    const courseId = createCourse().id;
    renderStream([], courseId);
    const stream = await screen.findByRole('region', { name: 'Stream' });
    expect(await within(stream).findByRole('heading', { name: 'No posts yet' })).toBeInTheDocument();
    expect(within(stream).queryByLabelText('Share with your class')).not.toBeInTheDocument();
  });

  it('applies posts, edits, comments and deletions from live events to the shown stream, fetching nothing again', async () => {
    const courseId = createCourse().id;
    const first = createPost({ courseId, text: 'Welcome to the class.' });
    const arrived = createPost({ courseId, text: 'Lab on Friday.\nBring goggles.', seenByMe: false });
    const comment = createComment({ courseId, postId: arrived.id, text: 'Which room?' });
    // Opened after the comment, the post's comments are read from the server, which has it.
    const { store, calls, user } = renderStream([first], courseId, { [arrived.id]: [comment] });
    expect(await screen.findByText('Welcome to the class.')).toBeInTheDocument();

    act(() => void store.dispatch(applyLiveEvent(liveEvent('post:created', arrived))));
    await waitFor(() => expect(screen.getByText(/Lab on Friday\./)).toBeInTheDocument());
    // Newest first, the line break kept in the text.
    const posts = within(screen.getByRole('list', { name: 'Posts' })).getAllByRole('article');
    expect(posts[0]).toHaveTextContent('Lab on Friday.');
    expect(screen.getByText(/Lab on Friday\./).textContent).toBe('Lab on Friday.\nBring goggles.');
    // Shown, so marked seen (once).
    await waitFor(() => expect(calls.some((c) => c.path === `/api/posts/${arrived.id}/seen`)).toBe(true));

    act(
      () =>
        void store.dispatch(
          applyLiveEvent(
            liveEvent('post:updated', {
              ...arrived,
              text: 'Lab moved to Monday.',
              editedAt: arrived.createdAt,
            }),
          ),
        ),
    );
    await waitFor(() => expect(screen.getByText('Lab moved to Monday.')).toBeInTheDocument());
    expect(postArticle('Lab moved to Monday.')).toHaveTextContent('edited');

    // A comment counts on its post while closed, and shows once opened; its deletion leaves a tombstone.
    act(() => void store.dispatch(applyLiveEvent(liveEvent('comment:created', comment))));
    const toggle = await within(postArticle('Lab moved to Monday.')).findByRole('button', {
      name: '1 comment',
    });
    await user.click(toggle);
    expect(await screen.findByText('Which room?')).toBeInTheDocument();
    // The same comment again (a replay) is not a second one.
    act(() => void store.dispatch(applyLiveEvent(liveEvent('comment:created', comment))));
    act(
      () =>
        void store.dispatch(
          applyLiveEvent(
            liveEvent('comment:deleted', {
              id: comment.id,
              courseId,
              postId: arrived.id,
              thread: null,
              deletedAt: new Date().toISOString(),
            }),
          ),
        ),
    );
    await waitFor(() => expect(screen.queryByText('Which room?')).not.toBeInTheDocument());
    expect(screen.getByText('Comment deleted')).toBeInTheDocument();
    expect(within(postArticle('Lab moved to Monday.')).getAllByRole('listitem')).toHaveLength(1);

    act(() => void store.dispatch(applyLiveEvent(liveEvent('post:deleted', { id: first.id, courseId }))));
    await waitFor(() => expect(screen.queryByText('Welcome to the class.')).not.toBeInTheDocument());

    // Everything above came by events: the stream and the comments were each read once.
    expect(
      calls.filter((c) => c.method === 'GET' && c.path === `/api/courses/${courseId}/posts`),
    ).toHaveLength(1);
    expect(calls.filter((c) => c.path === `/api/posts/${arrived.id}/comments`)).toHaveLength(1);
  });

  it('closes the comment box when the teacher turns comments off for the class', async () => {
    const courseId = createCourse().id;
    const post = createPost({ courseId, text: 'Questions welcome.' });
    const { store, user } = renderStream([post], courseId);
    await user.click(await screen.findByRole('button', { name: 'Add a comment' }));
    expect(await screen.findByLabelText('Add a class comment')).toBeInTheDocument();
    act(
      () => void store.dispatch(applyLiveEvent(liveEvent('stream:updated', { courseId, commentsOff: true }))),
    );
    expect(await screen.findByText('Comments are turned off in this class.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Add a class comment')).not.toBeInTheDocument();
  });

  it('shows a post\'s files, moves the teacher\'s "seen by" live, marks the stream read, and pages older comments', async () => {
    const course = createCourse();
    const file = { id: createPost().id, name: 'slides.pdf', size: 2048, type: 'application/pdf' };
    const post = createPost({
      courseId: course.id,
      text: 'Slides for week 1.',
      files: [file],
      commentCount: 2,
      seen: { count: 0, of: 3, by: [] },
    });
    const older = createComment({ courseId: course.id, postId: post.id, text: 'An older word' });
    const newer = createComment({ courseId: course.id, postId: post.id, text: 'The newest word' });
    const { store, calls, user } = renderRoute(`/courses/${course.id}`, 'teacher', (me) => ({
      [`GET /api/courses/${course.id}`]: {
        body: { course: { ...course, teacherId: me.id }, assignments: [] },
      },
      [`GET /api/courses/${course.id}/posts`]: { body: { ...emptyStream(course.id), items: [post] } },
      [`GET /api/posts/${post.id}/comments`]: ({ url }) =>
        url.searchParams.get('before')
          ? { body: { items: [older], nextBefore: null } }
          : { body: { items: [newer], nextBefore: 'cursor-1' } },
      [`POST /api/courses/${course.id}/stream/read`]: { status: 204 },
    }));
    const article = (await screen.findByText('Slides for week 1.')).closest('article')!;
    expect(within(article).getByRole('list', { name: 'Files of the post' })).toHaveTextContent('slides.pdf');
    expect(within(article).getByText('Seen by 0 of 3')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'POST' && c.path === `/api/courses/${course.id}/stream/read`),
      ).toBe(true),
    );

    const by = [{ id: 'a', fullName: 'Ada' }];
    act(
      () =>
        void store.dispatch(
          applyLiveEvent(
            liveEvent('post:seen', { postId: post.id, courseId: course.id, seen: { count: 1, of: 3, by } }),
          ),
        ),
    );
    expect(await within(article).findByRole('button', { name: 'Seen by 1 of 3' })).toBeInTheDocument();

    await user.click(within(article).getByRole('button', { name: '2 comments' }));
    expect(await screen.findByText('The newest word')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show older comments' }));
    expect(await screen.findByText('An older word')).toBeInTheDocument();
    // Oldest first, and no more to show.
    const words = within(article)
      .getAllByText(/word$/)
      .map((e) => e.textContent);
    expect(words).toEqual(['An older word', 'The newest word']);
    expect(screen.queryByRole('button', { name: 'Show older comments' })).not.toBeInTheDocument();
  });
});
