import type { ApiClient } from '../api-client.ts';
import type { ApiResource } from '../api-types.ts';
import { routeHref } from '../route.ts';
import { useApiGet } from '../use-api-get.ts';
import { ErrorNote } from './error-note.tsx';
import { HealthBadge } from './health-badge.tsx';

/** The resources the credential may see: owned, shared and its teams', each with its health. */
export function ResourceList({ api }: { api: ApiClient }) {
  const { data, error, loading } = useApiGet<{ resources: ApiResource[] }>(api, '/api/resources');
  if (error) return <ErrorNote message={error.message} />;
  if (loading && !data) return <p class="muted">Loading resources…</p>;
  const resources = data?.resources ?? [];
  return (
    <section class="page">
      <h2>Resources</h2>
      {resources.length === 0 ? (
        <p class="muted">No resources are visible to this key.</p>
      ) : (
        <table class="resources">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Owner</th>
              <th>Your role</th>
              <th>Health</th>
            </tr>
          </thead>
          <tbody>
            {resources.map((resource) => (
              <tr key={resource.uuid} data-resource={resource.key}>
                <td>
                  <a href={routeHref({ page: 'resource', uuid: resource.uuid, tab: 'logs' })}>
                    {resource.name}
                  </a>
                </td>
                <td class="mono">{resource.key}</td>
                <td>{resource.team !== undefined ? `team ${resource.team}` : resource.owner}</td>
                <td>{resource.role}</td>
                <td>
                  <HealthBadge state={resource.health} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
