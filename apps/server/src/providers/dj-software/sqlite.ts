/**
 * Reading the SQLite databases of DJ programs (Engine DJ's 'm.db' and 'hm.db', Mixxx's
 * 'mixxxdb.sqlite') through sql.js: SQLite compiled to WebAssembly, installed from npm with no
 * native build and no download at install time. The database is opened from a copy of the bytes
 * in memory with `query_only` on: nothing is ever written back to the DJ's file.
 *
 * sql.js compiles its WebAssembly once, when this module is first imported (top-level await,
 * about 30 ms), so that the readers stay synchronous like every other reader in this folder.
 */
import initSqlJs, { type Database, type SqlValue } from 'sql.js';
import { type DjFormat, DjFormatError } from './types.js';

const SQL = await initSqlJs();

/** The 16 bytes every SQLite 3 database starts with. */
export const SQLITE_HEADER = 'SQLite format 3\0';

export type SqliteRow = Record<string, SqlValue>;

export interface SqliteFile {
  /** Whether a table (or view) of that name exists; SQLite names ignore case. */
  hasTable(name: string): boolean;
  /** The column names of a table, lower-cased; empty when the table does not exist. */
  columns(table: string): Set<string>;
  /** The rows of a query, each as an object keyed by column name. */
  rows(sql: string, params?: SqlValue[]): SqliteRow[];
  close(): void;
}

export function isSqlite(input: Buffer | string): boolean {
  return Buffer.isBuffer(input) && input.subarray(0, 16).toString('latin1') === SQLITE_HEADER;
}

function sqliteError(format: DjFormat, error: unknown): DjFormatError {
  const message = error instanceof Error ? error.message : String(error);
  return new DjFormatError(format, `Unreadable SQLite database: ${message}.`);
}

/**
 * Opens a database from its bytes, read-only. A DjFormatError when the bytes are not an SQLite
 * database (text, another format, a truncated or damaged file).
 */
export function openSqlite(input: Buffer | string, format: DjFormat, what: string): SqliteFile {
  if (typeof input === 'string' || !isSqlite(input)) {
    throw new DjFormatError(
      format,
      `Not ${what}: an SQLite database starts with 'SQLite format 3', this file does not` +
        (typeof input === 'string' ? ' (pass the file as a Buffer).' : '.'),
    );
  }
  let db: Database;
  const tables = new Map<string, string>();
  try {
    db = new SQL.Database(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
    db.run('PRAGMA query_only = ON');
    const [result] = db.exec("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')");
    for (const [name] of result?.values ?? []) tables.set(String(name).toLowerCase(), String(name));
  } catch (error) {
    throw sqliteError(format, error);
  }
  const columnCache = new Map<string, Set<string>>();
  return {
    hasTable: (name) => tables.has(name.toLowerCase()),
    columns(table) {
      const real = tables.get(table.toLowerCase());
      if (real === undefined) return new Set();
      let columns = columnCache.get(real);
      if (!columns) {
        const [result] = db.exec(`PRAGMA table_info("${real.replace(/"/g, '""')}")`);
        const nameIndex = result?.columns.indexOf('name') ?? -1;
        columns = new Set((result?.values ?? []).map((row) => String(row[nameIndex]).toLowerCase()));
        columnCache.set(real, columns);
      }
      return columns;
    },
    rows(sql, params = []) {
      try {
        const statement = db.prepare(sql);
        try {
          statement.bind(params);
          const out: SqliteRow[] = [];
          while (statement.step()) out.push(statement.getAsObject());
          return out;
        } finally {
          statement.free();
        }
      } catch (error) {
        throw sqliteError(format, error);
      }
    },
    close: () => db.close(),
  };
}

/** The value of a column as a number, or undefined (NULL, text that is not a number, a blob). */
export function sqlNumber(value: SqlValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d+(?:\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

/** The value of a column as text, or undefined for NULL and blobs. */
export function sqlText(value: SqlValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
