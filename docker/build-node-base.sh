#!/usr/bin/env bash
# Builds a minimal local stand-in for `node:24-slim` from the Node binary this checkout already
# has (the `node` devDependency, node_modules/.bin/node) and the shared libraries `ldd` lists,
# for Docker engines that cannot pull from any registry. The image has no shell and no package
# manager: /usr/local/bin/node, its libraries, /etc/passwd + /etc/group with the same `node`
# user (uid/gid 1000) as the official image, and a world-writable /tmp.
#
# usage: docker/build-node-base.sh [TAG]   (default reslog-node-base:<node version>-local)
# prints the tag on stdout; everything else goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

node_bin="${RESLOG_NODE_BINARY:-node_modules/.bin/node}"
if [[ ! -x "$node_bin" ]]; then
  echo "build-node-base: $node_bin not found; run npm ci first (it installs the node@24 binary)" >&2
  exit 1
fi
node_bin="$(readlink -f "$node_bin")"
version="$("$node_bin" --version)"
tag="${1:-reslog-node-base:${version#v}-local}"

if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "build-node-base: $tag already exists" >&2
  echo "$tag"
  exit 0
fi

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/local/bin" "$root/etc" "$root/tmp"
chmod 1777 "$root/tmp"
cp "$node_bin" "$root/usr/local/bin/node"

# Every library the dynamic loader resolves (absolute paths, including the loader itself),
# copied to the same path so the binary's interpreter and search paths work unchanged.
ldd "$node_bin" | grep -oE '/[^ ]+' | sort -u | while read -r lib; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
# Debian's merged /usr keeps /lib64 as a link; keep the loader path valid either way.
if [[ -L /lib64 && ! -e "$root/lib64" ]]; then ln -s "$(readlink /lib64)" "$root/lib64"; fi

cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/usr/sbin/nologin
node:x:1000:1000::/home/node:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOF
cat >"$root/etc/group" <<'EOF'
root:x:0:
node:x:1000:
nogroup:x:65534:
EOF
# Node reads these for DNS lookups of container names on Docker networks.
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"

tar -C "$root" --numeric-owner --owner=0 --group=0 -c . \
  | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change 'ENV NODE_VERSION='"${version#v}" \
    --change 'CMD ["node"]' \
    - "$tag" >&2
echo "build-node-base: built $tag from $node_bin ($version)" >&2
echo "$tag"
