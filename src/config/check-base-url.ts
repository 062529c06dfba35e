/**
 * What makes a channel's base URL usable: an http(s) URL the gateway appends request paths to.
 * A query, a fragment or credentials in it would end up in the wrong place of every upstream
 * URL (after the path is joined on), so they are refused when the configuration is read.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
  return problemOf(baseUrl)?.problem;
}

/**
 * The configuration error for a base URL, naming `field`, or undefined when it is usable. The
 * URL is echoed only when it does not parse: a query or userinfo may hold a secret.
 */
export function baseUrlError(baseUrl: string, field: string, options: { onlyScheme?: boolean } = {}): string | undefined {
  const found = problemOf(baseUrl);
  if (!found || (options.onlyScheme && !found.problem.startsWith('must be an http(s) URL'))) return undefined;
  return found.echo ? `${field} ${found.problem}, got ${JSON.stringify(baseUrl)}` : `${field} ${found.problem}`;
}

function problemOf(baseUrl: string): { problem: string; echo: boolean } | undefined {
  const found = (problem: string, echo = false) => ({ problem, echo });
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return found('must be an http(s) URL', true);
  }
  if (url.username !== '' || url.password !== '') return found('must not carry credentials (set the channel apiKey or headers)');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return found('must be an http(s) URL', true);
  if (url.search !== '' || baseUrl.includes('?'))
    return found('must not carry a query (paths are appended to it; put parameters in the channel headers or options)');
  if (url.hash !== '' || baseUrl.includes('#')) return found('must not carry a fragment');
  return undefined;
}
