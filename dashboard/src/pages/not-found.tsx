import { Link } from '../components/link.js';
import { useTitle } from '../components/use-title.js';
import { BASE } from '../lib/routes.js';

export function NotFoundPage(props: { message?: string }) {
  useTitle('Not found');
  return (
    <>
      <h1>Not found</h1>
      <p>{props.message ?? 'There is no such page in the dashboard.'}</p>
      <p>
        <Link href={`${BASE}/usage`}>Go to usage</Link>
      </p>
    </>
  );
}
