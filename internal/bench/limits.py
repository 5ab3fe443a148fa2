#!/usr/bin/env python3
"""Hostile inputs under the size cap: wall time and peak memory of one hook call each.

Builds hookguard (CGO_ENABLED=0, as the README installs) unless a binary is
given, writes each event to a temp file, runs `hookguard hook` on it (the
judge off, no audit) and prints the decision, the wall time and the peak
resident memory of the process. The targets (issue 12): every input under the
8 MiB cap answered in at most 200 ms and 100 MB.

    python3 internal/bench/limits.py [HOOKGUARD_BINARY]

The inputs are made of harmless words; nothing here is ever run as a command.
"""
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile

CAP = 8 << 20  # hook.MaxEventBytes
RUNS = 5  # calls per input: the median wall time and the largest peak are printed
BASE = {"conversation_id": "c-1", "generation_id": "g-1", "model": "m", "cursor_version": "2.1.60",
        "workspace_roots": ["/home/dev/project"], "user_email": None}


def shell(cmd):
    return dict(BASE, hook_event_name="beforeShellExecution", command=cmd, cwd="/home/dev/project")


def fill(unit, budget=CAP - 4096):
    return unit * (budget // len(unit))


def events():
    rng = random.Random(12)
    words = ["token", "password", "key", "secret", "the", "a", "AKIA", "ghp_", "sk-", "private key", "://u:p@h", "eyJ"]
    prose = " ".join(rng.choice(words) for _ in range(CAP // 6))[: CAP - 4096]
    nested = "$(" * 20000 + "x" + ")" * 20000
    yield "shell: 4 M one-letter words (~8 MB)", shell(fill("a "))
    yield "shell: 1.3 M simple commands joined by ;", shell(fill("a;b;c "))
    yield "shell: 20,000 nested substitutions", shell(nested)
    yield "shell: 20,000 nested subshells", shell("(" * 20000 + "x" + ")" * 20000)
    yield "shell: one 8 MB word", shell(fill("a"))
    yield "prompt: 8 MB of secret keywords", dict(BASE, hook_event_name="beforeSubmitPrompt", prompt=prose, attachments=[])
    yield "read: 8 MB file of secret keywords", dict(BASE, hook_event_name="beforeReadFile", file_path="/home/dev/project/notes.txt",
                                                     content=prose, attachments=[])
    yield "read: 8 MB file of one line of base64", dict(BASE, hook_event_name="beforeReadFile", file_path="/home/dev/project/blob.txt",
                                                        content=fill("QUJD"), attachments=[])
    deep = "[" * 100000 + "]" * 100000
    yield "mcp: tool input nested 100,000 deep", dict(BASE, hook_event_name="beforeMCPExecution", mcp_server_name="x", tool_name="run",
                                                      tool_input=deep, command="npx x")
    wide = json.dumps({"k%d" % i: "v %d token" % i for i in range(250000)})
    yield "mcp: tool input with 250,000 keys", dict(BASE, hook_event_name="beforeMCPExecution", mcp_server_name="x", tool_name="run",
                                                    tool_input=wide, command="npx x")
    # Just under the limits: every value analyzed, the line parsed.
    for what, server, tool, value in [("URL", "fetch", "fetch", "https://example.com/a/%d?x=1"),
                                      ("SQL", "postgres", "query", "select id, name from users where id = %d"),
                                      ("command", "shell", "run_command", "cd src%d && ls -la | grep main | sort | head -5")]:
        vals = json.dumps({"v%d" % i: value % i for i in range(4990)})
        yield "mcp: 4,990 %s values" % what, dict(BASE, hook_event_name="beforeMCPExecution", mcp_server_name=server, tool_name=tool,
                                                 tool_input=vals, command="npx x")
    one = (1 << 20) - 4096  # rules.MaxMCPInputBytes, less the JSON around the value
    for what, server, tool, doc in [("command", "shell", "run_command", {"command": "echo " + "a " * (one // 2 - 10)}),
                                    ("SQL", "postgres", "query", {"sql": "select 1; " * (one // 11)}),
                                    ("file", "filesystem", "write_file", {"path": "/home/dev/project/out.txt", "content": "line of text\n" * (one // 14)})]:
        yield "mcp: a 1 MB %s value" % what, dict(BASE, hook_event_name="beforeMCPExecution", mcp_server_name=server, tool_name=tool,
                                                 tool_input=json.dumps(doc), command="npx x")
    subs = ("echo " + " ".join("$(echo a%d)" % i for i in range(20000)))[: (256 << 10) - 100]
    yield "shell: 256 KB of 20,000 substitutions", shell(subs)
    yield "shell: 256 KB pipeline of 18,000 stages", shell(" | ".join("grep -v w%d" % i for i in range(18000))[: (256 << 10) - 100])
    folding = "é中文ﬁ①" * (CAP // 40)
    yield "prompt: 6 MB of characters to fold", dict(BASE, hook_event_name="beforeSubmitPrompt", prompt=folding[: CAP // 4], attachments=[])
    minified = "var a=function(b){return b+1};" * (CAP // 32)
    yield "read: 8 MB minified script", dict(BASE, hook_event_name="beforeReadFile", file_path="/home/dev/project/dist/app.min.js",
                                            content=minified[: CAP - 4096], attachments=[])


def main():
    tmp = tempfile.mkdtemp(prefix="hg-limits-")
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    if binary is None:
        binary = os.path.join(tmp, "hookguard")
        subprocess.run(["go", "build", "-o", binary, "./cmd/hookguard"], check=True,
                       env=dict(os.environ, CGO_ENABLED="0"), cwd=os.path.join(os.path.dirname(__file__), "..", ".."))
    env = dict(os.environ, HOOKGUARD_JUDGE="off", HOOKGUARD_AUDIT="off", HOME=tmp, HOOKGUARD_STATE_DIR=os.path.join(tmp, "state"))
    print("%-42s %8s %10s %9s  %s" % ("input", "bytes", "median ms", "peak MB", "answer"))
    for name, ev in events():
        path = os.path.join(tmp, "event.json")
        with open(path, "w") as f:
            json.dump(ev, f)
        size = os.path.getsize(path)
        # Peak memory of one child: run each through a fresh wrapper so
        # RUSAGE_CHILDREN's maximum is this call's. The median of RUNS
        # calls, the machine being shared and noisy.
        walls, peaks, answer = [], [], ""
        for _ in range(RUNS):
            r = subprocess.run([sys.executable, "-c", CHILD, binary, path], env=env, capture_output=True, text=True)
            out = r.stdout.strip().splitlines()
            try:
                walls.append(float(out[-2]))
                peaks.append(int(out[-1]))
            except (IndexError, ValueError):
                walls.append(-1)
                peaks.append(-1)
            answer = " ".join(out[:-2])[:90]
        wall, peak_kb = statistics.median(walls), max(peaks)
        print("%-42s %8d %10.0f %9.1f  %s" % (name, size, wall, peak_kb / 1024, answer))


# The wrapper: runs the hook once with stdin from the event file, prints its
# answer, its wall time in ms and its peak resident set in KiB.
CHILD = r"""
import resource, subprocess, sys, time
with open(sys.argv[2], "rb") as f:
    t0 = time.perf_counter()
    r = subprocess.run([sys.argv[1], "hook", "--dialect", "cursor"], stdin=f, capture_output=True)
    wall = (time.perf_counter() - t0) * 1000
print(r.stdout.decode(errors="replace").strip().replace("\n", " "))
print("%.1f" % wall)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""

if __name__ == "__main__":
    main()
