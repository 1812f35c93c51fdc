/**
 * XML through fast-xml-parser, in one shape for every format: an element is an object whose
 * attributes are '@_Name' keys (strings, as written, entities decoded) and whose child elements
 * are arrays under their tag name. `attr` and `children` read it; `buildXml` writes the same shape.
 * The parser checks well-formedness first and does not expand entities declared in a DOCTYPE.
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { decodeText } from './text-input.js';
import { type DjFormat, DjFormatError } from './types.js';

export type XmlElement = { [name: string]: unknown };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  // Character references ('&#233;') as well as the five XML entities.
  htmlEntities: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  processEntities: true,
});

/** The root element named `rootName`; a DjFormatError when the text is not XML or has another root. */
export function parseXmlRoot(input: Buffer | string, rootName: string, format: DjFormat): XmlElement {
  const xml = decodeText(input);
  let document: XmlElement;
  try {
    document = parser.parse(xml, true) as XmlElement;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DjFormatError(format, `Not well-formed XML, so not a ${format} file: ${reason}`);
  }
  const root = children(document, rootName)[0];
  if (!root) {
    const found = Object.keys(document).find((key) => !key.startsWith('?'));
    throw new DjFormatError(
      format,
      `Not a ${format} file: its root element is <${found ?? 'none'}>, expected <${rootName}>.`,
    );
  }
  return root;
}

/** An attribute as written (entities decoded); undefined when absent. */
export function attr(element: XmlElement | undefined, name: string): string | undefined {
  const value = element?.[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
}

/** The child elements of one tag name, in document order. */
export function children(element: XmlElement | undefined, tag: string): XmlElement[] {
  const value = element?.[tag];
  if (!Array.isArray(value)) return [];
  // An element with neither attributes nor content comes back as an empty string.
  return value.map((child) => (typeof child === 'object' && child !== null ? (child as XmlElement) : {}));
}

/** The first child element of a tag name. */
export function child(element: XmlElement | undefined, tag: string): XmlElement | undefined {
  return children(element, tag)[0];
}

/** Attributes from a record, leaving out undefined values. */
export function attrs(values: Record<string, string | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) out[`@_${name}`] = String(value);
  }
  return out;
}

/** A document: the XML declaration, then `root`, indented with two spaces. */
export function buildXml(
  rootName: string,
  root: XmlElement,
  declaration = '<?xml version="1.0" encoding="UTF-8"?>',
): string {
  return `${declaration}\n${builder.build({ [rootName]: root }) as string}`;
}

/** Tag of the element that marks, in a document built by `buildXml`, where streamed elements go. */
export const STREAM_MARK = 'WCS_STREAM_MARK';

/**
 * A document built with a `STREAM_MARK` element (`{ [STREAM_MARK]: [''] }`) where elements are
 * to be streamed, cut there: what comes before the mark's line and what comes after it.
 */
export function splitAtStreamMark(document: string): [before: string, after: string] {
  const match = new RegExp(`\\n *<${STREAM_MARK}/>\\n`).exec(document);
  if (!match) throw new Error(`No ${STREAM_MARK} in the document`);
  return [document.slice(0, match.index + 1), document.slice(match.index + match[0].length)];
}

const FRAGMENT_WRAPPER = 'WCS_FRAGMENT';

/**
 * One element as `buildXml` writes it `depth` levels down in a document: built inside `depth`
 * wrappers, which are cut off (not by indenting its lines: an attribute may hold a line break).
 */
export function xmlFragment(tag: string, element: XmlElement, depth: number): string {
  let tree: XmlElement = { [tag]: [element] };
  for (let level = 0; level < depth; level += 1) tree = { [FRAGMENT_WRAPPER]: [tree] };
  const built = builder.build(tree) as string;
  let opening = '';
  let closing = '';
  for (let level = 0; level < depth; level += 1) {
    const indent = '  '.repeat(level);
    opening += `${indent}<${FRAGMENT_WRAPPER}>\n`;
    closing = `${indent}</${FRAGMENT_WRAPPER}>\n${closing}`;
  }
  if (!built.startsWith(opening) || !built.endsWith(closing)) {
    throw new Error(`An XML fragment of <${tag}> was not built as expected`);
  }
  return built.slice(opening.length, built.length - closing.length);
}

/** Attribute of the elements that stand, in a document built whole, for parts written one by one. */
export const STREAM_PART = 'WCS_STREAM_PART';

/** An element standing for part `index` (see `streamParts`). */
export const streamPartMark = (index: number): XmlElement => attrs({ [STREAM_PART]: index });

/**
 * A document whose elements of `tag` marked `streamPartMark(i)` stand for parts: its text in
 * pieces, each mark's line replaced by `part(i, depth)` (its depth from the line's indent), made
 * only when the piece is taken, so a file of many playlists is never one string.
 */
export function* streamParts(
  document: string,
  tag: string,
  part: (index: number, depth: number) => string,
): Generator<string> {
  const pattern = new RegExp(`^( *)<${tag} ${STREAM_PART}="(\\d+)"/>\\n`, 'gm');
  let from = 0;
  for (const match of document.matchAll(pattern)) {
    yield document.slice(from, match.index);
    yield part(Number(match[2]), match[1]!.length / 2);
    from = match.index + match[0].length;
  }
  yield document.slice(from);
}
