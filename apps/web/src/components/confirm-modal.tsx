import type { ReactNode } from 'react';
import { errorMessage } from '../lib/api';
import { Modal } from './modal';

export interface ConfirmModalProps {
  isOpen: boolean;
  title: string;
  /** The destructive button's text: 'Delete account', 'Revoke token'. */
  confirmLabel: string;
  /** While the change runs: both buttons wait, the dialog cannot be dismissed, a spinner shows. */
  isPending: boolean;
  /** The failure of the last attempt, shown under the explanation. */
  error: unknown;
  onCancel: () => void;
  onConfirm: () => void;
  /** What confirming does and what it leaves. */
  children: ReactNode;
}

/** A question before a change that cannot be undone, with Cancel and the change itself. */
export function ConfirmModal({
  isOpen,
  title,
  confirmLabel,
  isPending,
  error,
  onCancel,
  onConfirm,
  children,
}: ConfirmModalProps) {
  return (
    <Modal
      isOpen={isOpen}
      title={title}
      onClose={onCancel}
      size="sm"
      isDismissable={!isPending}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel} disabled={isPending}>
            Cancel
          </button>
          <button type="button" className="btn btn-error" disabled={isPending} onClick={onConfirm}>
            {isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {error != null && (
        <div role="alert" className="alert alert-error alert-soft">
          {errorMessage(error)}
        </div>
      )}
    </Modal>
  );
}
