import { prettyJson } from '../format.ts';
import { CopyButton } from './copy-button.tsx';

/** A titled, copyable JSON value, rendered as text (never as markup). */
export function JsonBlock({ title, value }: { title: string; value: unknown }) {
  const text = prettyJson(value);
  const empty =
    value === null ||
    value === undefined ||
    (typeof value === 'object' && Object.keys(value as object).length === 0);
  return (
    <section class="json-block" aria-label={title}>
      <header class="section-head">
        <h4>{title}</h4>
        {!empty && <CopyButton text={text} />}
      </header>
      {empty ? <p class="muted">none</p> : <pre>{text}</pre>}
    </section>
  );
}
