/**
 * The cause of an error whose message quotes an upstream's body as it came (not JSON, or not an
 * error document) rather than a message field parsed from it: the admin channel Test shows the
 * status of such an answer, never its body (a base URL aimed at something that is not a model
 * server must not make the Test a way to read it).
 */
export class UnparsedUpstreamBody extends Error {
  constructor() {
    super('the upstream answered with a body that is not a JSON error document');
    this.name = 'UnparsedUpstreamBody';
  }
}
