import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** localStorage key for the side navigation's collapsed state (remembered across visits, DESIGN §9). */
export const SIDEBAR_COLLAPSED_KEY = 'classwave:sidebar-collapsed';

export interface LayoutState {
  /** Desktop: icons only. */
  sidebarCollapsed: boolean;
  /** Phone width: the navigation drawer is open. */
  mobileNavOpen: boolean;
}

/** The remembered collapsed state; false when nothing is stored or storage is unavailable. */
export function readSidebarCollapsed(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function writeSidebarCollapsed(collapsed: boolean): void {
  try {
    window.localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(collapsed));
  } catch {
    // Private mode or a full quota: the choice simply is not remembered.
  }
}

export const layoutSlice = createSlice({
  name: 'layout',
  initialState: (): LayoutState => ({ sidebarCollapsed: readSidebarCollapsed(), mobileNavOpen: false }),
  reducers: {
    sidebarToggled(state) {
      state.sidebarCollapsed = !state.sidebarCollapsed;
    },
    mobileNavSet(state, action: PayloadAction<boolean>) {
      state.mobileNavOpen = action.payload;
    },
  },
  selectors: {
    selectSidebarCollapsed: (state) => state.sidebarCollapsed,
    selectMobileNavOpen: (state) => state.mobileNavOpen,
  },
});

export const { sidebarToggled, mobileNavSet } = layoutSlice.actions;
export const { selectSidebarCollapsed, selectMobileNavOpen } = layoutSlice.selectors;
