import { type InteropOptions, InteropOptions as InteropOptionsSchema } from '@wcs/contract';
import { badRequest, tooLarge } from '../errors.js';
import { multipartFailure, type UploadPart } from '../multipart.js';

/**
 * The multipart form of preview and import: the DJ program's file as the part `file`, and the
 * options as the JSON text field `options` (optional). Read into memory, since the readers take
 * the whole file; @fastify/multipart stops it at WCS_MAX_UPLOAD_MB.
 */

export interface ReceivedInteropUpload {
  bytes: Buffer;
  fileName: string;
  options: InteropOptions;
}

const MB = 1024 * 1024;

function parseOptions(text: string | undefined): InteropOptions {
  let json: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw badRequest('options is not valid JSON', 'options');
    }
  }
  const parsed = InteropOptionsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `options.${issue.path.join('.')}: ${issue.message}`);
    throw badRequest(issues.join('; '), `options.${parsed.error.issues[0]?.path.join('.') ?? ''}`);
  }
  return parsed.data;
}

export async function receiveInteropUpload(
  parts: AsyncIterable<UploadPart>,
  maxBytes: number,
): Promise<ReceivedInteropUpload> {
  const limit = () =>
    tooLarge(`file is larger than the limit of ${Math.round(maxBytes / MB)} MB (WCS_MAX_UPLOAD_MB)`);
  let optionsText: string | undefined;
  let received: { bytes: Buffer; fileName: string } | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'options') optionsText = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || received) {
        part.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          part.file.resume();
          throw limit();
        }
        chunks.push(chunk as Buffer);
      }
      if ((part.file as { truncated?: boolean }).truncated) throw limit();
      received = { bytes: Buffer.concat(chunks), fileName: part.filename || 'upload' };
    }
  } catch (error) {
    throw multipartFailure(error, limit, 'nothing was read');
  }
  if (!received) {
    throw badRequest(
      'file is missing: send the DJ program\'s file as a multipart file field named "file"',
      'file',
    );
  }
  if (received.bytes.length === 0) throw badRequest('file is empty', 'file');
  return { ...received, options: parseOptions(optionsText) };
}
