// Types of deployment.mjs, for the TypeScript test that uses it
// (apps/server/src/cli/multi-process.int.test.ts).

export declare const CHUNK_SECONDS: number;
export declare function sleep(ms: number): Promise<void>;
export declare function isRoot(): boolean;
export declare function ensureDeploymentPackages(): void;
export declare function freePort(): Promise<number>;
export declare function query(
  url: string,
  text: string,
  values?: unknown[],
): Promise<Record<string, unknown>[]>;
export declare function waitHealthy(
  url: string,
  what: string,
  proc?: unknown,
  timeoutMs?: number,
): Promise<void>;
export declare function untilDrained(databaseUrl: string, timeoutMs: number): Promise<boolean>;
export declare function uploadOnce(
  url: string,
  token: string,
  session: string,
  n: number,
  audio: Buffer,
  eventId: number,
): Promise<{ status: number; body: Record<string, unknown>; server: string }>;

export interface Audio {
  library: string;
  songCount: number;
  chunks: Buffer[];
}

export interface Deployment {
  databaseUrl: string;
  token: string;
  eventId: number;
  url: string;
  shared: string;
  stop(): Promise<void>;
}

export interface Lab {
  work: string;
  adminUrl: string;
  makeAudio(sessionChunks: number): Audio;
  deploy(name: string, processCount: number, audio: Audio, env?: Record<string, string>): Promise<Deployment>;
  close(): void;
}

export declare function openLab(options?: { log?: (message: string) => void }): Promise<Lab>;

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface KillTestResult {
  checks: Check[];
  ok: boolean;
  kills: { chunk: number; name: string; pid: number; activeJobs: number; holder: boolean }[];
  failedAttempts: { chunk: number; attempt: number; status: number; error?: string; server?: string }[];
  retriedAcks: { chunk: number; server: string; created: boolean }[];
  byServer: Record<string, number>;
  socket: { connections: number; servers: string[]; byType: Record<string, number> };
  drained: boolean;
  drainSeconds: number;
  plays: { plays: number; songs: number };
  pending: Record<string, unknown>[];
}

export declare function killTest(
  lab: Lab,
  audio: Audio,
  options?: {
    processes?: number;
    killAt?: number[];
    killHolder?: boolean;
    recognitionWaitSeconds?: number;
    env?: Record<string, string>;
    name?: string;
    log?: (message: string) => void;
  },
): Promise<KillTestResult>;
