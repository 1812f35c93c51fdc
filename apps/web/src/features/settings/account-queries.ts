import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountKeys, tokensOptions, usersOptions } from '../../lib/accounts';
import { type ApiRequest, apiCall } from '../../lib/api';
import { SESSION_KEY } from '../../lib/session';

/** The admin's sections of Settings: accounts, device tokens, the audit log; and one's own password. */

/** Rows of the audit log per page. */
export const AUDIT_PAGE_SIZE = 25;

export interface AuditFilter {
  /** 1-based. */
  page: number;
  userId?: number;
  tokenId?: number;
  kind?: string;
}

const auditOptions = (filter: AuditFilter) =>
  queryOptions({
    queryKey: accountKeys.audit(filter),
    queryFn: ({ signal }) =>
      apiCall(
        'auditLog',
        {
          query: {
            skip: (filter.page - 1) * AUDIT_PAGE_SIZE,
            limit: AUDIT_PAGE_SIZE,
            ...(filter.userId === undefined ? {} : { user_id: filter.userId }),
            ...(filter.tokenId === undefined ? {} : { token_id: filter.tokenId }),
            ...(filter.kind ? { kind: filter.kind } : {}),
          },
        },
        { signal },
      ),
    staleTime: 0,
  });

export function useAuditLog(filter: AuditFilter) {
  return useQuery({ ...auditOptions(filter), placeholderData: keepPreviousData });
}

export function useUsers() {
  return useQuery(usersOptions());
}

export function useTokens() {
  return useQuery(tokensOptions());
}

/** After any change the lists and the audit log (which now holds the change) are read again. */
function useAccountMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useCreateUser() {
  return useAccountMutation((body: ApiRequest<'createUser'>['body']) => apiCall('createUser', { body }));
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      body,
      isSelf: _,
    }: {
      id: number;
      body: ApiRequest<'updateUser'>['body'];
      isSelf: boolean;
    }) => apiCall('updateUser', { params: { id }, body }),
    onSettled: (_data, _error, { isSelf }) => {
      void client.invalidateQueries({ queryKey: accountKeys.all });
      // One's own role changed: what the app shows follows the new role.
      if (isSelf) void client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
}

export function useDeleteUser() {
  return useAccountMutation((id: number) => apiCall('deleteUser', { params: { id } }));
}

export function useCreateToken() {
  return useAccountMutation((body: ApiRequest<'createToken'>['body']) => apiCall('createToken', { body }));
}

export function useRevokeToken() {
  return useAccountMutation((id: number) => apiCall('revokeToken', { params: { id } }));
}

/** POST /auth/password: the current password and a new one; the other browsers are signed out. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ApiRequest<'changePassword'>['body']) => apiCall('changePassword', { body }),
  });
}
