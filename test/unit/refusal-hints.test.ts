import { describe, expect, it, vi } from 'vitest';
import { teamOwner, userOwner } from '../../src/config/owner.js';
import {
  createRefusalWarnings,
  MISCONFIGURED_WARNING_CODE,
  refusalHint,
} from '../../src/exporter/refusal-hints.js';

const UUID = '3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const ALICE = { key: `alice/${UUID}`, owner: userOwner('alice'), uuid: UUID };
const DEVOPS = { key: `team/devops/${UUID}`, owner: teamOwner('devops'), uuid: UUID };

describe('refusal hints', () => {
  it('says that owner and UUID do not match on a 404', () => {
    expect(refusalHint(ALICE, 404, 'invalid_resource')).toContain(
      `owner "alice" and resource ${UUID} do not match`,
    );
    expect(refusalHint(DEVOPS, 404, 'invalid_resource')).toContain(`team "devops" and resource`);
  });

  it('points at the key on a 401, the acting user on username_mismatch, the role on a 403', () => {
    expect(refusalHint(ALICE, 401, 'invalid_api_key')).toContain('RESLOG_API_KEY');
    expect(refusalHint(ALICE, 401, 'username_mismatch')).toContain('x-user-username');
    expect(refusalHint(ALICE, 403, 'forbidden')).toContain('owner or of an editor');
    expect(refusalHint(ALICE, 400, 'invalid_body')).toBeUndefined();
  });

  it('warns once per target through the emitter, with a code to filter on', () => {
    const emit = vi.fn();
    const warn = createRefusalWarnings(emit);
    warn(ALICE, 401, 'invalid_api_key');
    warn(ALICE, 401, 'invalid_api_key');
    warn(ALICE, 404, 'invalid_resource');
    warn(DEVOPS, 404, 'invalid_resource');
    warn(DEVOPS, 500, undefined);
    expect(emit).toHaveBeenCalledTimes(2);
    expect(emit.mock.calls[0]?.[1]).toEqual({
      type: 'ReslogWarning',
      code: MISCONFIGURED_WARNING_CODE,
    });
    expect(emit.mock.calls[0]?.[0]).toContain(`401 invalid_api_key for alice/${UUID}`);
    expect(emit.mock.calls[1]?.[0]).toContain(`team/devops/${UUID}`);
  });
});
