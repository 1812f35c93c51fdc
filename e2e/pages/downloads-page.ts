import type { APIRequestContext, Locator, Page } from '@playwright/test';

export interface ApiQueueEntry {
  queue_id: number;
  title: string;
  artist: string;
  status: 'pending' | 'downloading' | 'completed' | 'failed';
  priority_score: number;
  download_attempts: number;
  last_error: string | null;
}

export interface ApiDownloadStats {
  queue: { total: number; pending: number; downloading: number; completed: number; failed: number };
  songs: { played_but_no_file: number };
}

export interface ApiDownloadPreview {
  total_candidates: number;
  estimated_size_gb: number;
  estimated_analysis_minutes: number;
  estimated_cost_usd: number;
  current_settings: { minimum_plays: number; priority_threshold: number; download_enabled: boolean };
  top_songs: { song_id: number; title: string; artist: string; priority: number; play_count: number }[];
}

export async function getJson<T>(
  request: APIRequestContext,
  path: string,
  params?: Record<string, string>,
): Promise<T> {
  const response = await request.get(path, params ? { params } : undefined);
  if (!response.ok()) throw new Error(`GET ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Sets download_enabled and returns the value it had before. */
export async function setDownloadEnabled(request: APIRequestContext, isEnabled: boolean): Promise<boolean> {
  const before = await getJson<{ download_enabled: boolean }>(request, '/api/settings');
  const response = await request.put('/api/settings', { data: { download_enabled: isEnabled } });
  if (!response.ok()) throw new Error(`PUT /api/settings answered ${response.status()}`);
  return before.download_enabled;
}

/** Turns the inbox folder provider on or off (the command stays off: no WCS_DOWNLOAD_COMMAND here). */
export async function setProviders(request: APIRequestContext, inbox: boolean): Promise<void> {
  const response = await request.put('/api/downloads/providers', {
    data: {
      providers: [
        { name: 'inbox', enabled: inbox, daily_cap: 100, timeout_seconds: 120, max_attempts: 2 },
        { name: 'command', enabled: false, daily_cap: 20, timeout_seconds: 600, max_attempts: 2 },
      ],
    },
  });
  if (!response.ok()) throw new Error(`PUT /api/downloads/providers answered ${response.status()}`);
}

/** The Downloads Queue screen at /downloads with its preview modal. */
export class DownloadsPage {
  readonly heading: Locator;
  readonly stats: Locator;
  readonly queueSection: Locator;
  readonly list: Locator;
  readonly filters: Locator;
  readonly previewButton: Locator;
  readonly preview: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Downloads Queue', exact: true });
    this.stats = page.getByRole('region', { name: 'Download statistics' });
    this.queueSection = page.getByRole('region', { name: /^Queue/ });
    this.list = this.queueSection.getByRole('list', { name: 'Download queue' });
    this.filters = page.getByRole('group', { name: 'Filter by status' });
    this.previewButton = page.getByRole('button', { name: 'Preview Downloads' });
    this.preview = page.getByRole('dialog', { name: 'Download Preview' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/downloads');
    await this.heading.waitFor();
  }

  statTile(label: string): Locator {
    return this.stats.getByRole('article', { name: label, exact: true });
  }

  filter(label: 'All' | 'Pending' | 'Downloading' | 'Completed' | 'Failed'): Locator {
    return this.filters.getByRole('button', { name: label, exact: true });
  }

  /** A figure of the preview, by its caption (Candidates, Total Size, ...). */
  previewFigure(caption: string): Locator {
    return this.preview
      .getByRole('term')
      .filter({ hasText: new RegExp(`^${caption}$`) })
      .locator('xpath=following-sibling::dd[1]');
  }
}
