import { api, UploadMetadata } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { unsupportedMedia } from '../services/errors.js';
import type { UploadPart } from '../services/multipart.js';
import {
  assignRecordingEvent,
  deleteRecording,
  getRecording,
  listRecordingSongs,
  listRecordings,
  receiveUpload,
  recordingStats,
  requestProcessing,
} from '../services/recordings/recordings.js';
import { accessDescription, errorStatuses, responseSchemas, route } from './define.js';

/** The upload's multipart body, for the API document only: the parts are read as a stream. */
const uploadBody = {
  type: 'object',
  required: ['metadata', 'audio_file'],
  properties: {
    metadata: {
      ...z.toJSONSchema(UploadMetadata, { io: 'input' }),
      description: 'A form field holding this object as JSON text.',
    },
    audio_file: {
      type: 'string',
      format: 'binary',
      description:
        'The chunk: one complete audio file (WebM, Ogg, WAV, MP3, FLAC, M4A or AIFF) that decodes to the end; refused with 415 otherwise.',
    },
  },
};

export async function recordingRoutes(app: FastifyInstance, deps: AppDeps) {
  const tag = 'recordings';
  route(app, tag, api.listRecordings, ({ query }) => listRecordings(deps.db, query));
  route(app, tag, api.recordingStats, () => recordingStats(deps.db));
  route(app, tag, api.getRecording, ({ params }) => getRecording(deps.db, params.id));
  route(app, tag, api.listRecordingSongs, ({ params, query }) =>
    listRecordingSongs(deps.db, params.id, query),
  );
  route(app, tag, api.assignRecordingEvent, ({ params, query }) =>
    assignRecordingEvent(deps, params.id, query.event_id),
  );
  route(app, tag, api.deleteRecording, ({ params, request }) =>
    deleteRecording(deps, params.id, request.identity),
  );
  route(app, 'tasks', api.processRecording, ({ params }) => requestProcessing(deps, params.id));

  app.post(
    `/api${api.uploadRecording.path}`,
    {
      config: { access: api.uploadRecording.access },
      schema: {
        tags: [tag],
        summary: api.uploadRecording.summary,
        description: accessDescription(api.uploadRecording.access),
        consumes: ['multipart/form-data'],
        // Read by the API document's transform (app.ts), never by validation.
        documentedBody: uploadBody,
        response: responseSchemas(200, api.uploadRecording.response, errorStatuses(api.uploadRecording)),
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw unsupportedMedia('Send multipart/form-data with the fields audio_file and metadata');
      }
      return receiveUpload(deps, request.parts() as AsyncIterable<UploadPart>, request.identity);
    },
  );
}
