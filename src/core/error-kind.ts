/** What went wrong, in the gateway's terms: each kind has its HTTP status (`errors.ts`) and its default error type (`error-type.ts`). */
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
