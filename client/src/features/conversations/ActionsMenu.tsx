import { MoreHorizontal } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { IconButton } from '../../components/IconButton';

export interface MenuAction {
  label: string;
  onSelect: () => void;
  tone?: 'danger';
}

/**
 * A "⋯" button that shows a short list of actions (a disclosure of buttons: Tab moves through
 * them, Escape or a click elsewhere closes it and focus returns to the button).
 */
export function ActionsMenu({ label, actions }: { label: string; actions: MenuAction[] }): ReactNode {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const menuRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const focusButton = () => menuRef.current?.querySelector('button')?.focus();

  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector('button')?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpen(false);
      focusButton();
    }
    function onPointerDown(event: PointerEvent) {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target)) setOpen(false);
    }
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  if (actions.length === 0) return null;
  return (
    <div className="actions-menu" ref={menuRef}>
      <IconButton
        label={label}
        icon={<MoreHorizontal />}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
      />
      {open && (
        <ul id={listId} ref={listRef} className="actions-menu__list">
          {actions.map((action) => (
            <li key={action.label}>
              <button
                type="button"
                className={
                  action.tone === 'danger'
                    ? 'actions-menu__item actions-menu__item--danger'
                    : 'actions-menu__item'
                }
                onClick={() => {
                  setOpen(false);
                  focusButton();
                  action.onSelect();
                }}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
