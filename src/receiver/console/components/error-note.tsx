/** A failed request, said in one line. */
export function ErrorNote({ message }: { message: string }) {
  return (
    <p class="error-note" role="alert">
      {message}
    </p>
  );
}
