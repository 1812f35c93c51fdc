import type { Locator, Page, Response } from '@playwright/test';

/** The answer of POST /api/interop/preview and /import, as far as the specs read it. */
export interface ApiInteropResult {
  dry_run: boolean;
  format: string;
  tracks: number;
  matched: number;
  new_songs: number;
  history_sessions: number;
  plays: number;
  match_counts: Record<'path' | 'content_hash' | 'name' | 'fingerprint' | 'new_song' | 'unmatched', number>;
  plays_skipped: Record<'already_imported' | 'already_held' | 'no_event' | 'no_time' | 'no_song', number>;
  sessions: {
    index: number;
    name: string;
    plays: number;
    event_id: number | null;
    event_name: string | null;
  }[];
  events_created: { event_id: number; event_name: string }[];
  track_matches: { key: string; title: string; artist: string; song_id: number | null }[];
  warnings: string[];
}

/** A file handed to the file input, as setInputFiles takes it. */
export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Import from DJ software at /dj-import. */
export class DjImportPage {
  readonly heading: Locator;
  readonly fileInput: Locator;
  readonly previewButton: Locator;
  readonly importButton: Locator;
  readonly preview: Locator;
  readonly sessions: Locator;
  readonly outcome: Locator;
  readonly result: Locator;
  readonly csvColumns: Locator;
  readonly exportLibraryButton: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole('main');
    this.heading = main.getByRole('heading', { name: 'Import from DJ software', exact: true });
    this.fileInput = main.getByLabel('DJ software file', { exact: true });
    this.previewButton = main.getByRole('button', { name: 'Preview', exact: true });
    this.importButton = main.getByRole('button', { name: 'Import', exact: true });
    this.preview = main.getByRole('region', { name: '3. Preview', exact: true });
    this.sessions = this.preview.getByRole('region', { name: /^History sessions \(\d+\)$/ });
    this.outcome = this.preview.getByRole('region', { name: 'What the import adds', exact: true });
    this.result = main.getByRole('region', { name: 'Import result', exact: true });
    this.csvColumns = main.getByRole('region', { name: 'CSV columns', exact: true });
    this.exportLibraryButton = main.getByRole('button', {
      name: 'Export library',
      exact: true,
    });
  }

  async goto(): Promise<void> {
    await this.page.goto('/dj-import');
  }

  /** The figure of a tile of the preview or the result. */
  tileValue(scope: Locator, label: string): Locator {
    return scope.getByRole('article', { name: label, exact: true }).getByRole('paragraph');
  }

  /** A count of the match summary, by its label. */
  matchCount(label: string): Locator {
    return this.preview
      .getByRole('region', { name: 'How the tracks match the library', exact: true })
      .locator('div')
      .filter({
        has: this.page
          .getByRole('term')
          .filter({ hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }),
      })
      .getByRole('definition');
  }

  /** Chooses the file and presses Preview; resolves with the server's answer. */
  async previewFile(file: UploadFile): Promise<Response> {
    await this.fileInput.setInputFiles(file);
    return this.pressAndWait(this.previewButton, '/api/interop/preview');
  }

  /** Presses Import; resolves with the server's answer. */
  async importNow(): Promise<Response> {
    return this.pressAndWait(this.importButton, '/api/interop/import');
  }

  private async pressAndWait(button: Locator, pathname: string): Promise<Response> {
    const answered = this.page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === pathname,
    );
    await button.click();
    return answered;
  }
}
