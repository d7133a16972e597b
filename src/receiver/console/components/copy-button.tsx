import { useState } from 'preact/hooks';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copies `text` to the clipboard and says so; where the clipboard is refused, the text stays selectable. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | undefined>();
  return (
    <button
      type="button"
      class="copy"
      onClick={async () => {
        setDone((await copyText(text)) ? 'copied' : 'failed');
        setTimeout(() => setDone(undefined), 1500);
      }}
    >
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Select and copy' : label}
    </button>
  );
}
