import { DOWNLOAD_PRIORITY_COLOURS, type DownloadStatus } from '@wcs/contract';
import type { BadgeTone } from '../../components/badge';

/** docs/product.md "Downloads queue": priority 200 or more is error, 100 or more is warning, else normal. */
export function priorityTone(priority: number): BadgeTone {
  if (priority >= DOWNLOAD_PRIORITY_COLOURS.error) return 'error';
  if (priority >= DOWNLOAD_PRIORITY_COLOURS.warning) return 'warning';
  return 'neutral';
}

const STATUS_TONES: Record<DownloadStatus, BadgeTone> = {
  pending: 'ghost',
  downloading: 'info',
  completed: 'success',
  failed: 'error',
};

export function statusTone(status: DownloadStatus): BadgeTone {
  return STATUS_TONES[status];
}

/** Priority scores with one decimal at most: `212.4`, `50`. */
export function formatPriority(priority: number): string {
  return String(Math.round(priority * 10) / 10);
}
