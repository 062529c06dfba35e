# gengate container image: the built npm package and its production dependencies, run as a non-root user.
#   docker build -t gengate .
#   docker run -p 8080:8080 -v gengate-data:/var/lib/gengate gengate
# See docs/deployment.md (one process to a fleet) and deploy/ (compose, Kubernetes).
#
# Every stage uses the same base image: better-sqlite3 (SQLite) and sharp (images) are native modules,
# built or picked for the Node ABI and the libc (here glibc, Debian 12) of the stage that installs them,
# so the stage that installs the production dependencies and the one that runs them must match.
# An Alpine (musl) base works too, if every stage is Alpine.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 downloads a prebuilt binary from its GitHub releases, and compiles SQLite when it cannot.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# Every dependency (TypeScript, esbuild, the dashboard's libraries), then dist/ and dist/dashboard/.
RUN npm ci --no-audit --no-fund && node scripts/build-if-stale.mjs
# The npm package of that build in /app (dist/, catalog/) with `npm ci --omit=dev`: no dev dependency.
RUN sh deploy/install-package.sh /src /app

FROM ${NODE_IMAGE}
# 0.0.0.0: the gateway listens on 127.0.0.1 unless told otherwise. The SQLite default suits one
# container with a volume; a fleet sets GENGATE_DATABASE_URL to PostgreSQL (docs/deployment.md).
ENV GENGATE_HOST=0.0.0.0 \
    GENGATE_PORT=8080 \
    GENGATE_DATA_DIR=/var/lib/gengate \
    GENGATE_DATABASE_URL=sqlite:/var/lib/gengate/gengate.db
WORKDIR /app
# Owned by root and read-only to the gateway; it writes only in its data folder.
COPY --from=build /app /app
RUN mkdir -p /var/lib/gengate && chown 1000:1000 /var/lib/gengate
VOLUME /var/lib/gengate
# The base image's `node` user, by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080
# Liveness (`/healthz`); load balancers should poll `/readyz` instead, which also answers 503 while draining.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.GENGATE_PORT || process.env.PORT || 8080) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains: /readyz turns 503, the listener closes, open requests get server.drainTimeoutMs
# (30 s by default) to finish, usage is flushed, then the process exits 0. Give the container longer
# than that before SIGKILL (docker stop -t 40; Kubernetes terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["start"]
