import { ChevronDown, FileDown } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { EXPORT_FORMATS, type ExportSelection, exportUrl } from '../lib/dj-formats';

export interface ExportMenuProps {
  /** What is exported, for the button's and links' names: a playlist's name, or 'the whole library'. */
  subject: string;
  /** One generated playlist, an event's played songs, the Songs filters; nothing: the whole library. */
  selection?: ExportSelection;
  /** The button's visible text. Default 'Export'. */
  label?: string;
  /** The button's accessible name, holding its visible text. Default '{label} {subject}'. */
  buttonName?: string;
  /** daisyUI size of the button. Default 'sm'. */
  size?: 'sm' | 'md';
  /** Opens the list to the left edge of the button (default) or to its right edge. */
  align?: 'start' | 'end';
}

/**
 * A button that shows the DJ formats the export writes (rekordbox XML, Traktor NML, Serato crate,
 * VirtualDJ M3U, M3U8, CSV), each a link that downloads the file: the disclosure pattern (a
 * button with aria-expanded and a list of links), closed by Escape, by a click elsewhere and by
 * choosing a format.
 */
export function ExportMenu({
  subject,
  selection,
  label = 'Export',
  buttonName = `${label} ${subject}`,
  size = 'sm',
  align = 'start',
}: ExportMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [isOpen]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere inside closes the list, as a disclosure does.
    <div
      ref={rootRef}
      className="relative inline-block"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && isOpen) {
          event.stopPropagation();
          setIsOpen(false);
          buttonRef.current?.focus();
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className={`btn btn-outline ${size === 'sm' ? 'btn-sm' : ''}`}
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-label={buttonName}
        onClick={() => setIsOpen((open) => !open)}
      >
        <FileDown className="size-4" aria-hidden="true" />
        {label}
        <ChevronDown className="size-4" aria-hidden="true" />
      </button>
      <ul
        id={listId}
        hidden={!isOpen}
        aria-label={`Formats to export ${subject}`}
        className={`menu absolute z-30 mt-1 w-52 rounded-box border border-base-300 bg-base-100 p-2 shadow ${
          align === 'end' ? 'right-0' : 'left-0'
        }`}
      >
        {EXPORT_FORMATS.map(({ format, label: formatName }) => (
          <li key={format}>
            <a
              href={exportUrl(format, selection)}
              download
              aria-label={`${formatName} of ${subject}`}
              onClick={() => setIsOpen(false)}
            >
              {formatName}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
