/**
 * The deployment files (Dockerfile, deploy/compose/, deploy/kubernetes/) against the gateway they
 * deploy: every probe path they name is a route a real gateway serves with the right meaning
 * (liveness `/healthz`, readiness `/readyz`), every port is the one the gateway listens on, the pods
 * run as the image's non-root user, the Kubernetes objects they reference exist (Secret, ConfigMap,
 * PodDisruptionBudget), the configuration files load with the gateway's own loader, the replicas
 * share what must match, and every environment variable they set is one the gateway reads.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { USAGE } from '../src/cli/usage.js';
import { loadConfig } from '../src/config/load-config.js';
import { PROVIDER_DESCRIPTORS } from '../src/providers/registry.js';
import { envOf, execForm, finalStage, only, readDockerfile } from './helpers/dockerfile.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: manifests are free-form YAML, checked field by field below
type Doc = any;

const work = mkdtempSync(join(tmpdir(), 'gengate-manifests-'));
const image = finalStage(readDockerfile('Dockerfile'));
const imageEnv = envOf(image);

const kubernetes: Doc[] = readdirSync('deploy/kubernetes')
  .filter((name) => name.endsWith('.yaml'))
  .flatMap((name) => parseAllDocuments(readFileSync(join('deploy/kubernetes', name), 'utf8')).map((doc) => doc.toJS()))
  .filter((doc) => doc?.kind);
const ofKind = (kind: string): Doc[] => kubernetes.filter((doc) => doc.kind === kind);
const deployment = ofKind('Deployment')[0];
const pod = deployment.spec.template.spec;
const container = pod.containers.find((c: Doc) => c.name === 'gengate');
const job = ofKind('Job')[0];

const compose: Doc = parse(readFileSync('deploy/compose/compose.yaml', 'utf8'), { merge: true });
const gengateServices = Object.entries(compose.services as Record<string, Doc>).filter(([, service]) => service.image === 'gengate:local');
const replicas = gengateServices.filter(([, service]) => service.command === undefined);
const haproxy = readFileSync('deploy/compose/haproxy.cfg', 'utf8');

/** Compose's interpolation: `${A:-default}` takes the default, `${A:?message}` a value the operator would set. */
const operatorValues: Record<string, string> = { GENGATE_SECRET_KEY: randomBytes(32).toString('base64') };
function interpolate(value: string): string {
  return String(value)
    .replace(/\$\{([A-Z0-9_]+)(?::-([^}]*)|:\?[^}]*)?\}/g, (_match, name: string, fallback?: string) => fallback ?? operatorValues[name] ?? '')
    .replace(/\$\$/g, '$');
}

/** A config file given as text, loaded as the gateway loads it. */
function load(yamlText: string, env: Record<string, string>) {
  const path = join(work, `gengate-${randomBytes(4).toString('hex')}.yaml`);
  writeFileSync(path, yamlText);
  return loadConfig({ configPath: path, env, providers: PROVIDER_DESCRIPTORS });
}

/** The Deployment's (or Job's) variables, Secret references resolved from secret.yaml. */
function podEnv(spec: Doc): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of spec.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    env[variable.name] = ref ? ofKind('Secret').find((s) => s.metadata.name === ref.name)?.stringData?.[ref.key] : variable.value;
  }
  // secret.yaml holds a placeholder the operator replaces (the gateway refuses it as a key).
  if (env.GENGATE_SECRET_KEY !== undefined) env.GENGATE_SECRET_KEY = operatorValues.GENGATE_SECRET_KEY;
  return env;
}

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

/** What a path answers on a real gateway. */
async function probe(path: string): Promise<{ status: number; body: { status?: string } }> {
  const response = await fetch(`${gateway.url}${path}`);
  return { status: response.status, body: (await response.json()) as { status?: string } };
}

async function expectLiveness(path: string): Promise<void> {
  expect(await probe(path)).toEqual({ status: 200, body: { status: 'ok' } });
}

/** The readiness route, not another route that answers 200: its body carries the verdict. */
async function expectReadiness(path: string): Promise<void> {
  const answer = await probe(path);
  expect(answer.status).toBe(200);
  expect(answer.body.status).toBe('ready');
}

describe('Dockerfile', () => {
  it('runs as a numeric non-root user, exposes the port it sets, and health-checks the liveness route', async () => {
    const [uid] = only(image, 'USER').args.split(':');
    expect(uid).toMatch(/^\d+$/);
    expect(Number(uid)).toBeGreaterThan(0);
    expect(only(image, 'EXPOSE').args).toBe(imageEnv.GENGATE_PORT);
    expect(imageEnv.GENGATE_HOST).toBe('0.0.0.0');
    const check = execForm(only(image, 'HEALTHCHECK').args).join(' ');
    const path = /'(\/[a-z]+)'/.exec(check)?.[1];
    expect(path).toBe('/healthz');
    await expectLiveness(path!);
  });
});

describe('Kubernetes manifests', () => {
  it('probe the liveness and readiness routes on the port the gateway listens on', async () => {
    const http = container.ports.find((p: Doc) => p.name === 'http');
    expect(String(http.containerPort)).toBe(podEnv(container).GENGATE_PORT);
    const config = load(ofKind('ConfigMap')[0].data['gengate.yaml'], podEnv(container));
    expect(config.server.port).toBe(http.containerPort);
    expect(config.server.host).toBe('0.0.0.0');
    for (const name of ['livenessProbe', 'readinessProbe', 'startupProbe']) expect(container[name].httpGet.port, name).toBe('http');
    await expectLiveness(container.livenessProbe.httpGet.path);
    await expectLiveness(container.startupProbe.httpGet.path);
    await expectReadiness(container.readinessProbe.httpGet.path);
    const service = ofKind('Service')[0];
    expect(service.spec.ports[0].targetPort).toBe('http');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
  });

  it('run the pods as the image user, never root, and give a drain its time before SIGKILL', () => {
    const [uid] = only(image, 'USER').args.split(':');
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBe(Number(uid));
    expect(job.spec.template.spec.securityContext.runAsUser).toBe(Number(uid));
    expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
    const config = load(ofKind('ConfigMap')[0].data['gengate.yaml'], podEnv(container));
    const pause = Number(container.lifecycle.preStop.exec.command[1]);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.server.drainDelayMs + config.server.drainTimeoutMs + pause * 1000);
  });

  it('keep at least one replica through voluntary disruptions', () => {
    const pdb = ofKind('PodDisruptionBudget')[0];
    expect(pdb.spec.minAvailable).toBeGreaterThanOrEqual(1);
    expect(deployment.spec.replicas).toBeGreaterThan(pdb.spec.minAvailable);
    expect(deployment.spec.template.metadata.labels).toMatchObject(pdb.spec.selector.matchLabels);
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  it('take the secret key and the connection strings from the Secret and gengate.yaml from the ConfigMap', () => {
    for (const spec of [container, job.spec.template.spec.containers[0]]) {
      for (const variable of spec.env) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (!ref) continue;
        const secret = ofKind('Secret').find((s) => s.metadata.name === ref.name);
        expect(secret?.stringData, `${variable.name} from ${ref.name}`).toHaveProperty(ref.key);
      }
      const mount = spec.volumeMounts.find((m: Doc) => podEnv(spec).GENGATE_CONFIG?.startsWith(`${m.mountPath}/`));
      expect(mount, 'GENGATE_CONFIG lies in a mounted volume').toBeDefined();
      const volume = (spec === container ? pod : job.spec.template.spec).volumes.find((v: Doc) => v.name === mount.name);
      const configMap = ofKind('ConfigMap').find((c) => c.metadata.name === volume.configMap.name);
      expect(configMap?.data).toHaveProperty(podEnv(spec).GENGATE_CONFIG.slice(mount.mountPath.length + 1));
    }
    for (const name of ['GENGATE_SECRET_KEY', 'GENGATE_DATABASE_URL', 'GENGATE_REDIS_URL', 'GENGATE_S3_SECRET_ACCESS_KEY']) {
      expect(container.env.find((v: Doc) => v.name === name)?.valueFrom?.secretKeyRef, name).toBeDefined();
    }
    const config = load(ofKind('ConfigMap')[0].data['gengate.yaml'], podEnv(container));
    expect(config.databaseUrl).toMatch(/^postgres:\/\//);
    expect(config.redisUrl).toMatch(/^redis:\/\//);
    expect(config.media.store).toBe('s3');
    expect(config.media.publicBaseUrl).toBe(podEnv(container).GENGATE_PUBLIC_URL);
  });

  it('migrate with a command the CLI has, on the same database and configuration', () => {
    const migrate = job.spec.template.spec.containers[0];
    expect(migrate.args).toEqual(['migrate']);
    expect(USAGE).toContain('gengate migrate');
    expect(migrate.image).toBe(container.image);
    expect(podEnv(migrate).GENGATE_DATABASE_URL).toBe(podEnv(container).GENGATE_DATABASE_URL);
  });
});

describe('compose', () => {
  const replicaEnv = (service: Doc): Record<string, string> =>
    Object.fromEntries(Object.entries(service.environment as Record<string, string>).map(([name, value]) => [name, interpolate(value)]));
  const composeConfig = () => load(readFileSync('deploy/compose/gengate.yaml', 'utf8'), replicaEnv(replicas[0][1]));

  it('runs two or more replicas sharing every setting that must match, each with its own data folder', () => {
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    const shared = [
      'GENGATE_SECRET_KEY',
      'GENGATE_DATABASE_URL',
      'GENGATE_REDIS_URL',
      'GENGATE_MEDIA_STORE',
      'GENGATE_S3_BUCKET',
      'GENGATE_S3_ENDPOINT',
      'GENGATE_PUBLIC_URL',
      'GENGATE_CONFIG',
    ];
    for (const [name, service] of replicas) {
      for (const setting of shared) expect(service.environment[setting], `${name} ${setting}`).toBe(replicas[0][1].environment[setting]);
    }
    const dataVolumes = replicas.map(([, service]) => (service.volumes as string[]).find((v) => v.endsWith(`:${imageEnv.GENGATE_DATA_DIR}`)));
    expect(dataVolumes.every(Boolean)).toBe(true);
    expect(new Set(dataVolumes).size).toBe(replicas.length);
    const migrate = compose.services.migrate;
    expect(migrate.command).toEqual(['migrate']);
    expect(migrate.environment.GENGATE_DATABASE_URL).toBe(replicas[0][1].environment.GENGATE_DATABASE_URL);
    for (const [, service] of replicas) expect(service.depends_on.migrate.condition).toBe('service_completed_successfully');
  });

  it('loads its gengate.yaml as a fleet: PostgreSQL, Redis, the MinIO bucket by path, the public URL', () => {
    const config = composeConfig();
    expect(config.databaseUrl).toMatch(/^postgres:\/\/gengate:[^@]+@postgres:5432\/gengate$/);
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.media.store).toBe('s3');
    expect(config.media.s3).toMatchObject({ bucket: 'gengate-media', endpoint: 'http://minio:9000', forcePathStyle: true });
    expect(config.media.s3?.accessKeyId).toBe(compose.services.minio.environment.MINIO_ROOT_USER.replace(/^\$\{[A-Z_]+:-(.*)\}$/, '$1'));
    expect(config.secretKey).toBe(operatorValues.GENGATE_SECRET_KEY);
    expect(config.media.publicBaseUrl).toBe('http://127.0.0.1:8080');
    for (const [, service] of replicas)
      expect(Number.parseInt(service.stop_grace_period, 10) * 1000).toBeGreaterThan(config.server.drainDelayMs + config.server.drainTimeoutMs);
  });

  it('balances over every replica on the gateway port, health-checked on the readiness route', async () => {
    const port = composeConfig().server.port;
    const servers = [...haproxy.matchAll(/^\s*server\s+\S+\s+([\w-]+):(\d+)/gm)].map((m) => ({ host: m[1], port: Number(m[2]) }));
    expect(servers.map((s) => s.host).sort()).toEqual(replicas.map(([name]) => name).sort());
    for (const server of servers) expect(server.port).toBe(port);
    const check = /option httpchk GET (\S+)/.exec(haproxy)?.[1];
    expect(check).toBeDefined();
    await expectReadiness(check!);
    expect(compose.services.lb.ports).toContain(`${port}:${port}`);
  });
});

describe('environment variables', () => {
  /** Every GENGATE_* (and PORT) the gateway's sources read: `env.NAME`, or a quoted 'NAME' handed to a reader. */
  function namesTheGatewayReads(): Set<string> {
    const names = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
          for (const match of readFileSync(path, 'utf8').matchAll(/(?:env\.|['"])(GENGATE_[A-Z0-9_]+|PORT)\b/g)) names.add(match[1]);
        }
      }
    };
    walk('src');
    return names;
  }

  it('every variable the manifests set for the gateway is one it reads', () => {
    const read = namesTheGatewayReads();
    expect(read).toContain('GENGATE_DATABASE_URL');
    const set = new Set<string>([
      ...Object.keys(imageEnv),
      ...gengateServices.flatMap(([, service]) => Object.keys(service.environment)),
      ...[container, job.spec.template.spec.containers[0]].flatMap((spec) => spec.env.map((v: Doc) => v.name as string)),
      ...ofKind('Secret').flatMap((secret) => Object.keys(secret.stringData)),
    ]);
    expect(set.size).toBeGreaterThan(5);
    expect([...set].filter((name) => !read.has(name))).toEqual([]);
  });
});
