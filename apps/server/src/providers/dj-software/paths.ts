/**
 * File locations as DJ programs write them: rekordbox and M3U use file:// URLs
 * ('file://localhost/Users/dj/My%20Music/a.mp3', 'file://localhost/C:/Music/a.mp3'); the others
 * write plain paths. A location leaves these modules as a plain absolute path.
 */

/**
 * Decodes %XX escapes, reading runs of them as UTF-8. A '%' not followed by two hex digits, or a
 * run that is not valid UTF-8, is kept as written (some programs write a bare '%' in file names).
 */
export function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return run;
    }
  });
}

/** A path from a file:// URL; any other text is returned unchanged. */
export function fileUrlToPath(location: string): string {
  const match = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(location);
  if (!match) return location;
  const path = percentDecode(match[1]!);
  // 'file://localhost/C:/Music/a.mp3' holds the Windows path 'C:/Music/a.mp3'.
  return /^\/[A-Za-z]:[/\\]/.test(path) ? path.slice(1) : path;
}

/**
 * The file:// URL of an absolute path, in the form rekordbox writes ('file://localhost/...').
 * Every path segment is percent-encoded (spaces, '#', '%', non-ASCII...); a Windows drive
 * letter and its colon are kept, and backslashes become slashes.
 */
export function pathToFileUrl(path: string): string {
  const slashed = path.replace(/\\/g, '/');
  const absolute = slashed.startsWith('/') ? slashed : `/${slashed}`;
  const encoded = absolute
    .split('/')
    .map((segment) => (/^[A-Za-z]:$/.test(segment) ? segment : encodeURIComponent(segment)))
    .join('/');
  return `file://localhost${encoded}`;
}

/** True for '/...', 'C:/...', 'C:\...' and '\\server\...'. */
export function isAbsolutePath(path: string): boolean {
  return /^(?:\/|[A-Za-z]:[/\\]|\\\\)/.test(path);
}

/** The last segment of a path or file name, with either separator. */
export function baseName(path: string): string {
  return path.split(/[/\\]/).pop() ?? path;
}

/** The file name without its folder and its extension: 'History/2024-05-03.m3u' gives '2024-05-03'. */
export function fileStem(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * A relative path resolved against an absolute folder, '.' and '..' segments applied:
 * ('/Users/dj/Music/Engine Library', '../WCS/a.mp3') gives '/Users/dj/Music/WCS/a.mp3'. The
 * result uses the folder's separator ('\' for 'C:\Music', '/' otherwise); '..' never climbs
 * above the folder's root. An absolute `relative` is returned as written.
 */
export function resolvePath(folder: string, relative: string): string {
  if (isAbsolutePath(relative)) return relative;
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  const rootMatch = /^(?:[A-Za-z]:[/\\]|\\\\[^/\\]+[/\\][^/\\]+[/\\]?|\/)/.exec(folder);
  const root = rootMatch ? rootMatch[0].replace(/[/\\]/g, separator) : '';
  const segments = folder
    .slice(root.length)
    .split(/[/\\]/)
    .filter((segment) => segment !== '');
  for (const segment of relative.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const rootWithSeparator = root === '' || /[/\\]$/.test(root) ? root : `${root}${separator}`;
  return `${rootWithSeparator}${segments.join(separator)}`;
}
