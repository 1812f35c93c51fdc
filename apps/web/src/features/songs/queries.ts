import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { Song } from '@wcs/contract';
import { apiCall } from '../../lib/api';
import { useMorePages } from '../../lib/more-pages';
import { NO_FILTERS, type SongFilters, songListQuery } from './lib/song-filters';

const songsOptions = (filters: SongFilters, search: string, page: number) => {
  const query = songListQuery(filters, search, page);
  return queryOptions({
    queryKey: ['songs', 'list', query],
    queryFn: ({ signal }) => apiCall('listSongs', { query }, { signal }),
  });
};

/** One page of GET /songs/ with the screen's filters and search, applied by the server. */
export function useSongs(filters: SongFilters, search: string, page: number) {
  // Keep the current page on screen while the next one loads.
  return useQuery({ ...songsOptions(filters, search, page), placeholderData: keepPreviousData });
}

/** GET /analytics/song-performance/{id}: totals, plays per month and the play history. */
export function useSongPerformance(songId: number) {
  return useQuery({
    queryKey: ['analytics', 'song-performance', songId],
    queryFn: ({ signal }) => apiCall('songPerformance', { params: { id: songId } }, { signal }),
  });
}

/** GET /analytics/spotify-popularity/{id}: the stored popularity history. */
export function useSpotifyPopularity(songId: number) {
  return useQuery({
    queryKey: ['analytics', 'spotify-popularity', songId],
    queryFn: ({ signal }) => apiCall('spotifyPopularity', { params: { id: songId } }, { signal }),
  });
}

/** While analyses run, the status and the song list refresh this often; otherwise every minute. */
export const ANALYSIS_BUSY_REFRESH_MS = 3_000;
export const ANALYSIS_IDLE_REFRESH_MS = 60_000;

const analysisStatusOptions = () =>
  queryOptions({
    queryKey: ['analysis', 'status'],
    queryFn: ({ signal }) => apiCall('analysisStatus', {}, { signal }),
    staleTime: 0,
  });

/** GET /analysis/status: analysed, pending, failed and outdated counts, and the last failures. */
export function useAnalysisStatus() {
  return useQuery({
    ...analysisStatusOptions(),
    refetchInterval: (query) =>
      (query.state.data?.pending ?? 0) > 0 ? ANALYSIS_BUSY_REFRESH_MS : ANALYSIS_IDLE_REFRESH_MS,
  });
}

/** The route's loader: the screen's first calls start while its code loads (page 1, no filter). */
export function prefetch(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(songsOptions(NO_FILTERS, '', 0));
  void queryClient.prefetchQuery(analysisStatusOptions());
}

/** POST /analysis/analyze-outdated: queues every song the current analyser has not done. */
export function useAnalyzeOutdated() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('analyzeOutdated', {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['analysis'] }),
  });
}

/** GET /metadata/providers: which metadata services the server is configured for (rarely changes). */
export function useMetadataProviders() {
  return useQuery({
    queryKey: ['metadata', 'providers'],
    queryFn: ({ signal }) => apiCall('metadataProviders', {}, { signal }),
    staleTime: 10 * 60_000,
  });
}

/** GET /songs/{id}: the song as stored now (the list's copy is the starting value). */
export function useSong(song: Song) {
  return useQuery({
    queryKey: ['songs', 'detail', song.song_id],
    queryFn: ({ signal }) => apiCall('getSong', { params: { id: song.song_id } }, { signal }),
    initialData: song,
    staleTime: 30_000,
  });
}

/** GET /songs/{id}/metadata: what each metadata service last said about the song. */
export function useSongMetadata(songId: number) {
  return useQuery({
    queryKey: ['songs', 'metadata', songId],
    queryFn: ({ signal }) => apiCall('getSongMetadata', { params: { id: songId } }, { signal }),
  });
}

/** POST /songs/{id}/metadata/lookup: asks the services now and fills the song's empty values. */
export function useLookupSongMetadata(songId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (force: boolean) =>
      apiCall('lookupSongMetadata', { params: { id: songId }, body: { force } }),
    onSuccess: (result) => {
      queryClient.setQueryData(['songs', 'detail', songId], result.song);
      queryClient.setQueryData(['songs', 'metadata', songId], {
        song_id: result.song_id,
        mode: result.mode,
        lookups: result.lookups,
      });
      void queryClient.invalidateQueries({ queryKey: ['songs', 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['analytics', 'spotify-popularity', songId] });
    },
  });
}

/** A song's plays beyond the newest ones its performance answer carries (SONG_TIMELINE_LIMIT). */
export function useMoreSongPlays(songId: number, from: number) {
  return useMorePages(['analytics', 'song-performance', songId], from, (skip, signal) =>
    apiCall('listSongPlays', { params: { id: songId }, query: { skip, limit: 200 } }, { signal }),
  );
}

/**
 * PUT /songs/{id} with a new BPM: the DJ's choice between the analyser's two readings (bpm and
 * bpm_alt). The server keeps it across re-analysis; the list shows it once refetched.
 */
export function useSetSongBpm(songId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bpm: number) => apiCall('updateSong', { params: { id: songId }, body: { bpm } }),
    onSuccess: (song) => {
      queryClient.setQueryData(['songs', 'detail', songId], song);
      void queryClient.invalidateQueries({ queryKey: ['songs', 'list'] });
    },
  });
}
