import { describe, expect, it } from 'vitest';
import { createDrawQueue } from './draw-queue.js';

/** A scheduler that runs tasks only when the test says so, one at a time. */
function manualScheduler() {
  const tasks: Array<() => void> = [];
  return {
    schedule: (task: () => void) => {
      tasks.push(task);
    },
    pending: () => tasks.length,
    runNext: () => tasks.shift()?.(),
  };
}

describe('createDrawQueue', () => {
  it('draws one chart per task, the next only once the previous has drawn', () => {
    const scheduler = manualScheduler();
    const queue = createDrawQueue(scheduler.schedule);
    const drawn: string[] = [];
    const releaseA = queue.request(() => drawn.push('a'));
    const releaseB = queue.request(() => drawn.push('b'));
    queue.request(() => drawn.push('c'));
    expect(drawn).toEqual([]);
    expect(scheduler.pending()).toBe(1);

    scheduler.runNext();
    expect(drawn).toEqual(['a']);
    // 'a' has not reported back yet: nothing else is scheduled.
    expect(scheduler.pending()).toBe(0);

    releaseA();
    expect(scheduler.pending()).toBe(1);
    scheduler.runNext();
    expect(drawn).toEqual(['a', 'b']);
    releaseB();
    scheduler.runNext();
    expect(drawn).toEqual(['a', 'b', 'c']);
  });

  it('forgets a chart that goes away before its turn', () => {
    const scheduler = manualScheduler();
    const queue = createDrawQueue(scheduler.schedule);
    const drawn: string[] = [];
    const releaseA = queue.request(() => drawn.push('a'));
    const releaseB = queue.request(() => drawn.push('b'));
    queue.request(() => drawn.push('c'));
    releaseB();
    scheduler.runNext();
    releaseA();
    scheduler.runNext();
    expect(drawn).toEqual(['a', 'c']);
  });

  it('frees the turn of a chart that goes away while drawing, and releasing twice does nothing', () => {
    const scheduler = manualScheduler();
    const queue = createDrawQueue(scheduler.schedule);
    const drawn: string[] = [];
    const releaseA = queue.request(() => drawn.push('a'));
    const releaseB = queue.request(() => drawn.push('b'));
    scheduler.runNext();
    releaseA();
    releaseA();
    expect(scheduler.pending()).toBe(1);
    scheduler.runNext();
    expect(drawn).toEqual(['a', 'b']);
    releaseB();
    expect(scheduler.pending()).toBe(0);
  });

  it('schedules again for a chart that asks after the queue ran dry', () => {
    const scheduler = manualScheduler();
    const queue = createDrawQueue(scheduler.schedule);
    const drawn: string[] = [];
    queue.request(() => drawn.push('a'))();
    expect(scheduler.pending()).toBe(1);
    scheduler.runNext();
    expect(drawn).toEqual([]);
    queue.request(() => drawn.push('b'));
    scheduler.runNext();
    expect(drawn).toEqual(['b']);
  });
});
