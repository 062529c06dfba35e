/** JSON schemas shared by several admin routes. */
const ACCOUNT_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string', enum: ['admin', 'member'] },
  },
  required: ['id', 'email', 'role'],
} as const;

export const SIGNED_IN_SCHEMA = {
  type: 'object',
  properties: { account: ACCOUNT_SCHEMA, csrfToken: { type: 'string' } },
  required: ['account', 'csrfToken'],
} as const;

export const EMAIL_SCHEMA = { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' } as const;
export const PASSWORD_SCHEMA = { type: 'string', minLength: 1, maxLength: 256 } as const;

/** The `{ data, nextCursor }` envelope around a listing of `item`. */
export function pageSchema(item: object) {
  return {
    type: 'object',
    properties: { data: { type: 'array', items: item }, nextCursor: { type: ['string', 'null'] } },
    required: ['data', 'nextCursor'],
  } as const;
}

export const NO_CONTENT = { 204: { type: 'null', description: 'Done' } } as const;
