/**
 * Every parameter of the fingerprint engine in one place. FINGERPRINT_VERSION names them, so a
 * change here re-indexes the outdated songs (songs.fingerprint_version) instead of silently mixing
 * hashes of two algorithms in one index. The values were chosen on the recognition benchmark
 * (scripts/bench/recognition.mjs); docs/performance.md has the figures.
 */

/** Rate the engine decodes to: speech-band music content up to 4 kHz is enough for landmarks. */
export const SAMPLE_RATE = 8000;
/** STFT window (128 ms) and hop (32 ms) in samples. */
export const FFT_SIZE = 1024;
export const HOP = 256;
/** Seconds per STFT frame; hash times are in frames. */
export const FRAME_SECONDS = HOP / SAMPLE_RATE;
/** Band searched for peaks: below, room modes and phone microphones ruin the bass; above, little survives. */
export const MIN_HZ = 200;
export const MAX_HZ = 3600;
/** Log-frequency unit of peaks: bins per octave (1/32 octave = 2.2%). */
export const BINS_PER_OCTAVE = 32;
/**
 * Whitening of the verified peaks ('band' in peaks.ts): each bin's mean log magnitude is averaged
 * over ±WHITEN_SPAN of its frequency (±20 %, about ±1/4 octave) before it is subtracted. An
 * equaliser, a PA or a phone changes the spectrum smoothly, so it is still taken out; a narrow
 * sustained tone (a drone, a pad, a held chord) is not, and stays a peak above the crowd's noise.
 * The hashed peaks keep each bin's own mean ('bin'), which flattens such tones: hashed, their
 * common pairs made a third more hits a query. See docs/performance.md for the figures.
 */
export const WHITEN_SPAN = 0.2;
/** A peak must be the maximum of this neighbourhood (± frames, ± FFT bins). */
export const PEAK_TIME_RADIUS = 3;
export const PEAK_FREQ_RADIUS = 6;
/**
 * Density: a peak is kept when fewer than this many stronger peaks lie within ±RANK_RADIUS frames
 * of it. A sliding rank (not a top-N per fixed block) keeps the choice the same wherever a
 * recording starts. The reference keeps fewer peaks than a query: the query's extra peaks are what
 * lets the reference's peaks survive noise that outranks them.
 */
export const RANK_RADIUS = 8;
export const REFERENCE_PEAKS = 6;
export const QUERY_PEAKS = 10;
/**
 * Peaks stored per song for verification (a superset of the hashed ones, about 37 per second),
 * and the density of the query's peaks that are verified against them (a superset of the hashed
 * ones again, about 34 per second): the more peaks a true match can land on, the further it
 * stands from chance. On the benchmark, 14 and 10 (26 and 19 a second) recognised 90 and 84 of
 * 94 queries at +5 and 0 dB crowd noise; 20 and 18 recognise 92 and 88, with impostors' scores
 * unchanged but for music that another song really contains.
 */
export const VERIFY_PEAKS = 20;
export const QUERY_VERIFY_PEAKS = 18;
/**
 * Pairs: a reference anchor is paired with the first REFERENCE_TARGETS peaks of its target zone
 * (the next MAX_DT frames, ±MAX_DF log-frequency bins); a query anchor with the first
 * QUERY_TARGETS, a superset, so a reference pair whose two peaks survive is always hashed.
 */
export const REFERENCE_TARGETS = 5;
export const QUERY_TARGETS = 8;
/** Largest time step of a pair, in frames (5 bits); short, so a 1% warp error moves it < 1/3 frame. */
export const MAX_DT = 31;
/** Largest log-frequency step of a pair, in peak bins (1/32 octave). */
export const MAX_DF = 31;
/** Hash frequency resolution: HASH_STEPS units per peak bin (1/64 octave). */
export const HASH_STEPS = 2;

/**
 * Warps tried on a query: time scaled by `a` (tempo), and for speed changes the log-frequency
 * shifted by the same factor. Covers ±8%: tempo alone with a 2% step (pairs span at most MAX_DT
 * frames, so the remaining ≤1% error moves a time step by under a third of a frame), speed with
 * a 1% step (the anchor's frequency is hashed at 1/64 octave = 1.1%).
 */
export interface Warp {
  /** Query time × a = reference time. */
  a: number;
  /** True when pitch moved with tempo (vinyl/CDJ speed); false for time-stretching (key lock). */
  pitch: boolean;
}

function buildWarps(): Warp[] {
  const warps: Warp[] = [{ a: 1, pitch: false }];
  for (let step = 1; step <= 8; step++) {
    for (const sign of [1, -1]) {
      const a = 1 + (sign * step) / 100;
      if (step % 2 === 0) warps.push({ a, pitch: false });
      warps.push({ a, pitch: true });
    }
  }
  return warps;
}

export const WARPS: readonly Warp[] = buildWarps();

/**
 * Stop list: a query hash whose bucket holds more than STOP_FACTOR times the mean bucket (index
 * entries / HASH_SPACE), and at least STOP_MIN entries, is not looked up. Such hashes are the
 * commonest shapes of music, vote for every song alike and made half of all hits at 1,000 songs;
 * leaving them out cost no recognition on the benchmark. At 1,000 songs STOP_MIN decides (the
 * mean bucket is 5.5); from about 4,000 songs on, STOP_FACTOR does. At 10,000 songs (mean 54) a
 * factor of 20 let 4.3 M hits a 10 s query through; 5 halves the time of counting them and
 * recognises as many queries, or more: fewer chance candidates crowd out the true song
 * (docs/performance.md, "Recognition at scale"; 4 and 3 began to lose queries).
 */
export const STOP_FACTOR = 5;
export const STOP_MIN = 100;

/**
 * Songs per window whose best offset (by hash votes) is verified against the song's peaks. The
 * more songs indexed, the more of them reach 4-5 chance votes and push a true song heard through
 * reverberation and noise (3-4 votes) out of the list: at 1,000 songs, 5 candidates lost queries
 * that 10 keep (room far on the benchmark 79 -> 81 of 94, a true song ranked 10th scored 93),
 * at no measurable cost in time (most candidates fail verification's first count).
 */
export const CANDIDATES = 10;
/**
 * Hash votes (distinct anchor frames within ±1 frame of one offset) a candidate needs. At 1,000
 * songs chance gives a window's best impostors 3-4 votes; 5 would leave out most of them (and
 * their peaks' reads) at no cost in crowd noise alone, but reverberation smears a true song's
 * votes too: on the benchmark, near and far in the room fell from 93 and 85 to 90 and 81 of 94.
 */
export const MIN_CANDIDATE_VOTES = 3;
/**
 * Keys (warp and offset) verified per candidate song: its best-voted key and its next best that
 * lie at another warp or more than 2 frames from a key of their warp. In reverberation and babble
 * a true song keeps 2-3 votes at its offset, no more than chance gives its keys a beat away (music
 * repeats at the beat) or at a tempo warp 4-8 % off (short time steps hash alike under them), and
 * one key verified at the wrong place fails. On the tuning rooms (recognition-rooms.mjs, 1,000
 * songs) 5 keys recognise 80.5 / 48.9 % of 10 s windows at +5 / 0 dB crowd, 1 key 75.5 / 44.3 %,
 * 3 keys 78.7 / 47.9 %, 7 keys 81.6 / 48.9 %. Each key is also a try for chance, so a song's other
 * keys count only at the window threshold (MIN_SCORE), never as the weak windows a long signal
 * chains (matcher.ts, detectWindow; docs/performance.md, "Five keys per candidate song, landed").
 */
export const KEYS_PER_SONG = 5;
/**
 * Candidate songs (of CANDIDATES, best voted first) verified at their other keys; the others at
 * their best only. A true song missed at its best key mostly ranks first: on the tuning rooms the
 * first 5 songs' other keys recognise as many windows as all 10 songs' (2 and 3: one window of
 * 564 fewer), with fewer tries for chance (impostor windows of 15 and more 79 -> 73 of 744) and
 * fewer keys verified a query.
 */
export const KEY_SONGS = 5;
/**
 * Single-peak search (matcher.ts, peakDetections): in a window where no song is heard at the
 * window threshold, the first PEAK_SONGS candidate songs are aligned by single peaks instead of
 * pairs. In babble and reverberation a true song keeps about 15 % of its peaks in a missed window,
 * and a pair needs both of its peaks (p² ≈ 2 %): its offset gets 2-3 pair votes, no more than
 * chance gives its keys elsewhere. Every query peak votes (at no warp) for each offset at which
 * the song has a peak within VERIFY_BINS; the PEAK_OFFSETS best offsets (more than PEAK_SPACING
 * frames apart) of each song are verified as a key is. Choosing an offset among the whole song's
 * is a larger try for chance than a key's, so such a detection needs PEAK_MARGIN more than the
 * window threshold and is reported at its score less the margin. Chosen on the tuning rooms and
 * on 11 h of music outside the index (docs/performance.md, "Single peaks against the candidates'
 * peak grids, landed"): 5 songs and a margin of 10 recognise 85.8 / 53.9 % of the tuning rooms'
 * windows at +5 / 0 dB crowd (80.5 / 48.9 % without), no impostor there; in the 11 h, 4 windows
 * of 7,648 searched reach 40 (the best 43), where pairs alone give 38 windows of 30 and more.
 */
export const PEAK_SONGS = 5;
export const PEAK_OFFSETS = 3;
export const PEAK_SPACING = 8;
export const PEAK_MARGIN = 10;
/**
 * Second chance (matcher.ts, probeDetections; hashes.ts, probeHashes): in a window where no song
 * is heard at the window threshold, pairs and single peaks both, the window's pairs are looked up
 * again, at no warp, under the 12 hashes each would have with its time step a frame shorter or
 * longer and its two frequencies in the nearer other hash step: a room moves a surviving peak by a
 * frame or a fraction of a bin, and a hash asks both peaks' exact places. In the tuning rooms'
 * missed windows the true song mostly had 2 pair votes, as ~650 of 1,000 songs do by chance,
 * though verified at its offset it scored a median 40 (+5 dB crowd). Candidates found so are
 * verified as the pairs' are, at PROBE_MARGIN over the threshold, and reported less the margin:
 * at 0, one of the 30 10 s queries of music outside the index was heard (32.7) and the 11 h outside
 * the index had 88 windows heard at 30 (about 42 before); at 5, 0/30 and 49. Tuning rooms 85.8 /
 * 53.9 -> 90.4 / 66.3 % at +5 / 0 dB crowd (docs/performance.md, "A second chance").
 */
export const PROBE_MARGIN = 5;
/**
 * A segment's candidate pool (index.ts, windowDetections): the songs proposed as candidates in
 * POOL_WINDOWS or more of a segment's windows (a 30 s chunk with its tail holds 9) are aligned by
 * single peaks (matcher.ts, peakDetections) in each of its windows no song is heard in, besides
 * the window's own first PEAK_SONGS: a song at 0 dB crowd is a candidate in a few windows of its
 * play and heard at its position in many more, where no pair of it survives. A detection needs the
 * window score plus POOL_MARGIN and is reported less it, so at the weak window score (15) it needs
 * 25: a seed tracking follows (tracking.ts), not a play. Tuning night 2 (T2 phone, 0 dB crowd):
 * song 26 seeded at 30 and 26 (its play found); over the 4.01 h of tuning nights the pooled songs
 * not playing reached 25 in 10 searches, 30 in 2 (best 30) with 3 windows, 123 and 12 (best 34.5)
 * with any one (docs/performance.md, "A segment's candidate pool").
 */
export const POOL_WINDOWS = 3;
export const POOL_MARGIN = 10;
/** Verification tolerance: a query peak matches a reference peak within ± frames and ± peak bins. */
export const VERIFY_FRAMES = 1;
export const VERIFY_BINS = 0.7;
/**
 * Control offsets (frames) around a candidate's offset: the median of their matches is what the
 * song's peaks give by chance (sustained notes, the same key), subtracted from the score. An
 * even number: the median is the mean of the middle two.
 */
export const CONTROL_OFFSETS: readonly number[] = [-151, -113, -71, -37, 37, 71, 113, 151];
/**
 * Score (verified peaks minus the control median) a 10 s window needs before a song counts as
 * heard: confidence 0.5. Above the best impostor of the benchmark's 7,000 windows.
 */
export const MIN_SCORE = 30;
/**
 * A play that no second window corroborates (two windows that share no audio, each at MIN_SCORE,
 * at one position of the song) needs SOLO_FACTOR times MIN_SCORE, in a recording long enough to
 * hold two such windows (20 s). MIN_SCORE bounds what chance gives one window, but a night is
 * 7,200 windows per 10 h: over 11 h of music outside the index (recognition-engine.mjs, 1,000
 * songs), 27 windows reached 30, 23 plays at 30 (21 per 10 h), and the best window 48.5 (ambient
 * synth music against an ambient track: its drones match at many speeds and offsets); none was
 * corroborated. A song really playing is heard window after window (every whole indexed track at
 * +5 dB, 0 dB and in the far room was). 1.6 still let one play through; 2 leaves a margin. A query
 * of 10-20 s has no second window to give, and keeps MIN_SCORE.
 */
export const SOLO_FACTOR = 2;

/**
 * Song-level evidence over time (matcher.ts, chainDetections). In a recording long enough to hold
 * two windows that share no audio (20 s), windows are verified down to WEAK_SCORE: such a window
 * is not heard on its own (chance reaches it many times an hour), but it adds its score to the
 * play whose position in the song it agrees with, and extends it (a quiet or masked stretch does
 * not cut a play). A play whose windows span two that share no audio is confirmed when the sum of
 * their scores reaches EVIDENCE_BOUND, whatever each scored alone. Both were chosen on music
 * outside the index (docs/performance.md, "Song-level evidence"): the bound sits above every
 * chance chain found there.
 */
export const WEAK_SCORE = 15;
export const EVIDENCE_BOUND = 120;

export const FINGERPRINT_VERSION = `pair3-sr${SAMPLE_RATE}-n${FFT_SIZE}-h${HOP}-f${MIN_HZ}-${MAX_HZ}-b${BINS_PER_OCTAVE}x${HASH_STEPS}-w${WHITEN_SPAN}-r${PEAK_TIME_RADIUS}x${PEAK_FREQ_RADIUS}-k${REFERENCE_PEAKS}v${VERIFY_PEAKS}of${2 * RANK_RADIUS + 1}-t${REFERENCE_TARGETS}-dt${MAX_DT}-df${MAX_DF}`;
