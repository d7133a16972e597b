import type { ApiClient } from '../api-client.ts';
import type { ApiResource } from '../api-types.ts';
import { routeHref, TABS, type Tab } from '../route.ts';
import { useApiGet } from '../use-api-get.ts';
import { CollaboratorsTab } from './collaborators-tab.tsx';
import { ErrorNote } from './error-note.tsx';
import { HealthBadge } from './health-badge.tsx';
import { HealthTab } from './health-tab.tsx';
import { LogsTab } from './logs-tab.tsx';
import { NotificationsTab } from './notifications-tab.tsx';

/** One resource: its name and health, and a tab each for logs, health, notifications, sharing. */
export function ResourcePage({ api, uuid, tab }: { api: ApiClient; uuid: string; tab: Tab }) {
  const { data: resource, error } = useApiGet<ApiResource>(
    api,
    `/api/resources/${encodeURIComponent(uuid)}`,
  );
  if (error?.status === 404) {
    return (
      <section class="page">
        <ErrorNote message="No resource with this UUID is visible to you." />
        <a href={routeHref({ page: 'resources' })}>Back to resources</a>
      </section>
    );
  }
  if (error) return <ErrorNote message={error.message} />;
  if (!resource) return <p class="muted">Loading…</p>;
  return (
    <section class="page resource-page">
      <header class="resource-header">
        <h2>{resource.name}</h2>
        <span class="mono muted">
          {resource.team !== undefined ? `team ${resource.team}` : resource.owner}/{resource.key}
        </span>
        <HealthBadge state={resource.health} />
        <span class="muted">your role: {resource.role}</span>
      </header>
      <nav class="tabs" aria-label="Resource sections">
        {TABS.map((name) => (
          <a
            key={name}
            href={routeHref({ page: 'resource', uuid, tab: name })}
            aria-current={name === tab ? 'page' : undefined}
          >
            {name}
          </a>
        ))}
      </nav>
      {tab === 'logs' && <LogsTab api={api} resource={resource} />}
      {tab === 'health' && <HealthTab api={api} uuid={uuid} />}
      {tab === 'notifications' && <NotificationsTab api={api} uuid={uuid} />}
      {tab === 'collaborators' && <CollaboratorsTab api={api} resource={resource} />}
    </section>
  );
}
