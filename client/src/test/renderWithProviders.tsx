import { render, screen, type RenderOptions, type waitForOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { AppProviders } from '../app/providers';
import { makeStore, type AppStore, type RootState } from '../app/store';

export interface ProvidersOptions extends Omit<RenderOptions, 'wrapper'> {
  preloadedState?: Partial<RootState>;
  /** The URL the MemoryRouter starts at. */
  route?: string;
}

/** Renders `ui` with a fresh store, the toaster and a MemoryRouter at `route`. */
export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, route = '/', ...options }: ProvidersOptions = {},
) {
  const store: AppStore = makeStore(preloadedState);
  const user = userEvent.setup();
  const result = render(
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </AppProviders>,
    options,
  );
  return { store, user, ...result };
}

/** Finds a toast (sonner) by its text, ignoring the same text elsewhere on the page. */
export function findToast(text: string | RegExp, wait?: waitForOptions) {
  return screen.findByText(text, { selector: '[data-sonner-toast] *' }, wait);
}
