/** The admin API page as the running gateway describes itself. */
import { renderOpenApiMarkdown, type OpenApiDocument } from '../../src/admin/openapi-markdown.js';
import { startGateway } from '../helpers/start-gateway.js';

export async function renderAdminApiDoc(): Promise<string> {
  const running = await startGateway();
  try {
    const answer = await fetch(`${running.url}/admin/v1/openapi.json`);
    return renderOpenApiMarkdown((await answer.json()) as OpenApiDocument);
  } finally {
    await running.close();
  }
}
