import { describe, expect, it } from 'vitest';
import { clockTime, draftStatusText, safeToClose } from './draftStatus';

describe('the draft status line', () => {
  it('says each state exactly as DESIGN §12 words it', () => {
    const at = '2026-11-23T10:42:05.000Z';
    expect(draftStatusText({ kind: 'idle' })).toBe('');
    expect(draftStatusText({ kind: 'saving' })).toBe('Saving…');
    expect(draftStatusText({ kind: 'saved', at })).toBe(`Saved ${clockTime(at)}`);
    expect(clockTime(at)).toMatch(/^\d\d:\d\d$/);
    expect(draftStatusText({ kind: 'device' })).toBe('Saved on this device — reconnecting');
    expect(draftStatusText({ kind: 'unsaved' })).toBe('Not saved — check your connection');
  });

  it('lets the dialog close without asking only when the server has the text, or there is none', () => {
    const saved = { kind: 'saved', at: new Date().toISOString() } as const;
    expect(safeToClose(saved, 'words')).toBe(true);
    expect(safeToClose({ kind: 'idle' }, '  ')).toBe(true);
    for (const kind of ['saving', 'device', 'unsaved', 'idle'] as const)
      expect(safeToClose({ kind }, 'words')).toBe(false);
  });
});
