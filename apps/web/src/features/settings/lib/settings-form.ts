import {
  type EditableSettings,
  FESTIVAL_WEIGHT_MESSAGE,
  SETTINGS_RANGES,
  type Settings,
} from '@wcs/contract';

/** The six numeric settings, in the order of the form. */
export type NumericSettingKey = keyof typeof SETTINGS_RANGES;

export interface NumericFieldDefinition {
  key: NumericSettingKey;
  label: string;
  help: string;
  /** Whole numbers only. */
  isInteger: boolean;
}

export const NUMERIC_FIELDS: readonly NumericFieldDefinition[] = [
  {
    key: 'download_priority_threshold',
    label: 'Download priority threshold',
    help: 'A played song without a file is queued once its priority reaches this.',
    isInteger: false,
  },
  {
    key: 'minimum_plays_to_download',
    label: 'Minimum plays to download',
    help: 'Plays a song needs before it becomes a download candidate.',
    isInteger: true,
  },
  {
    key: 'party_weight',
    label: 'Party weight',
    help: 'How much a play at a party counts.',
    isInteger: false,
  },
  {
    key: 'festival_weight',
    label: 'Festival weight',
    help: 'How much a play at a festival counts; at least the party weight.',
    isInteger: false,
  },
  {
    key: 'overplay_new_threshold',
    label: 'Overplay threshold for new songs',
    help: 'Overplay score (percent) at which a new song counts as overplayed.',
    isInteger: false,
  },
  {
    key: 'overplay_mid_threshold',
    label: 'Overplay threshold for mid and old songs',
    help: 'Overplay score (percent) at which a mid or old song counts as overplayed.',
    isInteger: false,
  },
];

/** What the inputs hold: numbers as typed, so a half-typed value is not lost. */
export interface SettingsFormValues {
  download_enabled: boolean;
  numbers: Record<NumericSettingKey, string>;
}

export function toFormValues(settings: Settings | EditableSettings): SettingsFormValues {
  return {
    download_enabled: settings.download_enabled,
    numbers: {
      download_priority_threshold: String(settings.download_priority_threshold),
      minimum_plays_to_download: String(settings.minimum_plays_to_download),
      party_weight: String(settings.party_weight),
      festival_weight: String(settings.festival_weight),
      overplay_new_threshold: String(settings.overplay_new_threshold),
      overplay_mid_threshold: String(settings.overplay_mid_threshold),
    },
  };
}

export type SettingsValidation = { ok: true; value: EditableSettings } | { ok: false; message: string };

/**
 * The check on save, after the browser's own range checks: every number readable, and the festival
 * weight not below the party weight. Ranges are left to the inputs' min/max and to the server.
 */
export function validateSettingsForm(values: SettingsFormValues): SettingsValidation {
  const parsed: Partial<Record<NumericSettingKey, number>> = {};
  for (const { key, label } of NUMERIC_FIELDS) {
    const text = values.numbers[key].trim();
    const number = Number(text);
    if (text === '' || !Number.isFinite(number)) return { ok: false, message: `${label} must be a number` };
    parsed[key] = number;
  }
  const value: EditableSettings = {
    download_enabled: values.download_enabled,
    download_priority_threshold: parsed.download_priority_threshold ?? 0,
    minimum_plays_to_download: parsed.minimum_plays_to_download ?? 0,
    party_weight: parsed.party_weight ?? 0,
    festival_weight: parsed.festival_weight ?? 0,
    overplay_new_threshold: parsed.overplay_new_threshold ?? 0,
    overplay_mid_threshold: parsed.overplay_mid_threshold ?? 0,
  };
  if (value.festival_weight < value.party_weight) return { ok: false, message: FESTIVAL_WEIGHT_MESSAGE };
  return { ok: true, value };
}

/** 'Range 1-100, default 12' under an input. */
export function rangeHint(key: NumericSettingKey): string {
  const { min, max, default: fallback } = SETTINGS_RANGES[key];
  return `Range ${min}-${max}, default ${fallback}`;
}
