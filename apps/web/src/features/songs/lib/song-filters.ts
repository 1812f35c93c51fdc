import {
  type AgeCategory,
  ENERGY_BANDS,
  type EnergyBand,
  type Genre,
  POPULARITY_BANDS,
  type PopularityBand,
  SONGS_PAGE_SIZE,
  type Song,
} from '@wcs/contract';

export type AnalysisStatus = 'analyzed' | 'pending' | 'no-file';
export type FileStatus = 'downloaded' | 'not_downloaded';

/** The six filters of the Songs screen; '' means no filter. */
export interface SongFilters {
  genre: Genre | '';
  age: AgeCategory | '';
  energy: EnergyBand | '';
  analysis: Exclude<AnalysisStatus, 'no-file'> | '';
  fileStatus: FileStatus | '';
  popularity: PopularityBand | '';
}

export const NO_FILTERS: SongFilters = {
  genre: '',
  age: '',
  energy: '',
  analysis: '',
  fileStatus: '',
  popularity: '',
};

export function hasAnyFilter(filters: SongFilters): boolean {
  return Object.values(filters).some((value) => value !== '');
}

/**
 * Every filter of the screen and its search as the server's song filter (the export's query): an
 * export holds the songs the filters select over the whole library.
 */
export function songFilterQuery(filters: SongFilters, search: string) {
  const q = search.trim();
  return {
    genre: filters.genre || undefined,
    age_category: filters.age || undefined,
    has_file: filters.fileStatus === '' ? undefined : String(filters.fileStatus === 'downloaded'),
    energy: filters.energy || undefined,
    analysis: filters.analysis || undefined,
    popularity: filters.popularity || undefined,
    q: q === '' ? undefined : q,
  };
}

/**
 * The query of GET /songs/ for one page: every filter and the search are applied by the server,
 * over the whole library, so the total and the pages follow them.
 */
export function songListQuery(filters: SongFilters, search: string, page: number) {
  return { skip: page * SONGS_PAGE_SIZE, limit: SONGS_PAGE_SIZE, ...songFilterQuery(filters, search) };
}

/** analyzed: analysed_at present; pending: a file waiting for analysis; no-file: nothing to analyse. */
export function analysisStatus(song: Pick<Song, 'analyzed_at' | 'file_present'>): AnalysisStatus {
  if (song.analyzed_at) return 'analyzed';
  return song.file_present ? 'pending' : 'no-file';
}

export function energyBand(energyLevel: number | null): EnergyBand | null {
  if (energyLevel === null) return null;
  if (energyLevel >= ENERGY_BANDS.high.min) return 'high';
  if (energyLevel >= ENERGY_BANDS.mid.min) return 'mid';
  return 'low';
}

export function popularityBand(popularity: number | null): PopularityBand | null {
  if (popularity === null) return null;
  if (popularity >= POPULARITY_BANDS.hot.min) return 'hot';
  if (popularity >= POPULARITY_BANDS.popular.min) return 'popular';
  return 'niche';
}
