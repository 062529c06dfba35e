/** The command's usage text, and the error for a command line that does not follow it (exit code 2). */
export const USAGE = `usage:
  gengate start [--config FILE] [--workers N|auto]
      run the gateway; port from GENGATE_PORT or PORT (default 8080)
        --workers  worker processes sharing the port (default 1, or server.workers / GENGATE_WORKERS);
                   auto: the cores available, a container's CPU quota respected
  gengate keys create [--name NAME] [--models PATTERNS] [--expires DATE] [--account EMAIL] [--admin]
      create an API key and print it once
        --name     a label for the key (default "unnamed"), one line, at most 100 characters
        --models   comma-separated model ids the key may use, * as wildcard, e.g. 'textmodel-b-*,textmodel-a-*'
                   (without --models the key may use any model its account may)
        --expires  a future date (UTC) such as 2027-01-01, or an ISO 8601 time
                   (without --expires the key never expires)
        --account  the email of the account the key belongs to (its usage and tasks are that account's);
                   without --account it is an operator key of no account
        --admin    the key may also call the admin API (/admin/v1) as a Bearer token;
                   only an admin account's key or an operator key may
  gengate keys list [--json]
      every key with its state and account
  gengate keys revoke KEY_ID
  gengate keys webhook-secret KEY_ID
      print the secret that signs the task webhooks of this key (x-gengate-signature)
  gengate accounts create --email EMAIL [--role admin|member]
      create a dashboard account and print a one-time link to set its password (default role: member)
  gengate accounts link --email EMAIL
      print a new one-time link to set (or reset) an account's password
  gengate accounts list
  gengate accounts first-admin-link
      while no admin can sign in: a fresh one-time link to set the first admin's password
  gengate limits list [--key ID | --account EMAIL] [--json]
  gengate limits set [--key ID | --account EMAIL] [--model PATTERN] --kind KIND --limit N
      create a limit rule, or change the limit of the one of that kind and pattern (docs/limits.md)
        without --key or --account: a model rule (every caller of models matching --model)
        --kind     requests_per_minute, tokens_per_minute, concurrent_requests,
                   task_submits_per_minute or unfinished_tasks
        --model    a model id pattern (* wildcard); on a key or account an override for those models
  gengate limits clear RULE_ID
  gengate budgets list [--key ID | --account EMAIL] [--json]
  gengate budgets set --key ID | --account EMAIL --period day|week|month|lifetime --limit USD
                      [--soft USD] [--time-zone ZONE]
      create the budget of that period, or change it; --soft warns below the cap,
      --time-zone an IANA zone for the calendar periods (default UTC)
  gengate budgets clear BUDGET_ID
  gengate budgets rebuild
      set every budget's shared spend counter (GENGATE_REDIS_URL) from the ledger
  gengate tasks ledger TASK_ID [--json]
      a task's status and ledger entries (reserve, then one settle or refund)
  gengate secrets rotate
      re-encrypt every stored channel credential under GENGATE_SECRET_KEY, reading old
      ones with the keys in GENGATE_SECRET_KEY_PREVIOUS; says how many it re-encrypted
  gengate models import FILE [--apply] [--source TEXT] [--date YYYY-MM-DD] [--format litellm|models.dev] [--provider ID]
      read a model-price file (LiteLLM's model_prices_and_context_window.json or models.dev's
      api.json, told apart by its shape unless --format says) and show what it changes in the
      catalog (prices, long-context tiers, token limits, capabilities); a models.dev model is read
      from its vendor's provider, or from --provider ID; --apply stores the changes as model
      overrides, each audited, with --source and --date as the prices' source (default: the
      file's name and today; for models.dev, the api.json entry and the file's date) (docs/models.md)
  gengate migrate [--config FILE]
      apply pending database migrations and say which
  gengate help

Options in [brackets] are optional; --config FILE works with every command.
Configuration: gengate.yaml (or GENGATE_CONFIG) and environment variables; see docs/configuration.md.
Exit codes: 0 done, 1 failed (port in use, database unreachable, no such key), 2 usage or configuration error
(a secret key that cannot decrypt the stored channel credentials included).`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
