import { useState } from 'preact/hooks';
import { apiBase } from '../api-base.ts';
import { ApiError, createApiClient } from '../api-client.ts';
import type { Credential } from '../credential.ts';

/**
 * Sign in with an API key or the admin token. The form never submits (no URL, no request
 * that could log the secret): the credential is tried against the API, then kept in
 * sessionStorage.
 */
export function SignIn({ onSignIn }: { onSignIn(credential: Credential): void }) {
  const [kind, setKind] = useState<Credential['kind']>('key');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const credential = { kind, secret: secret.trim() };
    if (credential.secret === '') return;
    setBusy(true);
    setError(undefined);
    try {
      // Any route the credential may read proves it: /api/me for a key, the list for the token.
      await createApiClient(credential, apiBase()).get(
        kind === 'key' ? '/api/me' : '/api/resources',
      );
      onSignIn(credential);
    } catch (caught) {
      const status = caught instanceof ApiError ? caught.status : 0;
      setError(
        status === 401
          ? kind === 'key'
            ? 'This API key is not valid.'
            : 'This admin token is not valid.'
          : (caught as Error).message,
      );
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <form onSubmit={submit} autocomplete="off">
        <h1>reslog console</h1>
        <fieldset>
          <legend>Sign in with</legend>
          <label>
            <input
              type="radio"
              name="kind"
              checked={kind === 'key'}
              onChange={() => setKind('key')}
            />{' '}
            an API key
          </label>
          <label>
            <input
              type="radio"
              name="kind"
              checked={kind === 'admin'}
              onChange={() => setKind('admin')}
            />{' '}
            the admin token (sees every resource)
          </label>
        </fieldset>
        <label class="field">
          {kind === 'key' ? 'API key' : 'Admin token'}
          <input
            type="password"
            name="secret"
            autocomplete="off"
            spellcheck={false}
            value={secret}
            onInput={(event) => setSecret(event.currentTarget.value)}
          />
        </label>
        {error !== undefined && (
          <p class="error-note" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || secret.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="muted">
          Kept in this tab's session storage only; closing the tab or signing out forgets it.
        </p>
      </form>
    </main>
  );
}
