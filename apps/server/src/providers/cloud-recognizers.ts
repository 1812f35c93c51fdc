/** The cloud recognisers this server is configured for (see cloud-recognizer.ts for the interface). */
import type { Config } from '../config.js';
import { createAcrCloudRecognizer } from './acrcloud.js';
import { createAuddRecognizer } from './audd.js';
import type { CloudRecognizer } from './cloud-recognizer.js';

/** The configured providers, in the order they are asked (ACRCloud first, then AudD). */
export function cloudRecognizersFrom(config: Pick<Config, 'acrcloud' | 'audd'>): CloudRecognizer[] {
  const list: CloudRecognizer[] = [];
  if (config.acrcloud) list.push(createAcrCloudRecognizer(config.acrcloud));
  if (config.audd) list.push(createAuddRecognizer(config.audd));
  return list;
}
