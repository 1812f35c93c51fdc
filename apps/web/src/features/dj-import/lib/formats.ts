import type { DjImportFormat } from '@wcs/contract';

/**
 * The formats the import reads (docs/interop.md "Formats"), named as people know them. The
 * contract's list is a zod enum; only its type is read here, and tsc refuses this table when the
 * list changes.
 */

/** Every format the import reads, by the contract's name. */
export const IMPORT_FORMAT_LABELS: Readonly<Record<DjImportFormat, string>> = {
  'rekordbox-xml': 'rekordbox XML',
  'traktor-nml': 'Traktor NML',
  'virtualdj-database': 'VirtualDJ database.xml',
  'virtualdj-m3u': 'VirtualDJ history M3U',
  'serato-crate': 'Serato crate',
  'serato-session': 'Serato session',
  'serato-history-csv': 'Serato history CSV',
  'serato-database': 'Serato database V2',
  'engine-dj': 'Engine DJ database',
  mixxx: 'Mixxx database',
  m3u8: 'M3U / M3U8',
  csv: 'CSV',
};

/**
 * The name of a format the server reports: a folder read whole gives several joined by '+'
 * ('engine-dj+engine-dj' reads as 'Engine DJ database'); an unknown name is shown as sent.
 */
export function formatLabel(format: string): string {
  const names = format
    .split('+')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) =>
      Object.hasOwn(IMPORT_FORMAT_LABELS, part) ? IMPORT_FORMAT_LABELS[part as DjImportFormat] : part,
    );
  return [...new Set(names)].join(' + ') || format;
}
