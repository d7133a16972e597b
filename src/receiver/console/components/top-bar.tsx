import type { Credential } from '../credential.ts';
import { type Route, routeHref } from '../route.ts';

/** Who is signed in, the pages, and signing out. */
export function TopBar(props: {
  credential: Credential;
  username: string | undefined;
  route: Route;
  onSignOut(): void;
}) {
  const { credential, username, route } = props;
  return (
    <header class="top-bar">
      <a class="brand" href={routeHref({ page: 'resources' })}>
        reslog
      </a>
      <nav>
        <a
          href={routeHref({ page: 'resources' })}
          aria-current={route.page !== 'inbox' ? 'page' : undefined}
        >
          Resources
        </a>
        {credential.kind === 'key' && (
          <a
            href={routeHref({ page: 'inbox' })}
            aria-current={route.page === 'inbox' ? 'page' : undefined}
          >
            Inbox
          </a>
        )}
      </nav>
      <span class="who" data-testid="who">
        {credential.kind === 'admin' ? 'admin (all resources)' : (username ?? '…')}
      </span>
      <button type="button" class="sign-out" onClick={props.onSignOut}>
        Sign out
      </button>
    </header>
  );
}
