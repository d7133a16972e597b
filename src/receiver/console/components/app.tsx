import { useMemo, useState } from 'preact/hooks';
import { apiBase } from '../api-base.ts';
import { createApiClient } from '../api-client.ts';
import { type Credential, clearCredential, loadCredential, saveCredential } from '../credential.ts';
import { useRoute } from '../route.ts';
import { useApiGet } from '../use-api-get.ts';
import { InboxPage } from './inbox-page.tsx';
import { ResourceList } from './resource-list.tsx';
import { ResourcePage } from './resource-page.tsx';
import { SignIn } from './sign-in.tsx';
import { TopBar } from './top-bar.tsx';

/** Signed out: the sign-in form. Signed in: the page the URL fragment names. */
export function App() {
  const [credential, setCredential] = useState<Credential | undefined>(loadCredential);
  if (!credential) {
    return (
      <SignIn
        onSignIn={(next) => {
          saveCredential(next);
          setCredential(next);
        }}
      />
    );
  }
  return (
    <SignedIn
      credential={credential}
      onSignOut={() => {
        clearCredential();
        setCredential(undefined);
      }}
    />
  );
}

function SignedIn(props: { credential: Credential; onSignOut(): void }) {
  const api = useMemo(() => createApiClient(props.credential, apiBase()), [props.credential]);
  const route = useRoute();
  const me = useApiGet<{ username: string }>(
    api,
    props.credential.kind === 'key' ? '/api/me' : '/api/resources',
  );
  return (
    <>
      <TopBar
        credential={props.credential}
        username={props.credential.kind === 'key' ? me.data?.username : undefined}
        route={route}
        onSignOut={props.onSignOut}
      />
      <main>
        {route.page === 'resources' && <ResourceList api={api} />}
        {route.page === 'inbox' && <InboxPage api={api} />}
        {route.page === 'resource' && (
          <ResourcePage key={route.uuid} api={api} uuid={route.uuid} tab={route.tab} />
        )}
      </main>
    </>
  );
}
