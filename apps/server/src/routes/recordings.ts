import { api } from '@wcs/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { unsupportedMedia } from '../services/errors.js';
import {
  assignRecordingEvent,
  deleteRecording,
  getRecording,
  listRecordings,
  receiveUpload,
  recordingStats,
  requestProcessing,
  type UploadPart,
} from '../services/recordings.js';
import { route } from './define.js';

export async function recordingRoutes(app: FastifyInstance, deps: AppDeps) {
  const tag = 'recordings';
  route(app, tag, api.listRecordings, ({ query }) => listRecordings(deps.db, query));
  route(app, tag, api.recordingStats, () => recordingStats(deps.db));
  route(app, tag, api.getRecording, ({ params }) => getRecording(deps.db, params.id));
  route(app, tag, api.assignRecordingEvent, ({ params, query }) =>
    assignRecordingEvent(deps, params.id, query.event_id),
  );
  route(app, tag, api.deleteRecording, ({ params }) => deleteRecording(deps, params.id));
  route(app, 'tasks', api.processRecording, ({ params }) => requestProcessing(deps, params.id));

  app.post(
    `/api${api.uploadRecording.path}`,
    {
      schema: {
        tags: [tag],
        summary: api.uploadRecording.summary,
        consumes: ['multipart/form-data'],
        response: { 200: api.uploadRecording.response },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw unsupportedMedia('Send multipart/form-data with the fields audio_file and metadata');
      }
      return receiveUpload(deps, request.parts() as AsyncIterable<UploadPart>);
    },
  );
}
