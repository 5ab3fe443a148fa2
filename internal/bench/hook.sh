#!/usr/bin/env bash
# Times a hook call as a whole process, next to a trivial Go program that only
# answers {}, on every kind of event: a routine shell command, a deny, a
# prompt, a read with and without content, and two MCP calls. Two ways: the
# thin client hookguard-hook with its resident evaluator running (what
# install sets up when both binaries are installed), and `hookguard hook`
# alone. Built as the README installs (CGO_ENABLED=0). Uses hyperfine when it
# is installed, else internal/bench/proctime. Prints medians and ratios.
#   internal/bench/hook.sh [RUNS]          (EVENTS="read mcp" to pick some)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-300}
out=$(mktemp -d)
trap 'pkill -f "$out/hookguard serve" 2>/dev/null || true; rm -rf "$out"' EXIT
CGO_ENABLED=0 go build -o "$out/hookguard" ./cmd/hookguard
CGO_ENABLED=0 go build -o "$out/hookguard-hook" ./cmd/hookguard-hook
go build -o "$out/trivial" ./internal/bench/trivial
go build -o "$out/proctime" ./internal/bench/proctime
export HOOKGUARD_AUDIT=off HOOKGUARD_JUDGE=off HOME="$out/home" HOOKGUARD_STATE_DIR="$out/state" HOOKGUARD_SERVE_IDLE=10m
mkdir -p "$HOME"
cat > "$out/routine.json" <<'JSON'
{"conversation_id":"c-1","generation_id":"g-1","model":"m","hook_event_name":"beforeShellExecution","cursor_version":"2.1.3","workspace_roots":["/home/dev/project"],"user_email":null,"command":"cd web && npm ci && npm run build 2>&1 | tail -20","cwd":"/home/dev/project"}
JSON
cat > "$out/deny.json" <<'JSON'
{"conversation_id":"c-1","generation_id":"g-1","model":"m","hook_event_name":"beforeShellExecution","cursor_version":"2.1.3","workspace_roots":["/home/dev/project"],"user_email":null,"command":"git push --force origin main","cwd":"/home/dev/project"}
JSON
# A prompt of about 4 KiB (the README's start) and a read of a Go source file
# carrying its content: the secret detector's share of a hook call. The source
# file is a fixed copy (testdata/read-source.go.txt), so that the figure does
# not move when the repository's own files are edited.
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
base = {"conversation_id": "c-1", "generation_id": "g-1", "model": "m", "cursor_version": "2.1.3",
        "workspace_roots": ["/home/dev/project"], "user_email": None}
readme = open("README.md").read()[:4000]
json.dump(dict(base, hook_event_name="beforeSubmitPrompt", attachments=[],
               prompt="Please update the docs so they match this draft:\n\n" + readme), open(out + "/prompt.json", "w"))
json.dump(dict(base, hook_event_name="beforeReadFile", attachments=[], file_path="/home/dev/project/judge/judge.go",
               content=open("internal/bench/testdata/read-source.go.txt").read()), open(out + "/read.json", "w"))
# A read without content (beforeTabFileRead, or a client that sends only the
# path) and two MCP calls: a read-only tool and a SQL query analyzed by value.
json.dump(dict(base, hook_event_name="beforeReadFile", attachments=[], file_path="/home/dev/project/src/app.ts"),
          open(out + "/read-path.json", "w"))
json.dump(dict(base, hook_event_name="beforeMCPExecution", mcp_server_name="github", tool_name="get_issue",
               tool_input=json.dumps({"owner": "acme", "repo": "shop", "issue_number": 42}),
               command="npx -y @modelcontextprotocol/server-github"), open(out + "/mcp.json", "w"))
json.dump(dict(base, hook_event_name="beforeMCPExecution", mcp_server_name="postgres", tool_name="query",
               tool_input=json.dumps({"sql": "SELECT id, status FROM orders WHERE created_at > now() - interval '1 day' LIMIT 20"}),
               command="npx -y @modelcontextprotocol/server-postgres"), open(out + "/mcp-sql.json", "w"))
PY
# The first call finds no resident evaluator: hookguard answers and starts one.
"$out/hookguard-hook" hook < "$out/routine.json" > /dev/null
for _ in $(seq 100); do
  ls "$out/state"/resident-*.sock > /dev/null 2>&1 && break
  sleep 0.05
done
for ev in ${EVENTS:-routine deny prompt read read-path mcp mcp-sql}; do
  echo "== $ev event"
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 20 --runs "$runs" --input "$out/$ev.json" -i "$out/trivial" "$out/hookguard-hook hook" "$out/hookguard hook"
  else
    "$out/proctime" -runs "$runs" -input "$out/$ev.json" -- "$out/trivial" -- "$out/hookguard-hook" hook -- "$out/hookguard" hook
  fi
done
