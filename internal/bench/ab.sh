#!/usr/bin/env bash
# Times the thin client hookguard-hook of an earlier commit against the
# working tree's, each with its own resident evaluator, in alternating runs
# (internal/bench/proctime), on a routine shell command, a 4 KiB prompt, a
# read carrying a source file and a SQL MCP call. Prints medians and the
# ratio new/old: on a shared machine only runs interleaved like this compare
# two builds fairly.
#   internal/bench/ab.sh OLD_REV [RUNS]     (EVENTS="read prompt" to pick some)
set -euo pipefail
cd "$(dirname "$0")/../.."
old_rev=${1:?usage: internal/bench/ab.sh OLD_REV [RUNS]}
runs=${2:-80}
out=$(mktemp -d)
trap 'pkill -f "$out/old/hookguard serve" 2>/dev/null || true; pkill -f "$out/new/hookguard serve" 2>/dev/null || true;
  git worktree remove --force "$out/wt" 2>/dev/null || true; rm -rf "$out"' EXIT
mkdir -p "$out/old" "$out/new" "$out/home" "$out/state-old" "$out/state-new"
git worktree add -f "$out/wt" "$old_rev" > /dev/null 2>&1
(cd "$out/wt" && CGO_ENABLED=0 go build -o "$out/old/hookguard" ./cmd/hookguard &&
  CGO_ENABLED=0 go build -o "$out/old/hookguard-hook" ./cmd/hookguard-hook)
CGO_ENABLED=0 go build -o "$out/new/hookguard" ./cmd/hookguard
CGO_ENABLED=0 go build -o "$out/new/hookguard-hook" ./cmd/hookguard-hook
go build -o "$out/proctime" ./internal/bench/proctime
export HOOKGUARD_AUDIT=off HOOKGUARD_JUDGE=off HOME="$out/home" HOOKGUARD_SERVE_IDLE=10m
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
base = {"conversation_id": "c-1", "generation_id": "g-1", "model": "m", "cursor_version": "2.1.3",
        "workspace_roots": ["/home/dev/project"], "user_email": None}
readme = open("README.md").read()[:4000]
json.dump(dict(base, hook_event_name="beforeShellExecution", command="cd web && npm ci && npm run build 2>&1 | tail -20",
               cwd="/home/dev/project"), open(out + "/routine.json", "w"))
json.dump(dict(base, hook_event_name="beforeSubmitPrompt", attachments=[],
               prompt="Please update the docs so they match this draft:\n\n" + readme), open(out + "/prompt.json", "w"))
json.dump(dict(base, hook_event_name="beforeReadFile", attachments=[], file_path="/home/dev/project/judge/judge.go",
               content=open("internal/bench/testdata/read-source.go.txt").read()), open(out + "/read.json", "w"))
json.dump(dict(base, hook_event_name="beforeMCPExecution", mcp_server_name="postgres", tool_name="query",
               tool_input=json.dumps({"sql": "SELECT id, status FROM orders WHERE created_at > now() - interval '1 day' LIMIT 20"}),
               command="npx -y @modelcontextprotocol/server-postgres"), open(out + "/mcp-sql.json", "w"))
PY
# The first call of each finds no evaluator: hookguard answers and starts one.
HOOKGUARD_STATE_DIR="$out/state-old" "$out/old/hookguard-hook" hook < "$out/routine.json" > /dev/null
HOOKGUARD_STATE_DIR="$out/state-new" "$out/new/hookguard-hook" hook < "$out/routine.json" > /dev/null
for _ in $(seq 100); do
  ls "$out/state-old"/resident-*.sock "$out/state-new"/resident-*.sock > /dev/null 2>&1 && break
  sleep 0.05
done
echo "old = $old_rev, new = the working tree"
for ev in ${EVENTS:-routine prompt read mcp-sql}; do
  echo "== $ev event"
  "$out/proctime" -runs "$runs" -input "$out/$ev.json" \
    -- env HOOKGUARD_STATE_DIR="$out/state-old" "$out/old/hookguard-hook" hook \
    -- env HOOKGUARD_STATE_DIR="$out/state-new" "$out/new/hookguard-hook" hook
done
