#!/usr/bin/env bash
# The API document as third-party clients meet it (issue 20 A): validates openapi/openapi.json and
# the live /api-docs/openapi.json with openapi-spec-validator, generates a Python client
# (openapi-python-client) and a TypeScript one (openapi-typescript + openapi-fetch, compiled with
# `tsc --strict`) from the live document, failing on any warning, and has each adjudicate every
# fixture against the live service, compared with the fixture's expectation.
# Usage: .ci/clients.sh URL (a running server, e.g. http://127.0.0.1:8080). Pinned versions;
# everything is installed into a temporary directory, removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
URL="${1:?usage: .ci/clients.sh URL of a running arbiter}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
start=$SECONDS

echo "== installing the validator and the generators (pinned) into $TMP"
python3 -m venv "$TMP/venv"
"$TMP/venv/bin/pip" install --quiet --disable-pip-version-check \
  'openapi-spec-validator==0.7.1' 'openapi-python-client==0.24.3'
npm install --prefix "$TMP/ts" --no-audit --no-fund --silent \
  'openapi-typescript@7.13.0' 'openapi-fetch@0.17.0' 'typescript@5.9.3' '@types/node@20'

echo "== openapi-spec-validator: the committed document and the served one"
curl -fsS "$URL/api-docs/openapi.json" -o "$TMP/served.json"
"$TMP/venv/bin/openapi-spec-validator" openapi/openapi.json "$TMP/served.json"

# A generator's output fails the run on any warning (a dropped schema, reference or endpoint).
no_warnings() {
  if grep -Ei 'warn|unable|could not|cannot|skipp|⚠' "$1"; then
    echo "$2 warned (above); full output in $1" >&2
    exit 1
  fi
}

echo "== openapi-python-client: generate, then adjudicate every fixture"
mkdir -p "$TMP/py"
# Sheet import takes text/csv, and adjudication also a PBN text (application/x-pbn), which the
# generator does not know: bytes to it. Its post hooks would run ruff, which is not installed.
printf 'content_type_overrides:\n  text/csv: application/octet-stream\n  application/x-pbn: application/octet-stream\npost_hooks: []\n' >"$TMP/py.yml"
"$TMP/venv/bin/openapi-python-client" generate --path "$TMP/served.json" --meta none \
  --config "$TMP/py.yml" --output-path "$TMP/py/arbiter_client" >"$TMP/py.log" 2>&1 ||
  { cat "$TMP/py.log"; exit 1; }
no_warnings "$TMP/py.log" openapi-python-client
PYTHONPATH="$TMP/py" "$TMP/venv/bin/python" .ci/clients/check.py "$URL" fixtures

echo "== openapi-typescript + openapi-fetch: generate, compile (strict), adjudicate every fixture"
cp .ci/clients/check.ts "$TMP/ts/"
"$TMP/ts/node_modules/.bin/openapi-typescript" "$TMP/served.json" -o "$TMP/ts/api.d.ts" \
  >"$TMP/ts.log" 2>&1 || { cat "$TMP/ts.log"; exit 1; }
no_warnings "$TMP/ts.log" openapi-typescript
(cd "$TMP/ts" && node_modules/.bin/tsc --strict --target es2022 --module nodenext \
  --moduleResolution nodenext --types node --outDir out check.ts)
node "$TMP/ts/out/check.js" "$URL" fixtures
echo "== clients passed in $((SECONDS - start)) s"
