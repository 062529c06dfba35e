/** Renders the admin API's OpenAPI document as the Markdown page docs/admin-api.md. */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
};
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};
export type OpenApiDocument = { info: { title: string; description?: string }; paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.enum) return schema.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  const type = Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
  if (type === 'array' && schema.items) return `array of ${typeOf(schema.items)}`;
  return type;
}

function limits(schema: Schema): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(`≤ ${schema.maxLength} chars`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

function fieldTable(schema: Schema | undefined, extra: Parameter[] = []): string[] {
  const rows = extra.map((p) => `| \`${p.name}\` (${p.in}) | ${typeOf(p.schema)} | ${p.required ? 'yes' : ''} | ${p.schema ? limits(p.schema) : ''} |`);
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    rows.push(`| \`${name}\` | ${typeOf(field)} | ${schema?.required?.includes(name) ? 'yes' : ''} | ${limits(field)} |`);
  }
  return rows.length === 0 ? [] : ['| field | type | required | limits |', '|---|---|---|---|', ...rows, ''];
}

export function renderOpenApiMarkdown(doc: OpenApiDocument): string {
  const lines = [
    `# ${doc.info.title}`,
    '',
    '<!-- Generated from the route schemas by `npm run docs:admin-api`; test/admin/admin-api-doc.test.ts checks it is current. -->',
    '',
    doc.info.description ?? '',
    '',
    'The machine-readable document is served at `/admin/v1/openapi.json` (OpenAPI 3.1). Errors are',
    '`{ "error": { "code", "message", "requestId" } }`; listings are `{ "data": [...], "nextCursor" }` with `?limit=&cursor=`.',
    '',
  ];
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      const section = byTag.get(tag) ?? [];
      byTag.set(tag, section);
      section.push(`### \`${method.toUpperCase()} ${path}\``, '', operation.summary ?? '', '');
      if (operation.description) section.push(operation.description, '');
      const body = operation.requestBody?.content?.['application/json']?.schema;
      section.push(...fieldTable(body, operation.parameters ?? []));
      const answers = Object.entries(operation.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .map(([status, response]) => {
          const schema = response.content?.['application/json']?.schema;
          const fields = schema?.properties ? Object.keys(schema.properties).map((f) => `\`${f}\``) : [];
          return `${status}${fields.length ? `: ${fields.join(', ')}` : response.description ? `: ${response.description}` : ''}`;
        });
      if (answers.length) section.push(`Answers ${answers.join('; ')}.`, '');
    }
  }
  for (const [tag, section] of byTag) lines.push(`## ${tag}`, '', ...section);
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
