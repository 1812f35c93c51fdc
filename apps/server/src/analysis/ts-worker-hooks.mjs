/**
 * Module hooks that let a worker thread run this package's TypeScript source (only under Vitest:
 * the built server runs `dist/`, where threads load plain .js). Node 20 cannot load .ts by itself
 * and Vitest's transform does not reach worker threads, so a thread started from source registers
 * these hooks first (see thread.ts). Each .ts file is transpiled alone with the project's own
 * `typescript` (types erased, nothing checked: `tsc -b` checks), and a relative `./x.js` import
 * written in the NodeNext style resolves to `./x.ts` when only the source exists.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const compilerOptions = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2023,
  verbatimModuleSyntax: true,
  sourceMap: false,
  inlineSourceMap: true,
  inlineSources: true,
};

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const isRelative = specifier.startsWith('./') || specifier.startsWith('../');
    if (isRelative && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
    throw error;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const source = await readFile(file, 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: file });
  return { format: 'module', source: outputText, shortCircuit: true };
}
