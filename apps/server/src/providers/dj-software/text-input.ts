/**
 * Bytes of a text file as a string. DJ programs write UTF-8 (the XML formats, M3U8, VirtualDJ),
 * sometimes with a byte-order mark; Excel on Windows saves CSV as UTF-16 with a mark; old .m3u
 * playlists are in the computer's 8-bit code page. A mark decides; otherwise valid UTF-8 is UTF-8
 * and anything else is read as Windows-1252, the code page of most of them.
 */
export function decodeText(input: Buffer | string): string {
  if (typeof input === 'string') return input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(input.subarray(3));
  }
  if (input[0] === 0xff && input[1] === 0xfe) return new TextDecoder('utf-16le').decode(input.subarray(2));
  if (input[0] === 0xfe && input[1] === 0xff) return new TextDecoder('utf-16be').decode(input.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return decodeWindows1252(input);
  }
}

/**
 * Windows-1252: Latin-1 except 0x80-0x9F, which hold typographic marks (’ “ ” – € ...). Node
 * built without full ICU decodes that range as Latin-1 control characters, so it is mapped here.
 */
const CP1252_HIGH: Record<number, string> = {
  128: '€',
  130: '‚',
  131: 'ƒ',
  132: '„',
  133: '…',
  134: '†',
  135: '‡',
  136: 'ˆ',
  137: '‰',
  138: 'Š',
  139: '‹',
  140: 'Œ',
  142: 'Ž',
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
  152: '˜',
  153: '™',
  154: 'š',
  155: '›',
  156: 'œ',
  158: 'ž',
  159: 'Ÿ',
};

function decodeWindows1252(bytes: Buffer): string {
  let text = '';
  for (const byte of bytes) text += CP1252_HIGH[byte] ?? String.fromCharCode(byte);
  return text;
}
