import { ExternalLink } from 'lucide-react';
import { useId, useState } from 'react';
import { storeSearchLinks } from '../lib/store-links';

function LinkList({ artist, title }: { artist: string; title: string }) {
  return (
    <ul className="flex flex-wrap gap-1">
      {storeSearchLinks(artist, title).map((link) => (
        <li key={link.store}>
          <a
            className="btn btn-ghost btn-xs"
            href={link.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${link.label} (opens in a new tab)`}
          >
            {link.label}
            <ExternalLink className="size-3" aria-hidden="true" />
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * Search links for the song at five stores, each opening in a new tab. `collapsed` (a list of
 * many songs, like the download queue): behind a "Find in stores" disclosure, so a long list stays
 * short and its links are only built into the page when opened.
 */
export function StoreLinks({
  artist,
  title,
  collapsed = false,
  className = '',
}: {
  artist: string;
  title: string;
  collapsed?: boolean;
  className?: string;
}) {
  const labelId = useId();
  const [isOpen, setIsOpen] = useState(false);
  if (collapsed) {
    return (
      <details className={`text-sm ${className}`} onToggle={(event) => setIsOpen(event.currentTarget.open)}>
        <summary className="link link-hover w-fit text-base-content/70 text-xs">Find in stores</summary>
        {isOpen && <LinkList artist={artist} title={title} />}
      </details>
    );
  }
  return (
    <nav aria-labelledby={labelId} className={`flex flex-wrap items-center gap-1 ${className}`}>
      <span id={labelId} className="text-base-content/60 text-xs">
        Find {title} in stores:
      </span>
      <LinkList artist={artist} title={title} />
    </nav>
  );
}
