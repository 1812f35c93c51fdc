import { DJ_EXPORT_FORMATS } from '@wcs/contract';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, exportUrl } from './dj-formats';

describe('the export formats', () => {
  it('name every format the contract writes, in its order', () => {
    expect(EXPORT_FORMATS.map((entry) => entry.format)).toEqual([...DJ_EXPORT_FORMATS]);
    expect(EXPORT_FORMATS.map((entry) => entry.label)).toEqual([
      'rekordbox XML',
      'Traktor NML',
      'Serato crate',
      'VirtualDJ M3U',
      'M3U8',
      'CSV',
    ]);
  });
});

describe('exportUrl', () => {
  it('is the export call of one playlist, or of the whole library without one', () => {
    expect(exportUrl('rekordbox-xml', { playlist_id: 12 })).toBe(
      '/api/interop/export/rekordbox-xml?playlist_id=12',
    );
    expect(exportUrl('csv')).toBe('/api/interop/export/csv');
  });
});
