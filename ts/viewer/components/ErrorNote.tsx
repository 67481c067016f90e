// ErrorNote shows an API error; a 403 says how to get a working address.
import { ApiError } from '../api';

export function ErrorNote({ error }: { error: Error }) {
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <div class="error-note" role="alert">
      <strong>{error instanceof ApiError ? error.code : 'Error'}</strong>: {error.message}
      {forbidden && <p>Open the address that <code>sessionkeep serve</code> printed: it carries the token.</p>}
    </div>
  );
}
