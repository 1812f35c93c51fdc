import type { DjImportFormat } from '@wcs/contract';
import { Eye, FileUp, Info, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { ErrorCard } from '../../components/error-card';
import { ExportMenu } from '../../components/export-menu';
import { errorMessage } from '../../lib/api';
import { roleAllows } from '../../lib/roles';
import { useCan, useIdentity } from '../../lib/session';
import { IMPORT_FORMAT_LABELS } from './lib/formats';
import {
  CSV_FIELDS,
  type CsvChoice,
  csvHeaderOf,
  csvMappingOf,
  type EventChoice,
  guessCsvChoice,
  interopOptionsOf,
  type MappingRow,
  needsCsvMapping,
  pathMappingsOf,
  sessionsOption,
} from './lib/import-request';
import { PreviewPanel } from './preview-panel';
import { type InteropResult, type InteropSource, useImportInterop, usePreviewInterop } from './queries';
import { ResultPanel } from './result-panel';

/** The start of a CSV file read in the browser for its header line. */
const CSV_HEAD_BYTES = 64 * 1024;

const FORMAT_OPTIONS = Object.entries(IMPORT_FORMAT_LABELS) as [DjImportFormat, string][];

type NewSongs = 'all' | 'history' | 'none';

interface ShownPreview {
  result: InteropResult;
  /** The file and the options that decide what is read and matched, when it was made. */
  readKey: string;
  /** The sessions, the event and the history options it was made with. */
  choicesKey: string;
}

/**
 * /dj-import: a DJ program's library or history file into the product (docs/product.md "Import
 * from DJ software"). Choose the file (or, for admins, a path on the server), path mappings and
 * for a plain CSV its columns; Preview shows what the server read and would add; the sessions and
 * the event are chosen on the preview; Import stores it and says what it added.
 */
export function DjImportPage() {
  const canImport = useCan('importInterop');
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="font-bold text-2xl">Import from DJ software</h2>
          <p className="text-base-content/70">
            Your DJ program's library and play history: its tracks become songs, its history becomes plays
          </p>
        </div>
        <ExportMenu
          subject="the whole library"
          label="Export library"
          buttonName="Export library"
          align="end"
        />
      </div>
      {canImport ? (
        <ImportForm />
      ) : (
        <p role="status" className="alert alert-info alert-soft">
          <Info className="size-5 shrink-0" aria-hidden="true" />
          Importing needs the dj or admin role. You can still export the library for your DJ software.
        </p>
      )}
    </div>
  );
}

function ImportForm() {
  const identity = useIdentity();
  const isAdmin = identity ? roleAllows(identity.role, 'admin') : false;
  const ids = {
    file: useId(),
    fileHint: useId(),
    path: useId(),
    pathHint: useId(),
    format: useId(),
    timeZone: useId(),
    timeZoneHint: useId(),
    nightStart: useId(),
    nightStartHint: useId(),
    newSongs: useId(),
    source: useId(),
  };

  const [sourceKind, setSourceKind] = useState<'upload' | 'path'>('upload');
  const [file, setFile] = useState<File | null>(null);
  const [serverPath, setServerPath] = useState('');
  const [csvHeader, setCsvHeader] = useState<string[]>([]);
  const [csvChoice, setCsvChoice] = useState<CsvChoice>(() => guessCsvChoice([]));
  const [rows, setRows] = useState<MappingRow[]>([{ id: 1, from: '', to: '' }]);
  const nextRowId = useRef(2);
  const [format, setFormat] = useState<DjImportFormat | ''>('');
  const [timeZone, setTimeZone] = useState('');
  const [nightStart, setNightStart] = useState('');
  const [newSongs, setNewSongs] = useState<NewSongs>('all');
  const [chosenSessions, setChosenSessions] = useState<ReadonlySet<number>>(() => new Set());
  const [eventChoice, setEventChoice] = useState<EventChoice>({ kind: 'per-night' });
  const [preview, setPreview] = useState<ShownPreview | null>(null);
  const [imported, setImported] = useState<InteropResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fileToken = useRef(0);
  const previewCall = usePreviewInterop();
  const importCall = useImportInterop();
  const isBusy = previewCall.isPending || importCall.isPending;

  const source: InteropSource | null =
    sourceKind === 'upload'
      ? file
        ? { kind: 'upload', file }
        : null
      : serverPath.trim() !== ''
        ? { kind: 'path', path: serverPath.trim() }
        : null;
  const isCsv = sourceKind === 'upload' && file !== null && needsCsvMapping(file.name, csvHeader, format);
  const mappings = pathMappingsOf(rows);
  const csv = isCsv ? csvMappingOf(csvChoice) : { mapping: null, problem: null };

  const readKey = JSON.stringify({
    source: source?.kind === 'upload' ? [file?.name, file?.size, file?.lastModified] : source?.path,
    mappings: mappings.mappings,
    csv: csv.mapping,
    format,
    timeZone: timeZone.trim(),
  });
  const shown = preview && preview.readKey === readKey ? preview : null;
  const sessionIndexes = shown?.result.sessions.map((session) => session.index) ?? [];
  const sessions = shown ? sessionsOption(sessionIndexes, chosenSessions) : undefined;
  const choicesKey = JSON.stringify({ sessions, eventChoice, nightStart, newSongs });
  const options = interopOptionsOf({
    pathMappings: mappings.mappings,
    csvMapping: csv.mapping,
    format,
    timeZone,
    nightStart,
    newSongs,
    sessions,
    event: eventChoice,
  });

  const eventProblem =
    eventChoice.kind === 'one' && eventChoice.eventId === null ? 'Choose the event for every session.' : null;

  /** What to fix before anything is sent, or null. */
  const problemOfForm = (): string | null => {
    if (!source) {
      return sourceKind === 'upload'
        ? 'Choose the file your DJ software wrote.'
        : 'Give the path of a file or folder on the server.';
    }
    if (mappings.problem) return mappings.problem;
    if (csv.problem) return csv.problem;
    return eventProblem;
  };

  const runPreview = (event?: FormEvent) => {
    event?.preventDefault();
    const found = problemOfForm();
    setProblem(found);
    if (found || !source) return;
    const sentReadKey = readKey;
    const sentChoicesKey = choicesKey;
    importCall.reset();
    previewCall.mutate(
      { source, options },
      {
        onSuccess: (result) => {
          setImported(null);
          setChosenSessions(new Set(result.sessions.filter((s) => s.selected).map((s) => s.index)));
          setPreview({ result, readKey: sentReadKey, choicesKey: sentChoicesKey });
        },
      },
    );
  };

  const runImport = () => {
    const found = problemOfForm();
    setProblem(found);
    if (found || !source) return;
    previewCall.reset();
    importCall.mutate(
      { source, options },
      {
        onSuccess: (result) => {
          setImported(result);
          // The library changed: what the preview said is no longer what an import would add.
          setPreview(null);
        },
      },
    );
  };

  const chooseFile = (chosen: File | null) => {
    setFile(chosen);
    setProblem(null);
    setCsvHeader([]);
    const token = ++fileToken.current;
    if (!chosen || !/\.csv$/i.test(chosen.name)) return;
    void chosen
      .slice(0, CSV_HEAD_BYTES)
      .text()
      .then((text) => {
        if (token !== fileToken.current) return;
        const header = csvHeaderOf(text);
        setCsvHeader(header);
        setCsvChoice(guessCsvChoice(header));
      })
      .catch(() => {
        // Unreadable in the browser: the columns stay to be typed by the server's message.
      });
  };

  const setRow = (id: number, side: 'from' | 'to', value: string) =>
    setRows((current) => current.map((row) => (row.id === id ? { ...row, [side]: value } : row)));
  const addRow = () => {
    const id = nextRowId.current++;
    setRows((current) => [...current, { id, from: '', to: '' }]);
  };
  const removeRow = (id: number) =>
    setRows((current) => {
      const rest = current.filter((row) => row.id !== id);
      return rest.length > 0 ? rest : [{ id: nextRowId.current++, from: '', to: '' }];
    });

  return (
    <>
      <form onSubmit={runPreview} className="space-y-6" aria-label="File and options" noValidate>
        <section aria-labelledby={`${ids.source}-title`} className="card bg-base-100 shadow">
          <div className="card-body gap-4 p-4 sm:p-6">
            <h3 id={`${ids.source}-title`} className="card-title text-base">
              1. The file
            </h3>
            {isAdmin && (
              <fieldset>
                <legend className="mb-1 font-medium text-sm">Read from</legend>
                <div className="flex flex-wrap gap-6">
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      className="radio radio-sm"
                      name={`${ids.source}-kind`}
                      checked={sourceKind === 'upload'}
                      onChange={() => setSourceKind('upload')}
                    />
                    A file from this computer
                  </label>
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      className="radio radio-sm"
                      name={`${ids.source}-kind`}
                      checked={sourceKind === 'path'}
                      onChange={() => setSourceKind('path')}
                    />
                    A file or folder on the server
                  </label>
                </div>
              </fieldset>
            )}
            {sourceKind === 'upload' ? (
              <div className="flex flex-col gap-1">
                <label htmlFor={ids.file} className="font-medium text-sm">
                  DJ software file
                </label>
                <input
                  id={ids.file}
                  type="file"
                  className="file-input file-input-bordered w-full max-w-xl"
                  aria-describedby={ids.fileHint}
                  onChange={(event) => chooseFile(event.target.files?.[0] ?? null)}
                />
                <p id={ids.fileHint} className="text-base-content/60 text-sm">
                  rekordbox XML export, Traktor collection.nml or History/*.nml, VirtualDJ database.xml or
                  History/*.m3u, Serato crate (.crate), session (.session), history CSV or database V2, Engine
                  DJ m.db / hm.db, Mixxx mixxxdb.sqlite, M3U / M3U8, or any CSV with its columns chosen below.
                </p>
              </div>
            ) : (
              <div className="flex flex-col gap-1">
                <label htmlFor={ids.path} className="font-medium text-sm">
                  Path on the server
                </label>
                <input
                  id={ids.path}
                  type="text"
                  className="input input-bordered w-full max-w-xl"
                  placeholder="/srv/music/Engine Library/Database2"
                  aria-describedby={ids.pathHint}
                  value={serverPath}
                  onChange={(event) => setServerPath(event.target.value)}
                />
                <p id={ids.pathHint} className="text-base-content/60 text-sm">
                  An absolute path inside the library roots (WCS_LIBRARY_ROOTS). A folder is read whole:
                  Engine DJ's Database2, a Traktor folder with its History, Serato's _Serato_ folder.
                </p>
              </div>
            )}
          </div>
        </section>

        <section aria-labelledby={`${ids.source}-mappings`} className="card bg-base-100 shadow">
          <div className="card-body gap-3 p-4 sm:p-6">
            <h3 id={`${ids.source}-mappings`} className="card-title text-base">
              2. Path mappings (optional)
            </h3>
            <p className="text-base-content/60 text-sm">
              Where the DJ software's music folder is on this server, when it ran on another computer: tracks
              then match their songs by file. For example C:/Users/dj/Music/ to /srv/music/.
            </p>
            <ol className="space-y-3">
              {rows.map((row, index) => (
                <MappingRowFields
                  key={row.id}
                  row={row}
                  number={index + 1}
                  onChange={setRow}
                  onRemove={removeRow}
                />
              ))}
            </ol>
            <div>
              <button type="button" className="btn btn-sm" onClick={addRow}>
                <Plus className="size-4" aria-hidden="true" />
                Add a mapping
              </button>
            </div>
          </div>
        </section>

        {isCsv && (
          <section aria-labelledby={`${ids.source}-csv`} className="card bg-base-100 shadow">
            <div className="card-body gap-3 p-4 sm:p-6">
              <h3 id={`${ids.source}-csv`} className="card-title text-base">
                CSV columns
              </h3>
              <p className="text-base-content/60 text-sm">
                {csvHeader.length > 0
                  ? `The file's columns: ${csvHeader.join(', ')}. Choose which holds what; with a Played at column the file is one history session, otherwise one playlist.`
                  : 'The header line could not be read here: the server will say which columns it found.'}
              </p>
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
                {CSV_FIELDS.map((definition) => (
                  <CsvColumnField
                    key={definition.field}
                    label={definition.isRequired ? `${definition.label} (required)` : definition.label}
                    value={csvChoice[definition.field]}
                    header={csvHeader}
                    onChange={(value) =>
                      setCsvChoice((current) => ({ ...current, [definition.field]: value }))
                    }
                  />
                ))}
              </div>
            </div>
          </section>
        )}

        <details className="card bg-base-100 shadow">
          <summary className="cursor-pointer p-4 font-medium sm:px-6">More options</summary>
          <div className="grid grid-cols-1 gap-4 px-4 pb-4 sm:px-6 md:grid-cols-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={ids.format} className="font-medium text-sm">
                Format
              </label>
              <select
                id={ids.format}
                className="select select-bordered w-full"
                value={format}
                onChange={(event) => setFormat(event.target.value as DjImportFormat | '')}
              >
                <option value="">Detect from the file</option>
                {FORMAT_OPTIONS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={ids.newSongs} className="font-medium text-sm">
                Tracks without a song
              </label>
              <select
                id={ids.newSongs}
                className="select select-bordered w-full"
                value={newSongs}
                onChange={(event) => setNewSongs(event.target.value as NewSongs)}
              >
                <option value="all">Become songs without a file (all tracks)</option>
                <option value="history">Become songs only when played in the history</option>
                <option value="none">Stay out (their plays are left out)</option>
              </select>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={ids.timeZone} className="font-medium text-sm">
                Time zone of the DJ computer
              </label>
              <input
                id={ids.timeZone}
                type="text"
                className="input input-bordered w-full"
                placeholder={Intl.DateTimeFormat().resolvedOptions().timeZone}
                aria-describedby={ids.timeZoneHint}
                value={timeZone}
                onChange={(event) => setTimeZone(event.target.value)}
              />
              <p id={ids.timeZoneHint} className="text-base-content/60 text-xs">
                An IANA name such as Europe/Berlin, for files that write the computer's clock (Traktor,
                VirtualDJ, Serato CSV, CSV). Empty: the event's zone, else the server's.
              </p>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={ids.nightStart} className="font-medium text-sm">
                Night start for history without times
              </label>
              <input
                id={ids.nightStart}
                type="time"
                className="input input-bordered w-full"
                aria-describedby={ids.nightStartHint}
                value={nightStart}
                onChange={(event) => setNightStart(event.target.value)}
              />
              <p id={ids.nightStartHint} className="text-base-content/60 text-xs">
                rekordbox XML keeps only the date and the order of a night's tracks: their times are estimated
                from this start. Empty: the event's usual start, else 21:00.
              </p>
            </div>
          </div>
        </details>

        {problem && (
          <p role="alert" className="alert alert-warning alert-soft">
            {problem}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn btn-primary" disabled={isBusy}>
            {previewCall.isPending ? (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            ) : (
              <Eye className="size-4" aria-hidden="true" />
            )}
            Preview
          </button>
          {previewCall.isPending && (
            <span role="status" className="text-base-content/70 text-sm">
              Reading the file...
            </span>
          )}
          {!shown && preview && !previewCall.isPending && (
            <span className="text-base-content/70 text-sm">
              The file or its options changed since the last preview: preview again.
            </span>
          )}
        </div>
        {previewCall.isError && (
          <ErrorCard title="The file could not be previewed" message={errorMessage(previewCall.error)} />
        )}
      </form>

      {shown && (
        <PreviewPanel
          result={shown.result}
          chosenSessions={chosenSessions}
          onChooseSessions={setChosenSessions}
          eventChoice={eventChoice}
          onEventChoice={setEventChoice}
          isOutdated={shown.choicesKey !== choicesKey}
          onPreviewAgain={() => runPreview()}
          onImport={runImport}
          importProblem={eventProblem}
          isBusy={isBusy}
          isImporting={importCall.isPending}
        />
      )}
      {importCall.isError && <ErrorCard title="The import failed" message={errorMessage(importCall.error)} />}
      {imported && <ResultPanel result={imported} />}
      {!shown && !imported && !previewCall.isPending && (
        <p className="flex items-center gap-2 text-base-content/60 text-sm">
          <FileUp className="size-4" aria-hidden="true" />
          Preview first: nothing is stored until you import.
        </p>
      )}
    </>
  );
}

function MappingRowFields({
  row,
  number,
  onChange,
  onRemove,
}: {
  row: MappingRow;
  number: number;
  onChange: (id: number, side: 'from' | 'to', value: string) => void;
  onRemove: (id: number) => void;
}) {
  const fromId = useId();
  const toId = useId();
  return (
    <li className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="flex flex-1 flex-col gap-1">
        <label htmlFor={fromId} className="text-sm">
          From (on the DJ computer) <span className="sr-only">, mapping {number}</span>
        </label>
        <input
          id={fromId}
          type="text"
          className="input input-bordered input-sm w-full"
          placeholder="C:/Users/dj/Music/"
          value={row.from}
          onChange={(event) => onChange(row.id, 'from', event.target.value)}
        />
      </div>
      <div className="flex flex-1 flex-col gap-1">
        <label htmlFor={toId} className="text-sm">
          To (on this server) <span className="sr-only">, mapping {number}</span>
        </label>
        <input
          id={toId}
          type="text"
          className="input input-bordered input-sm w-full"
          placeholder="/srv/music/"
          value={row.to}
          onChange={(event) => onChange(row.id, 'to', event.target.value)}
        />
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-label={`Remove mapping ${number}`}
        onClick={() => onRemove(row.id)}
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </button>
    </li>
  );
}

function CsvColumnField({
  label,
  value,
  header,
  onChange,
}: {
  label: string;
  value: string;
  header: readonly string[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  // A column chosen before the header was read (or typed by hand) stays choosable.
  const columns = value !== '' && !header.includes(value) ? [value, ...header] : header;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm">
        {label}
      </label>
      <select
        id={id}
        className="select select-bordered select-sm w-full"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Not in the file</option>
        {columns.map((column) => (
          <option key={column} value={column}>
            {column}
          </option>
        ))}
      </select>
    </div>
  );
}
