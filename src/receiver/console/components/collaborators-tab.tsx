import type { ApiClient } from '../api-client.ts';
import type { ApiResource, Collaborators } from '../api-types.ts';
import { useApiGet } from '../use-api-get.ts';
import { ErrorNote } from './error-note.tsx';

/** Who else may see the resource (read-only; the owner changes it through the API). */
export function CollaboratorsTab({ api, resource }: { api: ApiClient; resource: ApiResource }) {
  const { data, error } = useApiGet<Collaborators>(
    api,
    `/api/resources/${encodeURIComponent(resource.uuid)}/collaborators`,
  );
  if (error?.status === 403) {
    return (
      <p class="muted">
        Only the resource's owner sees its collaborators; your role is {resource.role}.
      </p>
    );
  }
  if (error) return <ErrorNote message={error.message} />;
  if (!data) return <p class="muted">Loading collaborators…</p>;
  return (
    <section>
      <p>
        Owned by {data.team !== undefined ? `team ${data.team}` : data.owner}
        {data.team !== undefined && ' (its members are listed by GET /api/teams/{team})'}.
      </p>
      {data.collaborators.length === 0 ? (
        <p class="muted">Not shared with anyone.</p>
      ) : (
        <table class="collaborators">
          <thead>
            <tr>
              <th>Account</th>
              <th>Role</th>
            </tr>
          </thead>
          <tbody>
            {data.collaborators.map((c) => (
              <tr key={c.username}>
                <td>{c.username}</td>
                <td>{c.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
