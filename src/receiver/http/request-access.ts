import type { FastifyRequest } from 'fastify';
import type { ResourceAccess } from '../receiver-context.js';
import type { Principal } from '../store/directory-store.js';

/** What the auth plugin's `apiAccess` hook leaves on a request, for the routes behind it. */

/**
 * The caller of a read with the admin token instead of an API key (docs/receiver.md, "Admin
 * token reads"). Not an account: id 0 is never an account's, and the name cannot be one.
 */
export const ADMIN_PRINCIPAL: Readonly<Principal> = Object.freeze({
  accountId: 0,
  username: '(admin token)',
  keyId: 0,
  keyLabel: 'admin-token',
});

export function isAdmin(principal: Principal): boolean {
  return principal === ADMIN_PRINCIPAL;
}

/** The caller's account (set by `apiAccess`). */
export function principalOf(request: FastifyRequest): Principal {
  const principal = request.notes.principal;
  if (!principal) throw new Error(`${request.routeOptions.url} ran without apiAccess`);
  return principal;
}

/** The caller, resource and role of a resource route (set by `apiAccess`). */
export function accessOf(request: FastifyRequest): ResourceAccess {
  const access = request.access;
  if (!access) throw new Error(`${request.routeOptions.url} ran without apiAccess`);
  return access;
}
