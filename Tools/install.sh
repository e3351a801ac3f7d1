#!/usr/bin/env bash
# Builds streamd and streamctl in release and installs them with their man pages, shell completions
# (bash, zsh, fish) and systemd units. Run from anywhere; see --help.
set -euo pipefail
# A command that fails without saying why still leaves a sentence (set -e stops at it).
trap 'status=$?; echo "install.sh: stopped at line $LINENO, whose command failed with status $status: $BASH_COMMAND. Nothing after it was installed; fix that and run it again." >&2' ERR

usage() {
  cat <<'USAGE'
Usage: Tools/install.sh [--prefix DIR] [--destdir DIR] [--from DIR]

Builds streamd and streamctl in release (swift build -c release) and installs:
  PREFIX/bin/streamd, PREFIX/bin/streamctl
  PREFIX/share/man/man1/streamd.1, streamctl.1 (one page each, every verb in it; swift-argument-parser's
      generate-manual plugin)
  PREFIX/share/bash-completion/completions/{streamd,streamctl}
  PREFIX/share/zsh/site-functions/{_streamd,_streamctl}
  PREFIX/share/fish/vendor_completions.d/{streamd,streamctl}.fish
  PREFIX/lib/systemd/system/streamd.{service,socket}   (ExecStart names PREFIX/bin/streamd)
  PREFIX/lib/systemd/user/streamd.{service,socket}
  PREFIX/lib/sysusers.d/streamd.conf                   (the system service's user "streamd")

Options:
  --prefix DIR    where the files go on the running system (default /usr/local)
  --destdir DIR   stage the files under DIR instead (DIR/PREFIX/...), as packagers do;
                  the installed files still name PREFIX (default: $DESTDIR, else none)
  --from DIR      do not build: install the streamd and streamctl already built in DIR
                  (e.g. .build/release or .build/debug); their man pages are made by the
                  plugin's generate-manual tool, found under .build or built once
  -h, --help      show this help
USAGE
}

prefix=/usr/local
destdir=${DESTDIR:-}
from=
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --destdir) destdir=${2:?--destdir needs a directory}; shift 2 ;;
    --destdir=*) destdir=${1#*=}; shift ;;
    --from) from=${2:?--from needs a directory}; shift 2 ;;
    --from=*) from=${1#*=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument \"$1\"; see Tools/install.sh --help." >&2; exit 64 ;;
  esac
done
case $prefix in
  /*) ;;
  *) echo "install.sh: --prefix must be an absolute path (got \"$prefix\")." >&2; exit 64 ;;
esac

package=$(cd "$(dirname "$0")/.." && pwd)
cd "$package"
root=$destdir$prefix
products=(streamd streamctl)
work=$(mktemp -d "${TMPDIR:-/tmp}/streamd-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

say() { printf '%s\n' "$*"; }

# 1. The executables.
if [ -z "$from" ]; then
  say "Building in release (swift build -c release)..."
  swift build -c release
  bin=$(swift build -c release --show-bin-path)
else
  bin=$(cd "$from" && pwd)
fi
for product in "${products[@]}"; do
  [ -x "$bin/$product" ] || { echo "install.sh: $bin/$product is missing; build it first (swift build -c release) or pass --from the directory it is in." >&2; exit 1; }
done

# 2. Man pages, by swift-argument-parser's generate-manual plugin; with --from, by the plugin's tool
#    run on the binaries given (the plugin itself would build the whole package first).
manuals=$work/man
mkdir -p "$manuals"
find_tool() {
  find .build -type f \( -name generate-manual-tool -o -name generate-manual \) -perm -u+x 2>/dev/null | head -n 1
}
if [ -z "$from" ]; then
  say "Generating man pages (swift package plugin generate-manual)..."
  swift package plugin generate-manual --configuration release >/dev/null
  for product in "${products[@]}"; do cp ".build/plugins/GenerateManual/outputs/$product/$product.1" "$manuals/"; done
else
  tool=${STREAMD_GENERATE_MANUAL:-$(find_tool)}
  if [ -z "$tool" ]; then
    # Built once from swift-argument-parser's checkout in a build folder of its own: that takes no
    # lock on this package's .build, which `swift test` holds while the tests (this script's
    # among them) run, so running the plugin here would wait for the test run that waits for it.
    checkout=.build/checkouts/swift-argument-parser
    [ -d "$checkout" ] || { echo "install.sh: $checkout is missing; run swift build once to fetch the packages." >&2; exit 1; }
    say "Building the generate-manual tool (from $checkout)..."
    swift build --package-path "$checkout" --scratch-path .build/generate-manual --product generate-manual >/dev/null
    tool=$(find_tool)
    [ -n "$tool" ] || { echo "install.sh: the generate-manual tool was built but not found under .build/generate-manual." >&2; exit 1; }
  fi
  for product in "${products[@]}"; do
    "$tool" "$bin/$product" --output-directory "$manuals" >/dev/null
  done
fi

# 3. Shell completions, from the executables themselves.
completions=$work/completions
mkdir -p "$completions"
for product in "${products[@]}"; do
  for shell in bash zsh fish; do
    "$bin/$product" --generate-completion-script "$shell" > "$completions/$product.$shell"
  done
done

# 4. Install.
say "Installing into $root..."
install -d "$root/bin" "$root/share/man/man1" \
  "$root/share/bash-completion/completions" "$root/share/zsh/site-functions" \
  "$root/share/fish/vendor_completions.d" \
  "$root/lib/systemd/system" "$root/lib/systemd/user" "$root/lib/sysusers.d"
for product in "${products[@]}"; do
  install -m 755 "$bin/$product" "$root/bin/$product"
  install -m 644 "$completions/$product.bash" "$root/share/bash-completion/completions/$product"
  install -m 644 "$completions/$product.zsh" "$root/share/zsh/site-functions/_$product"
  install -m 644 "$completions/$product.fish" "$root/share/fish/vendor_completions.d/$product.fish"
done
install -m 644 "$manuals"/*.1 "$root/share/man/man1/"
for scope in system user; do
  sed "s|@BINDIR@|$prefix/bin|g" "packaging/systemd/$scope/streamd.service.in" > "$work/streamd.service"
  install -m 644 "$work/streamd.service" "$root/lib/systemd/$scope/streamd.service"
  install -m 644 "packaging/systemd/$scope/streamd.socket" "$root/lib/systemd/$scope/streamd.socket"
done
install -m 644 packaging/sysusers.d/streamd.conf "$root/lib/sysusers.d/streamd.conf"

say "Installed streamd and streamctl into $root."
if [ -z "$destdir" ]; then
  cat <<NEXT
Next:
  as a system service:  systemd-sysusers && systemctl daemon-reload && systemctl enable --now streamd.socket
                        (clients: export STREAMD_SOCKET=/run/streamd/streamd.sock)
  as a user service:    systemctl --user daemon-reload && systemctl --user enable --now streamd.socket
NEXT
fi
