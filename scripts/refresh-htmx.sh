#!/usr/bin/env bash
# Maintainers only: re-fetch the vendored htmx 2.x and its SSE extension from the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
(cd "$tmp" && npm pack -q htmx.org@2.0.11 htmx-ext-sse@2.2.4 >/dev/null && tar xzf htmx.org-2.0.11.tgz && \
  mkdir sse && tar xzf htmx-ext-sse-2.2.4.tgz -C sse)
cp "$tmp/package/dist/htmx.min.js" static/vendor/htmx-2.0.11.min.js
cp "$tmp/sse/package/dist/sse.min.js" static/vendor/htmx-ext-sse-2.2.4.min.js
echo "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717  static/vendor/htmx-2.0.11.min.js" | sha256sum -c
rm -rf "$tmp"
