import { formatDate } from '../lib/format';

/** A calendar date (YYYY-MM-DD) in German format: `05.03.2026`; `formatDate` reads it as local. */
export const formatDateOnly = (value: string | null | undefined): string => formatDate(value);

/** A calendar date as a `<time>` element in German format. */
export function DateOnly({ value }: { value: string | null | undefined }) {
  return <time dateTime={value ?? undefined}>{formatDateOnly(value)}</time>;
}

/** `05.03.2026 – 07.03.2026`, or one date when both are the same day. */
export function DateRange({
  start,
  end,
}: {
  start: string | null | undefined;
  end: string | null | undefined;
}) {
  if (!end || end === start) return <DateOnly value={start} />;
  return (
    <>
      <DateOnly value={start} /> – <DateOnly value={end} />
    </>
  );
}
