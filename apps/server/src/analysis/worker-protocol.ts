/**
 * The messages between a WorkerPool and its threads: the pool posts one task at a time with an id,
 * the thread answers with a result or an error message for that id. An exception in a task is an
 * answer (the thread lives on); a thread that dies mid-task is a crash, which the pool handles.
 */
import { parentPort } from 'node:worker_threads';

export interface TaskMessage<T> {
  id: number;
  task: T;
}

export type ReplyMessage<R> =
  | { id: number; ok: true; result: R }
  | { id: number; ok: false; error: string; name: string };

/** Runs inside a thread: answers every task message with `handler`'s result or error. */
export function serveTasks<T, R>(handler: (task: T) => Promise<R> | R): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks must run in a worker thread');
  port.on('message', async ({ id, task }: TaskMessage<T>) => {
    let reply: ReplyMessage<R>;
    try {
      reply = { id, ok: true, result: await handler(task) };
    } catch (error) {
      const { message, name } = error instanceof Error ? error : new Error(String(error));
      reply = { id, ok: false, error: message, name };
    }
    port.postMessage(reply);
  });
}
