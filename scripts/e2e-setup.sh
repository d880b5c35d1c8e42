#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3) into .e2e/ for the end-to-end test (test/e2e/).
# Idempotent: a finished install is recognised by .e2e/.ready and reused. Needs the npm registry
# and Debian packages only (see docs: real VS Code offline). First run takes a few minutes.
#   scripts/e2e-setup.sh            install if missing
#   scripts/e2e-setup.sh --force    reinstall
set -euo pipefail
VERSION=4.100.3
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="$ROOT/.e2e"
STAMP="$DIR/.ready"
CS="$DIR/node_modules/code-server"

if [[ "${1:-}" == "--force" ]]; then rm -f "$STAMP"; fi
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$VERSION" && -x "$DIR/node_modules/.bin/code-server" ]]; then
  echo "e2e-setup: code-server $VERSION already installed in $DIR"
  exit 0
fi

need_pkgs=()
command -v rg >/dev/null || need_pkgs+=(ripgrep)
[[ -x /usr/bin/chromium ]] || need_pkgs+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_pkgs+=(libkrb5-dev)
command -v pkg-config >/dev/null || need_pkgs+=(pkg-config)
if (( ${#need_pkgs[@]} )); then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "e2e-setup: installing system packages: ${need_pkgs[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}"
  else
    echo "e2e-setup: missing system packages: ${need_pkgs[*]} (apt-get install -y ${need_pkgs[*]})" >&2
    exit 1
  fi
fi

mkdir -p "$DIR"
cd "$DIR"
[[ -f package.json ]] || echo '{ "name": "dab-e2e-scratch", "private": true }' > package.json
if [[ ! -d "$CS/lib/vscode" ]]; then
  echo "e2e-setup: npm install code-server@$VERSION (ignore-scripts)"
  npm install --no-audit --no-fund --ignore-scripts "code-server@$VERSION"
fi

cd "$CS/lib/vscode"
echo "e2e-setup: installing VS Code's runtime dependencies"
npm install --no-audit --no-fund --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
echo "e2e-setup: rebuilding native modules (node-pty, kerberos, spdlog…)"
npm_config_yes=true npm rebuild
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sf code-linux.sh code-server)
(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
(cd extensions && npm install --no-audit --no-fund --omit=dev --ignore-scripts)

cd "$DIR"
npm rebuild argon2
"$DIR/node_modules/.bin/code-server" --version
echo "$VERSION" > "$STAMP"
echo "e2e-setup: done ($DIR)"
