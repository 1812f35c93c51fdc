/**
 * A progress display for long commands (import, analysis): a cli-progress bar on a terminal, one
 * plain line every `plainEvery` items otherwise (a log file, CI). With --json the summary owns
 * stdout, so callers pass stderr.
 */
export interface ProgressReporter {
  /** `label` names the item just done (a file name), shown beside the bar. */
  update(done: number, total: number, label: string): void;
  stop(): void;
}

export async function progressReporter(
  stream: NodeJS.WriteStream,
  options: { unit: string; plainEvery: number },
): Promise<ProgressReporter> {
  if (!stream.isTTY) {
    return {
      update(done, total) {
        if (done % options.plainEvery === 0 || done === total)
          stream.write(`[wcs] ${done}/${total} ${options.unit}\n`);
      },
      stop() {},
    };
  }
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `{bar} {percentage}% | {value}/{total} ${options.unit} | ETA {eta_formatted} | {file}`,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let isStarted = false;
  return {
    update(done, total, label) {
      const file = label.slice(0, 40);
      if (!isStarted) {
        bar.start(total, 0, { file });
        isStarted = true;
      }
      bar.update(done, { file });
    },
    stop() {
      if (isStarted) bar.stop();
    },
  };
}
