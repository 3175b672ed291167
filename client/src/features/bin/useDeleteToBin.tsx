import { BIN_KEEP_DAYS, describeContents, type BinContents, type BinKind } from '@classwave/shared';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { useConfirm } from '../../components/ConfirmDialog';
import { useLazyGetBinContentsQuery, useRestoreFromBinMutation } from './binApi';

const capitalized = (kind: BinKind) => `${kind[0]!.toUpperCase()}${kind.slice(1)}`;

/** What the confirmation says goes with it; the counts unknown (the request failed), it says so. */
function whatGoes(contents: BinContents | undefined): string {
  if (!contents) return 'It moves to the bin with whatever it holds.';
  const held = describeContents(contents);
  return held ? `It moves to the bin with ${held}.` : 'It moves to the bin. It holds no student work.';
}

/**
 * Deleting a course or an assignment (DESIGN §17): the app's dialog names what goes to the bin
 * with it ("3 submissions, 2 grades"), and the toast after it offers Undo (a restore).
 */
export function useDeleteToBin(): {
  confirmDelete: (kind: BinKind, id: string, title: string) => Promise<boolean>;
  deleted: (kind: BinKind, id: string) => void;
  dialog: ReactNode;
} {
  const [confirm, dialog] = useConfirm();
  const [loadContents] = useLazyGetBinContentsQuery();
  const [restore] = useRestoreFromBinMutation();

  async function confirmDelete(kind: BinKind, id: string, title: string) {
    // Without the counts (the request failed) the question is still asked, and the bin still keeps it.
    const { data } = await loadContents({ kind, id });
    return confirm({
      title: `Delete the ${kind} “${title}”?`,
      description: whatGoes(data),
      children: (
        <p>
          Its students no longer see it. You can restore it from the bin for {BIN_KEEP_DAYS} days; after that
          it is deleted for good.
        </p>
      ),
      confirmLabel: `Delete ${kind}`,
    });
  }

  function deleted(kind: BinKind, id: string) {
    toast.success(`${capitalized(kind)} moved to the bin`, {
      action: {
        label: 'Undo',
        onClick: () => {
          restore({ kind, id })
            .unwrap()
            .then(
              () => toast.success(`${capitalized(kind)} restored`),
              () => toast.error(`Could not restore the ${kind}. It is still in the bin.`),
            );
        },
      },
    });
  }

  return { confirmDelete, deleted, dialog };
}
