import { type JobName, type JobPayload, JobPayloads } from '@wcs/contract';
import PgBoss from 'pg-boss';
import type { JobQueue } from '../deps.js';

export interface JobQueueOptions {
  connectionString: string;
  /** How often idle workers look for work, in seconds (pg-boss minimum 0.5). */
  pollingIntervalSeconds?: number;
  onError?: (error: Error) => void;
  /**
   * Whether this process runs jobs (default true). False (`wcs serve --no-jobs`): it only sends
   * them; pg-boss then neither maintains the queues nor fires schedules here, and `work` refuses.
   */
  runsJobs?: boolean;
  /**
   * How often the queue's maintenance runs (pg-boss default 120 s), which is when jobs active past
   * their expiry (a killed process's) are failed and retried: at most the shortest expiry sent.
   */
  maintenanceIntervalSeconds?: number;
}

export async function createJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const runsJobs = options.runsJobs ?? true;
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: 'pgboss',
    max: 4,
    ...(options.maintenanceIntervalSeconds
      ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds }
      : {}),
    ...(runsJobs ? {} : { supervise: false, schedule: false }),
  });
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  for (const name of Object.keys(JobPayloads) as JobName[]) {
    await boss.createQueue(name);
  }
  const workerIds = new Map<JobName, string[]>();
  const polling = options.pollingIntervalSeconds ?? 1;

  // A worker in this process polls; waking it after a send makes live recognition prompt.
  const wake = (name: JobName) => {
    for (const id of workerIds.get(name) ?? []) boss.notifyWorker(id);
  };

  return {
    async send(name, data, sendOptions = {}) {
      const id = await boss.send(name, JobPayloads[name].parse(data), sendOptions);
      wake(name);
      return id;
    },
    async sendDebounced(name, data, seconds, key) {
      const payload = JobPayloads[name].parse(data);
      const id = key
        ? await boss.sendDebounced(name, payload, {}, seconds, key)
        : await boss.sendDebounced(name, payload, {}, seconds);
      return id;
    },
    async work(name, handler, workOptions = {}) {
      if (!runsJobs) throw new Error(`This process runs no jobs (--no-jobs): no worker for ${name}`);
      const id = await boss.work<JobPayload<typeof name>>(
        name,
        { batchSize: workOptions.batchSize ?? 1, pollingIntervalSeconds: polling },
        async (jobs) => {
          for (const job of jobs) {
            await handler(JobPayloads[name].parse(job.data) as JobPayload<typeof name>, job.id);
          }
        },
      );
      workerIds.set(name, [...(workerIds.get(name) ?? []), id]);
    },
    worksOn(name) {
      return workerIds.has(name);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
