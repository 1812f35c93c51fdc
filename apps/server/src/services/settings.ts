import {
  DEFAULT_SETTINGS,
  type EditableSettings,
  FESTIVAL_WEIGHT_MESSAGE,
  type Settings,
  type SettingsUpdate,
} from '@wcs/contract';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { settings } from '../db/schema.js';
import type { JobQueue } from '../deps.js';
import { cloudRecognizersFrom } from '../providers/cloud-recognizers.js';
import { badRequest } from './errors.js';
import { scheduleScoreRecompute } from './recompute-schedule.js';

/** The single settings row. */
const SETTINGS_ID = 1;

type SettingsRow = typeof settings.$inferSelect;
type ReadOnlyConfig = Pick<Config, 'maxDownloadsPerDay' | 'torEnabled' | 'acrcloud' | 'audd'>;

function toEditableSettings(row: SettingsRow): EditableSettings {
  return {
    download_enabled: row.downloadEnabled,
    download_priority_threshold: row.downloadPriorityThreshold,
    minimum_plays_to_download: row.minimumPlaysToDownload,
    party_weight: row.partyWeight,
    festival_weight: row.festivalWeight,
    overplay_new_threshold: row.overplayNewThreshold,
    overplay_mid_threshold: row.overplayMidThreshold,
  };
}

function toColumns(value: EditableSettings) {
  return {
    downloadEnabled: value.download_enabled,
    downloadPriorityThreshold: value.download_priority_threshold,
    minimumPlaysToDownload: value.minimum_plays_to_download,
    partyWeight: value.party_weight,
    festivalWeight: value.festival_weight,
    overplayNewThreshold: value.overplay_new_threshold,
    overplayMidThreshold: value.overplay_mid_threshold,
  } satisfies Partial<typeof settings.$inferInsert>;
}

/**
 * The seven editable settings, as stored. A database without the row (fresh, or the row was
 * removed) gets the defaults written first, so every reader sees the same values.
 */
export async function getEditableSettings(db: Db): Promise<EditableSettings> {
  const [row] = await db.select().from(settings).where(eq(settings.id, SETTINGS_ID));
  if (row) return toEditableSettings(row);
  await db
    .insert(settings)
    .values({ id: SETTINGS_ID, ...toColumns(DEFAULT_SETTINGS) })
    .onConflictDoNothing();
  const [inserted] = await db.select().from(settings).where(eq(settings.id, SETTINGS_ID));
  return inserted ? toEditableSettings(inserted) : { ...DEFAULT_SETTINGS };
}

/** GET /settings: the editable settings plus the read-only ones from the server's configuration. */
export async function getSettings(db: Db, config: ReadOnlyConfig): Promise<Settings> {
  return withReadOnly(await getEditableSettings(db), config);
}

function withReadOnly(editable: EditableSettings, config: ReadOnlyConfig): Settings {
  return {
    ...editable,
    max_downloads_per_day: config.maxDownloadsPerDay,
    tor_enabled: config.torEnabled,
    cloud_recognizers: cloudRecognizersFrom(config).map((recognizer) => recognizer.name),
  };
}

/**
 * PUT /settings: merges the given fields into the stored ones and persists the result. Ranges are
 * checked by the contract's schema; the rule that spans two fields (festival >= party) is checked
 * here on the merged values, since either side may be the one that changes.
 */
export async function updateSettings(
  db: Db,
  config: ReadOnlyConfig,
  update: SettingsUpdate,
  /** When given, a change of any value schedules a score recompute (weights, thresholds, downloads). */
  jobs?: Pick<JobQueue, 'send'>,
): Promise<Settings> {
  await getEditableSettings(db);
  let hasChanged = false;
  const saved = await db.transaction(async (tx) => {
    // Locks the row so that two concurrent partial updates cannot merge into a pair that breaks the rule.
    const [row] = await tx.select().from(settings).where(eq(settings.id, SETTINGS_ID)).for('update');
    const current = row ? toEditableSettings(row) : DEFAULT_SETTINGS;
    const merged: EditableSettings = { ...current, ...definedFields(update) };
    if (merged.festival_weight < merged.party_weight) throw badRequest(FESTIVAL_WEIGHT_MESSAGE);
    hasChanged = (Object.keys(merged) as Array<keyof EditableSettings>).some(
      (key) => merged[key] !== current[key],
    );
    const [updated] = await tx
      .update(settings)
      .set({ ...toColumns(merged), updatedAt: new Date() })
      .where(eq(settings.id, SETTINGS_ID))
      .returning();
    return updated ? toEditableSettings(updated) : merged;
  });
  // After the commit, so that the recompute reads the new values.
  if (hasChanged && jobs) await scheduleScoreRecompute(jobs, 'settings changed');
  return withReadOnly(saved, config);
}

/** Drops keys that are present but undefined, so they do not overwrite stored values. */
function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
