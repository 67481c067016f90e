import type { Store } from '../store';
import type { Session } from '../session';

/**
 * withSession opens session `id`, runs `work` on it and closes it whatever happens, so the
 * server holds no session open between requests (an agent in another process may be
 * writing it).
 */
export async function withSession<T>(store: Store, id: string, work: (session: Session) => Promise<T>): Promise<T> {
  const session = store.openSession(id);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}
