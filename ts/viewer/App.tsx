// App is the frame of every page: the top bar with its links, and the page of the route.
import { useRoute } from './router';
import { SessionsPage } from './pages/Sessions';
import { SessionPage } from './pages/Session';
import { UsagePage } from './pages/Usage';

export function App() {
  const route = useRoute();
  return (
    <>
      <header class="topbar">
        <a class="brand" href="#/sessions">sessionkeep</a>
        <nav>
          <a href="#/sessions" class={route.page !== 'usage' ? 'current' : ''}>Sessions</a>
          <a href="#/usage" class={route.page === 'usage' ? 'current' : ''}>Usage</a>
        </nav>
      </header>
      <main>
        {route.page === 'session' && route.id ? (
          <SessionPage key={route.id} id={route.id} params={route.params} />
        ) : route.page === 'usage' ? (
          <UsagePage params={route.params} />
        ) : (
          <SessionsPage params={route.params} />
        )}
      </main>
    </>
  );
}
