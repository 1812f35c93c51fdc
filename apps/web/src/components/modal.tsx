import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface ModalProps {
  /** Whether the dialog is shown; the parent owns this state. */
  isOpen: boolean;
  /** The dialog's accessible name, shown as its heading. */
  title: ReactNode;
  /** Called on the close button, Escape, and a click on the backdrop (unless `isDismissable` is false). */
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom (e.g. Cancel and Confirm); a Close button is not added for you. */
  actions?: ReactNode;
  /** Width: sm (forms), md (details), lg (lists and charts). Default md. */
  size?: 'sm' | 'md' | 'lg';
  /** False while a request is pending: Escape, backdrop and the corner X do nothing. Default true. */
  isDismissable?: boolean;
}

const WIDTHS = { sm: 'max-w-md', md: 'max-w-2xl', lg: 'max-w-5xl' } as const;

/**
 * A modal dialog on the native `<dialog>` element (focus trap, Escape and top layer from the
 * browser), named by its title so tests find it with `getByRole('dialog', { name })`.
 */
export function Modal({
  isOpen,
  title,
  onClose,
  children,
  actions,
  size = 'md',
  isDismissable = true,
}: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The latest handlers without re-running the open/close effect on every render.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const isDismissableRef = useRef(isDismissable);
  isDismissableRef.current = isDismissable;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) dialog.showModal();
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    // Escape fires `cancel`: keep the dialog under React's control and let the parent decide.
    const handleCancel = (event: Event) => {
      event.preventDefault();
      if (isDismissableRef.current) onCloseRef.current();
    };
    dialog.addEventListener('cancel', handleCancel);
    return () => dialog.removeEventListener('cancel', handleCancel);
  }, []);

  return (
    <dialog ref={dialogRef} className="modal" aria-labelledby={titleId}>
      {isOpen && (
        <div className={`modal-box ${WIDTHS[size]} w-11/12`}>
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 id={titleId} className="font-bold text-lg">
              {title}
            </h2>
            <button
              type="button"
              className="btn btn-circle btn-ghost btn-sm"
              aria-label="Close dialog"
              disabled={!isDismissable}
              onClick={onClose}
            >
              <X className="size-5" aria-hidden="true" />
            </button>
          </div>
          <div className="space-y-4">{children}</div>
          {actions && <div className="modal-action">{actions}</div>}
        </div>
      )}
      {/* The backdrop: a click outside the box dismisses the dialog (hidden from the a11y tree: Escape and the X do the same). */}
      <button
        type="button"
        className="modal-backdrop"
        aria-hidden="true"
        tabIndex={-1}
        onClick={() => {
          if (isDismissable) onClose();
        }}
      />
    </dialog>
  );
}
