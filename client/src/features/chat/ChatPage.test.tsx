import { QUICK_QUESTIONS } from '@classwave/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedInAuth } from '../../test/factories';
import { renderWithProviders } from '../../test/renderWithProviders';
import { signedOut } from '../auth/authSlice';
import { ChatPage } from './ChatPage';
import { keptConversation } from './chatTab';

const renderChat = (chat?: {
  messages: Array<{ id: string; type: 'user' | 'bot'; content: string; timestamp: string }>;
  pending: boolean;
}) =>
  renderWithProviders(<ChatPage />, {
    route: '/chatbot',
    preloadedState: { auth: signedInAuth({ fullName: 'Ada Lovelace' }), ...(chat ? { chat } : {}) },
  });

describe('ChatPage', () => {
  it('greets the user by first name, lists the help topics and offers the five quick questions', () => {
    renderChat();
    expect(screen.getByRole('heading', { level: 1, name: 'AI Learning Assistant' })).toBeInTheDocument();
    expect(screen.getByText(/Hi Ada!/)).toBeInTheDocument();
    expect(screen.getByText('Study tips and strategies')).toBeInTheDocument();
    const chips = screen.getByRole('group', { name: 'Quick questions' });
    for (const q of QUICK_QUESTIONS) expect(chips).toContainElement(screen.getByRole('button', { name: q }));
  });

  it('hides the quick questions once the conversation has started', () => {
    renderChat({
      messages: [{ id: 'u1', type: 'user', content: 'hello', timestamp: new Date().toISOString() }],
      pending: false,
    });
    expect(screen.queryByRole('group', { name: 'Quick questions' })).not.toBeInTheDocument();
  });

  it('disables the input and shows that the assistant is thinking while a question is pending', () => {
    renderChat({
      messages: [{ id: 'u1', type: 'user', content: 'hello', timestamp: new Date().toISOString() }],
      pending: true,
    });
    expect(screen.getByLabelText('Your question')).toBeDisabled();
    expect(screen.getByLabelText('The assistant is thinking')).toBeInTheDocument();
  });

  it('shows messages as text, never as HTML', () => {
    renderChat({
      messages: [{ id: 'u1', type: 'user', content: '<b>bold?</b>', timestamp: new Date().toISOString() }],
      pending: false,
    });
    expect(screen.getByText('<b>bold?</b>')).toBeInTheDocument();
    expect(document.querySelector('.chat b')).toBeNull();
  });

  it('ignores a blank question', async () => {
    const { user, store } = renderChat();
    await user.type(screen.getByLabelText('Your question'), '   {Enter}');
    expect(store.getState().chat.messages).toEqual([]);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  // Issue 25: the conversation vanished on a reload; it stays in the tab, for its user only.
  it('keeps the conversation across a reload of the tab, for the user who had it, until sign-out', async () => {
    const auth = signedInAuth({ fullName: 'Ada Lovelace' });
    const said = {
      id: 'u-1',
      type: 'user' as const,
      content: 'What is due this week?',
      timestamp: new Date().toISOString(),
    };
    const first = renderWithProviders(<ChatPage />, {
      route: '/chatbot',
      preloadedState: { auth, chat: { messages: [said], pending: false } },
    });
    first.unmount();
    // A reload: a new store, nothing in it, the same tab's storage.
    const again = renderWithProviders(<ChatPage />, { route: '/chatbot', preloadedState: { auth } });
    expect(await screen.findByText('What is due this week?')).toBeInTheDocument();
    again.unmount();
    // Another account in the same tab sees nothing of it.
    const other = renderWithProviders(<ChatPage />, {
      route: '/chatbot',
      preloadedState: { auth: signedInAuth({ fullName: 'Ben Other' }) },
    });
    expect(screen.queryByText('What is due this week?')).not.toBeInTheDocument();
    other.store.dispatch(signedOut());
    expect(keptConversation(auth.profile!.id)).toEqual([]);
  });
});
