/** The caller behind a request, once its API key has been checked. */
export interface AuthenticatedKey {
  id: string;
  name: string;
  /** Model id patterns the key may use (`*` wildcards); null means any model. */
  models: string[] | null;
  isMaster: boolean;
  /** The account the key belongs to (usage and tasks are theirs); null for operator keys and the master key. */
  accountId: string | null;
}
