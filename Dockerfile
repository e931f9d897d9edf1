# syntax=docker/dockerfile:1
# The Delivery Orders API image: one program, its mode as the command
# (`api` | `worker` | `migrate`; `all` for a single-box trial). See docs/operations.md.
# Checked by test/deploy-artefacts.test.ts, and built and run as written by test/image/ (`npm run
# test:image`: each stage in a directory of its own, no Docker engine needed).

ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: every dependency (TypeScript) to compile src/ into dist/ --------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# --ignore-scripts: `prepare` (npm's own build) would run before the sources are here; the build is
# the explicit step below, and compiling needs no dependency's install script.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
RUN npm run build

# --- runtime: production dependencies and the compiled code only ---------------------------------
# No development tool (TypeScript, tsx and esbuild, the embedded PostgreSQL, the La Poste postcode
# list the build compacts into dist/): all are devDependencies, which --omit=dev leaves out.
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# --ignore-scripts: no install script of a production dependency needs to run in the image (sharp
# and argon2 come as prebuilt binaries).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY migrations ./migrations
COPY data ./data
# DATA_DIR holds what the service writes outside PostgreSQL (proof-of-delivery photos with
# OBJECT_STORE=fs, e-mails and SMS as files without SMTP_URL or Twilio): the only directory the
# unprivileged user may write to. Several instances share it as one volume (compose.yaml's dlv-data).
RUN mkdir -p /var/lib/dlv && chown node:node /var/lib/dlv
# NODE_OPTIONS: V8's young generation capped at 4 MB a semi-space (16 by default). It grows during
# start-up and is not given back at rest: 136 → 117 MB of RSS for an API at rest, with no measured
# cost to throughput (docs/benchmarks.md).
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/dlv \
    NODE_OPTIONS=--max-semi-space-size=4
USER node
EXPOSE 3000
# /livez only says the process is up (no database, no curl in the slim image): the orchestrator's
# readiness check is /readyz (compose.yaml, deploy/kubernetes/).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/service.js"]
CMD ["api"]
