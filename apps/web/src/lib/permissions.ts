import type { Access, CreatedBy, EndpointName, Identity } from '@wcs/contract';
import { API_ROUTES } from './api-routes';
import { roleAllows } from './roles';

/**
 * What the signed-in user may do, read from the `access` the contract states for each call
 * (docs/security.md "Roles"). The screens hide a button whose call the server would refuse; the
 * server decides anyway (401 without a session, 403 below the call's role).
 */

/** Who may call the endpoint: anyone, or at least this role. */
export function accessOf(name: EndpointName): Access {
  return API_ROUTES[name][2];
}

/** True when `identity` may call the endpoint. */
export function canCall(identity: Identity | null | undefined, name: EndpointName): boolean {
  const access = accessOf(name);
  if (access === 'anonymous') return true;
  return identity !== null && identity !== undefined && roleAllows(identity.role, access);
}

/** True when the recording, playlist or download entry was made by this very account or token. */
export function isMadeBy(identity: Identity | null | undefined, createdBy: CreatedBy | undefined): boolean {
  return (
    identity !== null &&
    identity !== undefined &&
    createdBy !== null &&
    createdBy !== undefined &&
    createdBy.kind === identity.kind &&
    createdBy.id === identity.id
  );
}

/** An admin deletes any recording; a dj only the ones it made (the server answers 403 otherwise). */
export function canDeleteRecording(
  identity: Identity | null | undefined,
  recording: { created_by: CreatedBy },
): boolean {
  if (!identity || !canCall(identity, 'deleteRecording')) return false;
  return roleAllows(identity.role, 'admin') || isMadeBy(identity, recording.created_by);
}
