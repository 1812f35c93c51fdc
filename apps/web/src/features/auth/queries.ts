import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiRequest } from '../../lib/api';
import { apiCall } from '../../lib/api';
import { startSession } from '../../lib/session';

/** POST /auth/login; the answer is the new session (the server set its cookie). */
export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiRequest<'login'>['body']) => apiCall('login', { body }),
    onSuccess: (session) => startSession(client, session),
  });
}

/** POST /auth/setup with the one-time link's token: the first admin, signed in at once. */
export function useSetup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiRequest<'setup'>['body']) => apiCall('setup', { body }),
    onSuccess: (session) => startSession(client, session),
  });
}
