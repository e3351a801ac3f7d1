#!/usr/bin/env bash
# Builds the reactive-core benchmark in release and runs it; arguments go to reactivebench
# (e.g. ./run.sh --events 1000000 --runs 3 --only chain). See README.md.
set -euo pipefail
cd "$(dirname "$0")"
# SwiftPM keeps the file list of a path dependency in its build plan; drop the plan so files added to
# the main package since the last build are seen (it is remade in a second, nothing is recompiled).
rm -f .build/*/release/description.json
swift build -c release >&2
exec .build/release/reactivebench "$@"
