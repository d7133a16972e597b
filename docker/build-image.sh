#!/usr/bin/env bash
# Builds the receiver image from docker/Dockerfile without any registry access during the
# build: stages the reslog-receiver package (src/receiver: dist/, package.json, docker/) and the
# production node_modules the host already has into a temporary context (see
# src/testing/image-context.ts) and builds it, the same way reslog-testcontainers does for
# tests. Uses node:24-slim when it can be pulled, else a local base from
# docker/build-node-base.sh (override with RESLOG_NODE_IMAGE).
#
# usage: docker/build-image.sh [TAG]   (default reslog-receiver:local; prints the tag)
set -euo pipefail
cd "$(dirname "$0")/.."
tag="${1:-reslog-receiver:local}"
if [[ ! -f src/testing/dist/index.js || ! -f src/receiver/dist/receiver/cli.js ]]; then
  echo "build-image: dist/ is missing; run npm run build first" >&2
  exit 1
fi
node_bin=node_modules/.bin/node
[[ -x "$node_bin" ]] || node_bin=node
RESLOG_IMAGE_TAG="$tag" "$node_bin" --input-type=module -e '
const { buildReceiverImage } = await import("./src/testing/dist/index.js");
console.log(await buildReceiverImage({ tag: process.env.RESLOG_IMAGE_TAG }));
'
