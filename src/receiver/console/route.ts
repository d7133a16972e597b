import { useLayoutEffect, useState } from 'preact/hooks';

/** The resource page's tabs. */
export const TABS = ['logs', 'health', 'notifications', 'collaborators'] as const;
export type Tab = (typeof TABS)[number];

/** Where the console is, kept in the URL's fragment (never sent to the server). */
export type Route =
  | { page: 'resources' }
  | { page: 'inbox' }
  | { page: 'resource'; uuid: string; tab: Tab };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'inbox') return { page: 'inbox' };
  if (parts[0] === 'r' && parts[1] !== undefined) {
    const tab = TABS.find((name) => name === parts[2]) ?? 'logs';
    return { page: 'resource', uuid: parts[1], tab };
  }
  return { page: 'resources' };
}

export function routeHref(route: Route): string {
  switch (route.page) {
    case 'resources':
      return '#/';
    case 'inbox':
      return '#/inbox';
    case 'resource':
      return `#/r/${encodeURIComponent(route.uuid)}/${route.tab}`;
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useLayoutEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    // The fragment may have changed between the first render and now.
    onChange();
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
