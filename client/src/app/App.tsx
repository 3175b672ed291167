import { BrowserRouter } from 'react-router-dom';
import { AuthSync } from '../features/auth/AuthSync';
import { LiveWhenSignedIn } from '../realtime/LiveWhenSignedIn';
import { AppProviders } from './providers';
import { AppRoutes } from './router';
import type { AppStore } from './store';

export function App({ store }: { store: AppStore }) {
  return (
    <AppProviders store={store}>
      <BrowserRouter>
        <AuthSync />
        <LiveWhenSignedIn />
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
