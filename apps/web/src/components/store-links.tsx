import { ExternalLink } from 'lucide-react';
import { useId } from 'react';
import { storeSearchLinks } from '../lib/store-links';

/** "Find in stores": search links for the song at five stores, each opening in a new tab. */
export function StoreLinks({
  artist,
  title,
  className = '',
}: {
  artist: string;
  title: string;
  className?: string;
}) {
  const labelId = useId();
  return (
    <nav aria-labelledby={labelId} className={`flex flex-wrap items-center gap-1 ${className}`}>
      <span id={labelId} className="text-base-content/60 text-xs">
        Find {title} in stores:
      </span>
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
    </nav>
  );
}
