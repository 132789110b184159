#!/usr/bin/env bash
# `make docs` / `npm run docs`: the API reference as one self-contained HTML page,
# dist/docs/index.html, which the service serves at GET /docs. Redocly's build-docs with
# the Redoc bundle inlined (--inlineBundle) and telemetry off, in scripts/docs-template.hbs
# (a Content-Security-Policy that allows no other host). Redoc's "API docs by Redocly"
# badge loads its logo from Redocly's CDN: it is swapped for an inline image (the build
# fails if that no longer matches, or a web font is referenced). The proof that the page
# asks no other host for anything is test/contract/docs-page.test.ts, in Chromium.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="dist/docs/index.html"
mkdir -p "$(dirname "$out")"

if ! log="$(REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  npx --no-install redocly build-docs openapi/openapi.yaml --inlineBundle \
  --template scripts/docs-template.hbs --output "$out" 2>&1)"; then
  echo "$log" >&2
  exit 1
fi

node - "$out" <<'JS'
const { readFileSync, writeFileSync } = require('node:fs');
const path = process.argv[2];
const badge = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#3b3b3b">Redocly</text></svg>`;
const inline = `data:image/svg+xml,${encodeURIComponent(badge)}`;
const LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g;
const built = readFileSync(path, 'utf8');
if ((built.match(LOGO) ?? []).length !== 2) fail('the Redocly badge logo URLs were not found: check the page in Chromium (make contract)');
const html = built.replace(LOGO, inline);
if (/fonts\.(googleapis|gstatic)\.com/.test(html)) fail('the page references web fonts');
if (/<script[^>]+src=|<link[^>]+href="http/i.test(html)) fail('the page loads a script or a style sheet from elsewhere: is --inlineBundle on?');

function fail(problem) {
  process.stderr.write(`build-docs: ${problem}\n`);
  process.exit(1);
}
writeFileSync(path, html);
JS
echo "docs: $out ($(($(wc -c <"$out") / 1024)) KiB), self-contained"
