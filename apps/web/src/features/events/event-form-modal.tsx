import { type FormEvent, useId, useMemo, useState } from 'react';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import {
  browserTimeZone,
  type EventFormErrors,
  type EventFormValues,
  timeZoneOptions,
  toEventCreate,
  validateEventForm,
} from './event-form';
import { useCreateEvent } from './queries';

function emptyForm(): EventFormValues {
  const today = new Date();
  const iso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  return {
    name: '',
    startDate: iso,
    endDate: iso,
    location: '',
    isFestival: false,
    timezone: browserTimeZone(),
  };
}

interface EventFormModalProps {
  isOpen: boolean;
  onClose: () => void;
  /** Called with the created event's name. */
  onCreated: (eventName: string) => void;
}

/** Add Event: name, dates, location, festival or party, time zone; validated here and by the server. */
export function EventFormModal({ isOpen, onClose, onCreated }: EventFormModalProps) {
  const [values, setValues] = useState<EventFormValues>(emptyForm);
  const [errors, setErrors] = useState<EventFormErrors>({});
  const create = useCreateEvent();
  const zones = useMemo(() => timeZoneOptions(values.timezone), [values.timezone]);
  const formId = useId();
  const ids = {
    name: `${formId}-name`,
    start: `${formId}-start`,
    end: `${formId}-end`,
    location: `${formId}-location`,
    timezone: `${formId}-timezone`,
  };

  const close = () => {
    setValues(emptyForm());
    setErrors({});
    create.reset();
    onClose();
  };

  const set = <K extends keyof EventFormValues>(key: K, value: EventFormValues[K]) =>
    setValues((previous) => ({ ...previous, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateEventForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(toEventCreate(values), {
      onSuccess: (created) => {
        onCreated(created.event_name);
        close();
      },
    });
  };

  const fieldError = (key: keyof EventFormErrors, id: string) =>
    errors[key] && (
      <p id={`${id}-error`} className="mt-1 text-error text-sm">
        {errors[key]}
      </p>
    );

  return (
    <Modal
      isOpen={isOpen}
      title="Add Event"
      onClose={close}
      size="sm"
      isDismissable={!create.isPending}
      actions={
        <>
          <button type="button" className="btn" onClick={close} disabled={create.isPending}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={create.isPending}>
            {create.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {create.isPending ? 'Saving...' : 'Save Event'}
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-3">
        {create.isError && (
          <div role="alert" className="alert alert-error alert-soft">
            {errorMessage(create.error)}
          </div>
        )}
        <div>
          <label htmlFor={ids.name} className="label-text mb-1 block">
            Event name
          </label>
          <input
            id={ids.name}
            type="text"
            className={`input input-bordered w-full ${errors.name ? 'input-error' : ''}`}
            value={values.name}
            onChange={(event) => set('name', event.target.value)}
            aria-invalid={Boolean(errors.name)}
            aria-describedby={errors.name ? `${ids.name}-error` : undefined}
            required
            maxLength={200}
          />
          {fieldError('name', ids.name)}
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label htmlFor={ids.start} className="label-text mb-1 block">
              Start date
            </label>
            <input
              id={ids.start}
              type="date"
              className={`input input-bordered w-full ${errors.startDate ? 'input-error' : ''}`}
              value={values.startDate}
              onChange={(event) => set('startDate', event.target.value)}
              aria-invalid={Boolean(errors.startDate)}
              aria-describedby={errors.startDate ? `${ids.start}-error` : undefined}
              required
            />
            {fieldError('startDate', ids.start)}
          </div>
          <div>
            <label htmlFor={ids.end} className="label-text mb-1 block">
              End date
            </label>
            <input
              id={ids.end}
              type="date"
              className={`input input-bordered w-full ${errors.endDate ? 'input-error' : ''}`}
              value={values.endDate}
              min={values.startDate || undefined}
              onChange={(event) => set('endDate', event.target.value)}
              aria-invalid={Boolean(errors.endDate)}
              aria-describedby={errors.endDate ? `${ids.end}-error` : undefined}
              required
            />
            {fieldError('endDate', ids.end)}
          </div>
        </div>
        <div>
          <label htmlFor={ids.location} className="label-text mb-1 block">
            Location (optional)
          </label>
          <input
            id={ids.location}
            type="text"
            className="input input-bordered w-full"
            value={values.location}
            onChange={(event) => set('location', event.target.value)}
            maxLength={200}
          />
        </div>
        <fieldset>
          <legend className="label-text mb-1">Type</legend>
          <div className="flex gap-6">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                className="radio radio-sm"
                name={`${formId}-type`}
                checked={!values.isFestival}
                onChange={() => set('isFestival', false)}
              />
              Party
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                className="radio radio-sm"
                name={`${formId}-type`}
                checked={values.isFestival}
                onChange={() => set('isFestival', true)}
              />
              Festival
            </label>
          </div>
        </fieldset>
        <div>
          <label htmlFor={ids.timezone} className="label-text mb-1 block">
            Time zone
          </label>
          <select
            id={ids.timezone}
            className="select select-bordered w-full"
            value={values.timezone}
            onChange={(event) => set('timezone', event.target.value)}
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
          {fieldError('timezone', ids.timezone)}
          <p className="mt-1 text-base-content/60 text-xs">
            The nights and time windows are reckoned in this zone.
          </p>
        </div>
      </form>
    </Modal>
  );
}
