/** The command's usage text, and the error for a command line that does not follow it (exit code 2). */
export const USAGE = `usage:
  gengate start [--config FILE]
      run the gateway; port from GENGATE_PORT or PORT (default 8080)
  gengate keys create [--name NAME] [--models PATTERNS] [--expires DATE]
      create an API key and print it once
        --name     a label for the key (default "unnamed"), one line, at most 100 characters
        --models   comma-separated model ids the key may use, * as wildcard, e.g. 'textmodel-b-*,textmodel-a-*'
                   (without --models the key may use any model)
        --expires  a future date (UTC) such as 2027-01-01, or an ISO 8601 time
                   (without --expires the key never expires)
  gengate keys list [--json]
  gengate keys revoke KEY_ID
  gengate keys webhook-secret KEY_ID
      print the secret that signs the task webhooks of this key (x-gengate-signature)
  gengate accounts create --email EMAIL [--role admin|member]
      create a dashboard account and print a one-time link to set its password (default role: member)
  gengate accounts link --email EMAIL
      print a new one-time link to set (or reset) an account's password
  gengate accounts list
  gengate tasks ledger TASK_ID [--json]
      a task's status and ledger entries (reserve, then one settle or refund)
  gengate migrate [--config FILE]
      apply pending database migrations and say which
  gengate help

Options in [brackets] are optional; --config FILE works with every command.
Configuration: gengate.yaml (or GENGATE_CONFIG) and environment variables; see docs/configuration.md.
Exit codes: 0 done, 1 failed (port in use, database unreachable, no such key), 2 usage or configuration error.`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
