import { once } from 'node:events';
import { parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * The timed client of `api.ts`, run in a worker thread: each request and its body's reading
 * (undici, brotli decompression) runs off the server's event loop, as a phone's does on another
 * machine. Before 2026-11-27 it ran on the server's own thread, and its share of each response
 * (the larger the body, the larger: an event's CSV, the fresh songs pool) was counted in the
 * response's time and delayed the uploads timed meanwhile (uploaders.ts runs those the same way).
 */
export interface TimedCase {
  url: string;
  warmups: number;
  requests: number;
  token: string;
}

export interface CaseTiming {
  status: number;
  bytes: number;
  message: string;
  /** Milliseconds of the timed requests, sorted. */
  durations: number[];
  /**
   * For a download (`content-disposition: attachment`): milliseconds from the request to the first
   * chunk of its body, sorted; empty for other answers, whose first byte says little beside their
   * whole time.
   */
  firstBytes: number[];
}

async function timeCase({ url, warmups, requests, token }: TimedCase): Promise<CaseTiming> {
  let status = 0;
  let bytes = 0;
  let message = '';
  const durations: number[] = [];
  const firstBytes: number[] = [];
  for (let i = 0; i < warmups + requests; i += 1) {
    const startedAt = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const isDownload = /^attachment/i.test(response.headers.get('content-disposition') ?? '');
    // The body read chunk by chunk: the first one's arrival is the download's first byte.
    const chunks: Uint8Array[] = [];
    let firstByte: number | null = null;
    if (response.body) {
      for await (const chunk of response.body) {
        firstByte ??= performance.now() - startedAt;
        chunks.push(chunk);
      }
    }
    const elapsed = performance.now() - startedAt;
    const body = Buffer.concat(chunks);
    status = response.status;
    bytes = body.byteLength;
    if (status >= 400) {
      try {
        message = (JSON.parse(body.toString('utf8')) as { message?: string }).message ?? '';
      } catch {
        message = '';
      }
      return { status, bytes, message, durations, firstBytes };
    }
    if (i >= warmups) {
      durations.push(elapsed);
      if (isDownload && firstByte !== null) firstBytes.push(firstByte);
    }
  }
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  return { status, bytes, message, durations: sorted(durations), firstBytes: sorted(firstBytes) };
}

/** A client thread that times one case at a time; `close` ends it. */
export function startTimedClient() {
  const worker = new Worker(new URL('./timed-client.js', import.meta.url), {
    workerData: { timedClient: true },
  });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  failed.catch(() => {}); // reported by the call that is waiting, if any
  return {
    async time(testCase: TimedCase): Promise<CaseTiming> {
      worker.postMessage(testCase);
      const [timing] = (await Promise.race([once(worker, 'message'), failed])) as [CaseTiming];
      return timing;
    },
    close: () => worker.terminate(),
  };
}

if (parentPort && (workerData as { timedClient?: boolean } | null)?.timedClient) {
  const port = parentPort;
  port.on('message', (testCase: TimedCase) => {
    void timeCase(testCase).then((timing) => port.postMessage(timing));
  });
}
