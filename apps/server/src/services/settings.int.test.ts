import { DEFAULT_SETTINGS, FESTIVAL_WEIGHT_MESSAGE } from '@wcs/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { settings } from '../db/schema.js';
import { createTestApp } from '../test/harness.js';
import { getSettings, updateSettings } from './settings.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.deps.db.delete(settings);
});

const readOnly = () => ({
  max_downloads_per_day: t.deps.config.maxDownloadsPerDay,
  tor_enabled: t.deps.config.torEnabled,
  cloud_recognizers: [],
});
const getSettingsHttp = () => t.app.inject({ method: 'GET', url: '/api/settings' });
const put = (payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/settings', payload: payload as object });

describe('GET /api/settings', () => {
  it('answers the defaults and the read-only values of the configuration on a fresh database', async () => {
    const response = await getSettingsHttp();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      download_enabled: false,
      download_priority_threshold: 50,
      minimum_plays_to_download: 3,
      party_weight: 1,
      festival_weight: 12,
      overplay_new_threshold: 90,
      overplay_mid_threshold: 70,
      ...readOnly(),
    });
  });

  it('writes the default row, so every reader sees the same values', async () => {
    await getSettingsHttp();
    const rows = await t.deps.db.select().from(settings);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 1, partyWeight: 1, festivalWeight: 12, minimumPlaysToDownload: 3 });
  });

  it('takes max_downloads_per_day, tor_enabled and the cloud recognisers from the configuration', async () => {
    const config = { ...t.deps.config, maxDownloadsPerDay: 7, torEnabled: true };
    expect(await getSettings(t.deps.db, config)).toEqual({
      ...DEFAULT_SETTINGS,
      max_downloads_per_day: 7,
      tor_enabled: true,
      cloud_recognizers: [],
    });
    const withCloud = {
      ...config,
      acrcloud: { host: 'identify-eu-west-1.acrcloud.com', accessKey: 'k', accessSecret: 's' },
      audd: { apiToken: 't', url: 'https://api.audd.io/' },
    };
    expect((await getSettings(t.deps.db, withCloud)).cloud_recognizers).toEqual(['acrcloud', 'audd']);
    expect((await getSettings(t.deps.db, { ...withCloud, acrcloud: null })).cloud_recognizers).toEqual([
      'audd',
    ]);
  });
});

describe('PUT /api/settings', () => {
  it('merges a partial update with the stored values', async () => {
    const first = await put({ festival_weight: 20, download_enabled: true });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      ...DEFAULT_SETTINGS,
      festival_weight: 20,
      download_enabled: true,
      ...readOnly(),
    });

    const second = await put({ party_weight: 5, download_priority_threshold: 75.5 });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({
      ...DEFAULT_SETTINGS,
      festival_weight: 20,
      download_enabled: true,
      party_weight: 5,
      download_priority_threshold: 75.5,
      ...readOnly(),
    });
  });

  it('accepts all seven fields at once, at the edges of their ranges', async () => {
    const all = {
      download_enabled: true,
      download_priority_threshold: 1000,
      minimum_plays_to_download: 50,
      party_weight: 100,
      festival_weight: 100,
      overplay_new_threshold: 0,
      overplay_mid_threshold: 100,
    };
    const response = await put(all);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...all, ...readOnly() });

    const low = {
      download_priority_threshold: 0,
      minimum_plays_to_download: 1,
      party_weight: 1,
      festival_weight: 1,
      overplay_new_threshold: 100,
      overplay_mid_threshold: 0,
    };
    const lowResponse = await put(low);
    expect(lowResponse.statusCode).toBe(200);
    expect(lowResponse.json()).toEqual({ ...all, ...low, ...readOnly() });
  });

  it('answers the stored values for an empty update', async () => {
    await put({ overplay_mid_threshold: 65 });
    const response = await put({});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...DEFAULT_SETTINGS, overplay_mid_threshold: 65, ...readOnly() });
  });

  it('persists: a second app on the same database and the service see the saved values', async () => {
    await put({ festival_weight: 30, party_weight: 4, minimum_plays_to_download: 9 });
    const expected = {
      ...DEFAULT_SETTINGS,
      festival_weight: 30,
      party_weight: 4,
      minimum_plays_to_download: 9,
    };

    const second = await buildApp(t.deps);
    try {
      const response = await second.inject({
        method: 'GET',
        url: '/api/settings',
        headers: { authorization: `Bearer ${t.tokens.viewer}` },
      });
      expect(response.json()).toEqual({ ...expected, ...readOnly() });
    } finally {
      await second.close();
    }
    expect(await getSettings(t.deps.db, t.deps.config)).toEqual({ ...expected, ...readOnly() });
  });

  describe('festival weight >= party weight, checked on the merged values', () => {
    it('refuses a party weight above the stored festival weight', async () => {
      const response = await put({ party_weight: 13 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: FESTIVAL_WEIGHT_MESSAGE });
      expect(response.json().message).toBe('Festival weight must be greater than or equal to party weight');
    });

    it('refuses a festival weight below the stored party weight', async () => {
      await put({ party_weight: 8 });
      const response = await put({ festival_weight: 7 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: FESTIVAL_WEIGHT_MESSAGE });
    });

    it('refuses both in one update, and stores nothing of a refused update', async () => {
      const response = await put({ festival_weight: 5, party_weight: 10, overplay_new_threshold: 10 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: FESTIVAL_WEIGHT_MESSAGE });
      expect((await getSettingsHttp()).json()).toEqual({ ...DEFAULT_SETTINGS, ...readOnly() });
    });

    it('accepts equal weights', async () => {
      const response = await put({ party_weight: 12 });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ party_weight: 12, festival_weight: 12 });
    });

    it('accepts raising both together', async () => {
      const response = await put({ party_weight: 40, festival_weight: 60 });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ party_weight: 40, festival_weight: 60 });
    });

    it('is enforced by the service too, not only by HTTP', async () => {
      await expect(updateSettings(t.deps.db, t.deps.config, { party_weight: 50 })).rejects.toMatchObject({
        status: 400,
        message: FESTIVAL_WEIGHT_MESSAGE,
      });
    });
  });

  describe('out-of-range values: 400 naming the field', () => {
    const cases: Array<[field: string, value: unknown, message: string]> = [
      ['download_priority_threshold', -1, 'must be at least 0'],
      ['download_priority_threshold', 1000.5, 'must be at most 1000'],
      ['minimum_plays_to_download', 0, 'must be at least 1'],
      ['minimum_plays_to_download', 51, 'must be at most 50'],
      ['party_weight', 0, 'must be at least 1'],
      ['party_weight', 101, 'must be at most 100'],
      ['festival_weight', 0.5, 'must be at least 1'],
      ['festival_weight', 101, 'must be at most 100'],
      ['overplay_new_threshold', -0.1, 'must be at least 0'],
      ['overplay_new_threshold', 100.1, 'must be at most 100'],
      ['overplay_mid_threshold', -5, 'must be at least 0'],
      ['overplay_mid_threshold', 200, 'must be at most 100'],
    ];
    it.each(cases)('%s = %s', async (field, value, message) => {
      const response = await put({ [field]: value });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(`body.${field}: ${message}`);
      expect((await getSettingsHttp()).json()).toEqual({ ...DEFAULT_SETTINGS, ...readOnly() });
    });

    it('refuses a fractional minimum_plays_to_download', async () => {
      const response = await put({ minimum_plays_to_download: 2.5 });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^body\.minimum_plays_to_download: /);
    });

    it('refuses values of the wrong type', async () => {
      const text = await put({ download_enabled: 'yes' });
      expect(text.statusCode).toBe(400);
      expect(text.json().message).toMatch(/^body\.download_enabled: /);

      const numeric = await put({ party_weight: '3' });
      expect(numeric.statusCode).toBe(400);
      expect(numeric.json().message).toMatch(/^body\.party_weight: /);
    });

    it('names every bad field when several are wrong', async () => {
      const response = await put({ party_weight: 0, overplay_mid_threshold: 101 });
      expect(response.statusCode).toBe(400);
      const { message } = response.json();
      expect(message).toContain('body.party_weight: must be at least 1');
      expect(message).toContain('body.overplay_mid_threshold: must be at most 100');
    });

    it('refuses a body that is not an object', async () => {
      const response = await put([1, 2]);
      expect(response.statusCode).toBe(400);
    });
  });
});
