/** The caller behind a request, once its API key has been checked. */
export interface AuthenticatedKey {
  id: string;
  name: string;
  /** Model id patterns the key may use (`*` wildcards); null means any model. */
  models: string[] | null;
  isMaster: boolean;
}
