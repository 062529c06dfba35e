/** What went wrong, in the gateway's terms; each surface renders a kind in its own dialect (`errors.ts`). */
export type ErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'request_too_large'
  | 'rate_limit'
  | 'insufficient_quota'
  | 'upstream'
  | 'timeout'
  | 'overloaded'
  | 'internal';
