#!/usr/bin/env bash
# Builds the reactive-core benchmark in release and runs it; arguments go to reactivebench
# (e.g. ./run.sh --events 1000000 --runs 3 --only chain). See README.md.
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release >&2
exec .build/release/reactivebench "$@"
