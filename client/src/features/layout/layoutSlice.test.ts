import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { mobileNavSet, SIDEBAR_COLLAPSED_KEY, sidebarToggled } from './layoutSlice';

describe('layoutSlice', () => {
  it('starts expanded with the drawer closed on a first visit', () => {
    expect(makeStore().getState().layout).toEqual({ sidebarCollapsed: false, mobileNavOpen: false });
  });

  it('starts from the collapsed state remembered in localStorage', () => {
    window.localStorage.setItem(SIDEBAR_COLLAPSED_KEY, 'true');
    expect(makeStore().getState().layout.sidebarCollapsed).toBe(true);
  });

  it('remembers each toggle and does not persist the drawer', () => {
    const store = makeStore();
    store.dispatch(sidebarToggled());
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
    store.dispatch(mobileNavSet(true));
    expect(store.getState().layout).toEqual({ sidebarCollapsed: true, mobileNavOpen: true });
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
  });
});
