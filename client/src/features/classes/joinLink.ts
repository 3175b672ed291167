import { joinPath, normalizeJoinCode } from '@classwave/shared';

/** The join link of a code, on this app's origin (the one the server calls APP_ORIGIN). */
export const joinLinkOf = (joinCode: string) =>
  `${window.location.origin}${joinPath(normalizeJoinCode(joinCode) ?? joinCode)}`;
