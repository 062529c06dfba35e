/** A configuration problem the user must fix; the CLI prints its message without a stack. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
