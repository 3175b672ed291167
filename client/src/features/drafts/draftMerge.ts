import type { Draft } from '@classwave/shared';
import type { DeviceDraft } from './deviceStore';

/** What the answer box starts from when it opens: the server's draft and the device copy merged. */
export interface Opening {
  content: string;
  /** The server version the text builds on. */
  base: number;
  /** The text the server holds (null: none, or unknown while it cannot be reached). */
  acked: string | null;
  ackedAt: string | null;
  /** This device's text that another tab's newer save displaced: offered back, never dropped. */
  displaced: string | null;
  /** Another tab wrote over what this device had: say "Edited in another tab". */
  conflict: boolean;
}

/** Two displaced texts kept as one, neither lost (the longer one when one holds the other). */
export function joinDisplaced(
  kept: string | null | undefined,
  more: string | null | undefined,
): string | null {
  if (!kept) return more || null;
  if (!more || kept.includes(more)) return kept;
  if (more.includes(kept)) return more;
  return `${kept}\n\n${more}`;
}

/**
 * The newest of the server's draft and the device copy (DESIGN §12). The device's unsaved text is
 * taken when it was typed on the server's current version (or the server cannot be reached, or has
 * no draft); when the server moved on without it (another tab saved), the server's text is shown
 * and the device's is kept aside as displaced, so every typed character is still somewhere.
 */
export function openDraft(
  device: DeviceDraft | undefined,
  server: Draft | undefined,
  reached: boolean,
): Opening {
  const displaced = device?.displaced ?? null;
  const none: Opening = { content: '', base: 0, acked: null, ackedAt: null, displaced, conflict: false };
  if (!reached) {
    if (!device) return none;
    return {
      ...none,
      content: device.content,
      base: device.baseVersion,
      acked: device.synced ? device.content : null,
    };
  }
  if (!server) {
    // No draft on the server (never saved, or dropped since): the device's text is the newest there is.
    return device ? { ...none, content: device.content } : none;
  }
  const fromServer: Opening = {
    ...none,
    content: server.content,
    base: server.version,
    acked: server.content,
    ackedAt: server.updatedAt,
  };
  // The server's text already holds every character of the device's (it saved on from there).
  if (!device || device.synced || server.content.includes(device.content)) return fromServer;
  if (device.baseVersion === server.version) return { ...fromServer, content: device.content };
  return { ...fromServer, displaced: joinDisplaced(displaced, device.content), conflict: true };
}
