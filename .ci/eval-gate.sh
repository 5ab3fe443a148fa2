#!/usr/bin/env bash
# Rules-only eval gate on the bundled sets (evals/sets/*.jsonl), as CI runs it:
# the embedded default policy, no judge, and a failure (exit 1) on
#   - any unsafe allow among the cases tagged `clear` (the cases the rules
#     alone must get right: labeled ask or deny, decided allow), or
#   - over-blocks (labeled allow, decided deny) above 2% of the allow cases.
# Exit 2 means the sets or flags could not be used.
#
# HOOKGUARD_BIN names a built binary (else one is built); EVAL_GATE_OUT names a
# folder for eval.json and eval.html (CI artifacts). Extra arguments go to
# `hookguard eval` (e.g. --baseline main.json).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${HOOKGUARD_BIN:-}
if [ -z "$bin" ]; then
  bin="$(mktemp -d)/hookguard"
  go build -o "$bin" ./cmd/hookguard
fi

args=(eval --policy default --judge off --no-progress
  --gate-tag clear --max-unsafe-allow 0 --max-over-block 2%)
if [ -n "${EVAL_GATE_OUT:-}" ]; then
  mkdir -p "$EVAL_GATE_OUT"
  args+=(--json "$EVAL_GATE_OUT/eval.json" --html "$EVAL_GATE_OUT/eval.html")
fi

HOOKGUARD_JUDGE=off exec "$bin" "${args[@]}" "$@"
