import type { DjExportFormat } from '@wcs/contract';
import { type ApiRequest, buildUrl } from './api';
import { API_ROUTES } from './api-routes';

/**
 * The DJ programs' file formats the export writes (docs/interop.md "Formats"), named as people
 * know them, and the address that downloads one. The contract's list is a zod enum; only its type
 * is read here, and tsc refuses the table when the list changes.
 */

const EXPORT_FORMAT_LABELS: Readonly<Record<DjExportFormat, string>> = {
  'rekordbox-xml': 'rekordbox XML',
  'traktor-nml': 'Traktor NML',
  'serato-crate': 'Serato crate',
  'virtualdj-m3u': 'VirtualDJ M3U',
  m3u8: 'M3U8',
  csv: 'CSV',
};

export interface ExportFormat {
  format: DjExportFormat;
  label: string;
}

/** The formats the export writes, in the order the menus list them. */
export const EXPORT_FORMATS: readonly ExportFormat[] = (
  Object.keys(EXPORT_FORMAT_LABELS) as DjExportFormat[]
).map((format) => ({ format, label: EXPORT_FORMAT_LABELS[format] }));

/** What an export holds: one playlist, an event's played songs, or the library; the Songs filters narrow any of them. */
export type ExportSelection = Omit<ApiRequest<'exportInterop'>['query'] & object, 'map'>;

/**
 * GET /api/interop/export/{format}: a generated playlist, an event's played songs, or the whole
 * library, narrowed by the Songs filters. A plain link downloads it (the session cookie goes
 * along; the server names the file).
 */
export function exportUrl(format: DjExportFormat, selection: ExportSelection = {}): string {
  return buildUrl(API_ROUTES.exportInterop[1], { format }, selection);
}
