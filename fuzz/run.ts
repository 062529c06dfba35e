/**
 * `npm run fuzz -- [--seed N] [--requests N] [--seconds S] [--concurrency N] [--only I] [--postgres | --database-url URL] [--attacks A,B]`:
 * the robustness suite against a real gateway on 127.0.0.1. Exits 1 on any finding.
 */
import { parseArgs } from 'node:util';
import { installSignalCleanup } from '../bench/child-processes.js';
import { createTempDatabase, type TempDatabase } from '../test/helpers/postgres.js';
import { ATTACK_NAMES, type Attack } from './generate-case.js';
import { renderFuzzReport } from './render-fuzz-report.js';
import { replayFlagsOf, runFuzz } from './run-fuzz.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    requests: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '420' },
    concurrency: { type: 'string', default: '8' },
    'raw-rounds': { type: 'string', default: '10' },
    'stall-hold': { type: 'string', default: '40' },
    only: { type: 'string' },
    postgres: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    attacks: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`usage: npm run fuzz -- [flags]
  --seed N          the run's seed (default: random; printed, so a run can be repeated)
  --requests N      generated HTTP requests (default 10000)
  --seconds S       wall-clock bound; no request starts after it (default 420)
  --concurrency N   requests in flight (default 8)
  --raw-rounds N    rounds of the raw-socket cases (default 10)
  --stall-hold S    how long unfinished requests are held open (default 40; judged above 30)
  --only I          replay case I of the seed alone
  --postgres        the gateway on a throwaway PostgreSQL database (created on the local server, as the
                    tests do: GENGATE_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test; dropped after)
  --database-url U  the gateway on this database (postgres://…), kept after the run
  --attacks A,B     only these attack classes (${ATTACK_NAMES.join(', ')})`);
  process.exit(0);
}

const number = (name: string, value: string | undefined): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name}: expected a whole number, got "${value}"`);
  return parsed;
};

const attacks = values.attacks?.split(',').map((name) => name.trim()) as Attack[] | undefined;
const unknown = attacks?.filter((name) => !ATTACK_NAMES.includes(name));
if (unknown?.length) throw new Error(`--attacks: unknown class ${unknown.join(', ')}; the classes: ${ATTACK_NAMES.join(', ')}`);
if (values.postgres && values['database-url']) throw new Error('--postgres and --database-url: give one');

installSignalCleanup();
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : number('seed', values.seed);
const database: TempDatabase | undefined = values.postgres ? await createTempDatabase() : undefined;
const databaseUrl = database?.url ?? values['database-url'];
console.log(`fuzz: seed ${seed} (repeat with --seed ${seed}${replayFlagsOf({ databaseUrl, attacks })})${databaseUrl ? ` on ${databaseUrl}` : ''}`);
const report = await runFuzz({
  seed,
  requests: number('requests', values.requests),
  seconds: number('seconds', values.seconds),
  concurrency: Math.max(1, number('concurrency', values.concurrency)),
  rawRounds: number('raw-rounds', values['raw-rounds']),
  stallHoldMs: number('stall-hold', values['stall-hold']) * 1000,
  only: values.only === undefined ? undefined : number('only', values.only),
  databaseUrl,
  attacks,
  log: (line) => console.log(line),
}).finally(() => database?.drop());
console.log(renderFuzzReport(report));
process.exit(report.groups.length > 0 ? 1 : report.completed ? 0 : 2);
