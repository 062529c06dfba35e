import type { GatewayConfig } from './config/types.js';
import type { BannerChannel } from './cli/cluster-messages.js';
import { redactDatabaseUrl } from './store/open-store.js';

/** What a person starting the gateway needs to see: where it listens, what serves, and a first request. */
export function printStartBanner(
  config: GatewayConfig,
  registry: { channels: readonly BannerChannel[] },
  address: string,
  firstKey: string | undefined,
  adminLink?: string,
  workers?: number,
): void {
  const base = address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
  const lines = [
    '',
    `gengate listening on ${base}`,
    `  database: ${redactDatabaseUrl(config.databaseUrl)}`,
    `  config:   ${config.sources.join(' + ')}`,
    ...(workers !== undefined ? [`  workers:  ${workers} processes on one port`] : []),
    '  channels:',
  ];
  for (const channel of registry.channels) {
    const note = channel.fallbackOnly ? ' (simulated answers for models no other channel serves)' : '';
    lines.push(`    - ${channel.name} [${channel.config.provider}]${channel.enabled ? '' : ' disabled'}${note}`);
  }
  if (firstKey) {
    lines.push(
      '',
      'Created your first API key. It is shown ONCE; store it now:',
      '',
      `  ${firstKey}`,
      '',
      'Try it:',
      '',
      `  curl ${base}/v1/chat/completions \\`,
      `    -H "Authorization: Bearer ${firstKey}" -H "Content-Type: application/json" \\`,
      `    -d '{"model":"textmodel-b-4o-mini","messages":[{"role":"user","content":"Hello!"}]}'`,
    );
  } else if (config.masterKey) {
    lines.push('', 'Master key from GENGATE_MASTER_KEY is active.');
  }
  lines.push('', `Dashboard: ${base}/dashboard`);
  if (adminLink) {
    lines.push('', 'No admin can sign in yet. Open this one-time link (valid 24 hours) to set the first admin password:', '', `  ${adminLink}`);
  }
  lines.push('');
  process.stdout.write(`${lines.join('\n')}\n`);
}
