import readline from 'node:readline';

/**
 * A password from the terminal (typed twice, not echoed) or, when stdin is not a terminal, the
 * first line of stdin (`echo "$PW" | wcs user add ...`), so scripts never pass it as an argument,
 * which other users of the machine could read in the process list.
 */
export async function readNewPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return readFirstLine();
  const first = await askHidden(`${prompt}: `);
  const second = await askHidden('Again: ');
  if (first !== second) throw new Error('The two passwords differ; nothing was changed');
  return first;
}

async function readFirstLine(): Promise<string> {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  throw new Error('No password on stdin: pipe one line, or run the command in a terminal');
}

function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    // Writes of the typed characters are dropped; the question itself is written before muting.
    const output = rl as unknown as { _writeToOutput: (text: string) => void };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    output._writeToOutput = () => {};
  });
}
