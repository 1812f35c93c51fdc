import type { ScrapedEvent } from '@wcs/contract';
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '../../components/modal';
import { errorMessage, listItems } from '../../lib/api';
import { type ReviewActionKind, useMergeTargets, useReviewAction } from './queries';
import { changedOverrides } from './review-state';

const TITLES: Record<ReviewActionKind, string> = {
  create: 'Create Event',
  approved: 'Approve Event',
  merged: 'Merge Event',
  rejected: 'Reject Event',
};

interface ReviewActionDialogProps {
  /** The event and the action chosen on its card; null when the dialog is closed. */
  action: { kind: ReviewActionKind; event: ScrapedEvent } | null;
  onClose: () => void;
  /** Called after the server accepted the action, with a sentence saying what happened. */
  onDone: (summary: string) => void;
}

/** The action dialog: Create (editable name and location), Merge (an existing event), notes, Confirm. */
export function ReviewActionDialog({ action, onClose, onDone }: ReviewActionDialogProps) {
  return (
    <Modal
      isOpen={action !== null}
      title={action ? `${TITLES[action.kind]}: ${action.event.event_name}` : 'Review'}
      onClose={onClose}
      size="sm"
    >
      {action && (
        // Keyed by event and action, so each opening starts from the scraped values.
        <ReviewActionForm
          key={`${action.kind}-${action.event.id}`}
          kind={action.kind}
          event={action.event}
          onClose={onClose}
          onDone={onDone}
        />
      )}
    </Modal>
  );
}

function ReviewActionForm({
  kind,
  event,
  onClose,
  onDone,
}: {
  kind: ReviewActionKind;
  event: ScrapedEvent;
  onClose: () => void;
  onDone: (summary: string) => void;
}) {
  const formId = useId();
  const [name, setName] = useState(event.event_name);
  const [location, setLocation] = useState(event.location ?? '');
  const [mergeWith, setMergeWith] = useState('');
  const [notes, setNotes] = useState('');
  const review = useReviewAction();
  const targets = useMergeTargets(kind === 'merged');
  const targetList = listItems(targets.data);
  // Potential duplicates first: they are the likely merge targets.
  const duplicateIds = new Set(event.potential_duplicates.map((duplicate) => duplicate.event_id));
  const orderedTargets = [
    ...targetList.filter((target) => duplicateIds.has(target.event_id)),
    ...targetList.filter((target) => !duplicateIds.has(target.event_id)),
  ];

  const isConfirmDisabled = review.isPending || (kind === 'merged' && mergeWith === '');

  const submit = (formEvent: FormEvent) => {
    formEvent.preventDefault();
    if (isConfirmDisabled) return;
    const overrides = kind === 'create' ? changedOverrides(event, { name, location }) : {};
    review.mutate(
      {
        kind,
        scrapedEventId: event.id,
        notes,
        overrideName: overrides.override_name,
        overrideLocation: overrides.override_location,
        mergeWithEventId: kind === 'merged' ? Number(mergeWith) : undefined,
      },
      {
        onSuccess: () => {
          const target = targetList.find((candidate) => String(candidate.event_id) === mergeWith);
          const summaries: Record<ReviewActionKind, string> = {
            create: `Event "${overrides.override_name ?? event.event_name}" was created.`,
            approved: `"${event.event_name}" was approved.`,
            merged: `"${event.event_name}" was merged into "${target?.event_name ?? 'the chosen event'}".`,
            rejected: `"${event.event_name}" was rejected.`,
          };
          onDone(summaries[kind]);
        },
      },
    );
  };

  return (
    <form id={formId} onSubmit={submit} className="space-y-3">
      {review.isError && (
        <div role="alert" className="alert alert-error alert-soft">
          {errorMessage(review.error)}
        </div>
      )}
      {kind === 'create' && (
        <>
          <div>
            <label htmlFor={`${formId}-name`} className="label-text mb-1 block">
              Event Name
            </label>
            <input
              id={`${formId}-name`}
              type="text"
              className="input input-bordered w-full"
              value={name}
              maxLength={200}
              onChange={(change) => setName(change.target.value)}
            />
          </div>
          <div>
            <label htmlFor={`${formId}-location`} className="label-text mb-1 block">
              Location
            </label>
            <input
              id={`${formId}-location`}
              type="text"
              className="input input-bordered w-full"
              value={location}
              maxLength={200}
              onChange={(change) => setLocation(change.target.value)}
            />
          </div>
        </>
      )}
      {kind === 'merged' && (
        <div>
          <label htmlFor={`${formId}-merge`} className="label-text mb-1 block">
            Merge with existing event
          </label>
          <select
            id={`${formId}-merge`}
            className="select select-bordered w-full"
            value={mergeWith}
            onChange={(change) => setMergeWith(change.target.value)}
            required
            disabled={targets.isPending}
          >
            <option value="">{targets.isPending ? 'Loading events...' : 'Select an event...'}</option>
            {orderedTargets.map((target) => (
              <option key={target.event_id} value={target.event_id}>
                {target.event_name} ({target.start_date})
                {duplicateIds.has(target.event_id) ? ' - potential duplicate' : ''}
              </option>
            ))}
          </select>
          {targets.isError && <p className="mt-1 text-error text-sm">{errorMessage(targets.error)}</p>}
        </div>
      )}
      {kind === 'approved' && (
        <p className="text-sm">Mark this scraped event as a real event worth keeping.</p>
      )}
      {kind === 'rejected' && <p className="text-sm">Mark this scraped event as not relevant.</p>}
      <div>
        <label htmlFor={`${formId}-notes`} className="label-text mb-1 block">
          Notes (optional)
        </label>
        <textarea
          id={`${formId}-notes`}
          className="textarea textarea-bordered w-full"
          rows={3}
          maxLength={2000}
          value={notes}
          onChange={(change) => setNotes(change.target.value)}
        />
      </div>
      <div className="modal-action">
        <button type="button" className="btn" onClick={onClose} disabled={review.isPending}>
          Cancel
        </button>
        <button
          type="submit"
          className={`btn ${kind === 'rejected' ? 'btn-error' : 'btn-primary'}`}
          disabled={isConfirmDisabled}
        >
          {review.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {review.isPending ? 'Processing...' : 'Confirm'}
        </button>
      </div>
    </form>
  );
}
