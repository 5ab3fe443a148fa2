#!/usr/bin/env bash
# Runs the README's quick-start commands as written — the single-event example
# under "First two commands" and the "Install" block — in a throwaway home,
# GOPATH and project, and fails if any of them fails or the example's answer
# is not a deny. "your-project" stands for the throwaway project.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
tmp=$(mktemp -d)
# doctor's self-test starts a resident evaluator in the throwaway home: stop it.
trap 'pkill -f "$tmp/gopath/bin/hookguard serve" 2>/dev/null || true; rm -rf "$tmp"' EXIT
modcache=$(go env GOMODCACHE)
gocache=$(go env GOCACHE)
mkdir -p "$tmp/home" "$tmp/your-project/.git"

# The fenced sh blocks of a README section, in order.
blocks() {
  awk -v section="$1" '
    /^## / { in_section = ($0 == "## " section) }
    in_section && /^```sh$/ { in_block = 1; n++; next }
    in_block && /^```$/ { in_block = 0; next }
    in_block { print n "\t" $0 }
  ' README.md
}

example=$(blocks "First two commands" | awk -F'\t' '$1 == 2 { sub(/^[^\t]*\t/, ""); print }')
install=$(blocks "Install" | awk -F'\t' '$1 == 1 { sub(/^[^\t]*\t/, ""); print }')
if [ -z "$example" ] || [ -z "$install" ]; then
  echo "readme-quickstart: could not find the README's quick-start blocks" >&2
  exit 1
fi

run() {
  # A clean environment: a new home and GOPATH (the module and build caches
  # are shared, so nothing is downloaded twice), PATH without the GOPATH bin.
  env -i HOME="$tmp/home" PATH="$(dirname "$(command -v go)"):/usr/bin:/bin" GOPATH="$tmp/gopath" \
    GOMODCACHE="$modcache" GOCACHE="$gocache" GOFLAGS="${GOFLAGS:-}" GOTOOLCHAIN=local \
    bash -euo pipefail -c "$1"
}

echo "== README: the single-event example"
answer=$(cd "$repo" && run "$example")
echo "$answer"
case "$answer" in
  *'"permission":"deny"'*) ;;
  *) echo "readme-quickstart: the example did not answer a deny" >&2; exit 1 ;;
esac

echo "== README: Install"
script=${install//your-project/$tmp/your-project}
(cd "$repo" && run "$script")
test -f "$tmp/your-project/.cursor/hooks.json"
echo "readme-quickstart: ok"
