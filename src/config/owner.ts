/**
 * Who owns a resource: an account (`/u/<username>/…`) or a team (`/team/<team>/…`). The ingest
 * path names the owner; docs/protocol.md, "Paths".
 */
export interface Owner {
  readonly kind: 'user' | 'team';
  /** Username or team name (both `USERNAME_PATTERN` of src/contract/identifiers.ts). */
  readonly name: string;
}

export function userOwner(name: string): Owner {
  return { kind: 'user', name };
}

export function teamOwner(name: string): Owner {
  return { kind: 'team', name };
}

/** `u/alice` or `team/devops`: the owner's part of every resource path. */
export function ownerPath(owner: Owner): string {
  return `${owner.kind === 'user' ? 'u' : 'team'}/${encodeURIComponent(owner.name)}`;
}

/**
 * How the owner appears in stats keys and messages: `alice` for an account (as before teams
 * existed), `team/devops` for a team, so that the two can never collide.
 */
export function ownerLabel(owner: Owner): string {
  return owner.kind === 'user' ? owner.name : `team/${owner.name}`;
}
