// The global stylesheet first, so component styles come after it and win ties.
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadForStartPath } from './app/router';
import { makeStore } from './app/store';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render Classwave into.');

preloadForStartPath(window.location.pathname);

createRoot(container).render(
  <StrictMode>
    <App store={makeStore()} />
  </StrictMode>,
);
