#!/bin/sh
# Whole-process timings of `hookguard hook` with the model judge, against a
# local OpenAI-compatible test server: cache hit, breaker-open fallback, and
# the judge's overhead on top of the model's latency.
#   internal/bench/judge.sh [-n 30] [-latency 200ms]
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/hookguard" ./cmd/hookguard
go run ./internal/bench/judgebench -bin "$tmp/hookguard" "$@"
