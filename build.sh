#!/usr/bin/env bash
# POSIX entry point to build.ps1 for Linux and macOS.
#
# Restores the pinned PowerShell tool (.config/dotnet-tools.json) and hands every task to build.ps1.
# When the configured NuGet source cannot serve PowerShell, it says so plainly and runs what can run
# without it: the engine build, the xUnit suites and the parser-based PowerShell syntax QA for Test;
# the demo through the native helper for Demo. The Pester suites then did NOT run, and the summary
# line says how many suites were skipped for that reason.
set -uo pipefail
cd "$(dirname "$0")"
root=$(pwd)
task=${1:-Build}
shift || true

if dotnet tool restore >/tmp/est-tool-restore.log 2>&1 && dotnet pwsh -NoLogo -NoProfile -Command 'exit 0' >/dev/null 2>&1; then
  exec dotnet pwsh -NoLogo -NoProfile -NonInteractive -File "$root/build.ps1" "$task" "$@"
fi

echo "NOTE: PowerShell could not be restored from the configured NuGet sources:" >&2
sed 's/^/  /' /tmp/est-tool-restore.log | tail -n 3 >&2
echo "NOTE: running the $task task without PowerShell; the Pester suites and the module commands cannot run here." >&2

rid=linux-x64
case "$(uname -s)-$(uname -m)" in
  Darwin-arm64) rid=osx-arm64 ;; Darwin-*) rid=osx-x64 ;; *-aarch64) rid=linux-arm64 ;;
esac

build() {
  echo "==> Building the engine (Release)"
  dotnet build native/ExchStorageTest.sln -c Release --nologo -v quiet || return 1
  echo "==> Publishing the native helper for $rid -> bin/$rid"
  dotnet publish native/src/ExchStorageTest.Host/ExchStorageTest.Host.csproj -c Release -r "$rid" --self-contained -o "bin/$rid" --nologo -v quiet || return 1
  if [ "$rid" != win-x64 ]; then
    dotnet publish native/src/ExchStorageTest.Host/ExchStorageTest.Host.csproj -c Release -r win-x64 --self-contained -o bin/win-x64 --nologo -v quiet \
      || echo "WARNING: win-x64 helper not published (runtime packs missing from the NuGet source)" >&2
  fi
}

passed=0; failed=0; skipped_suites=0
count() { passed=$((passed + $1)); failed=$((failed + $2)); echo "$3: $1 passed, $2 failed"; }

# One xUnit project as one suite of the summary: xunit <project> <name>.
xunit() {
  local project=$1 name=$2
  echo "==> xUnit: $name"
  local results="$root/out/test-results"
  mkdir -p "$results"; rm -f "$results/$name.trx"
  dotnet test "$project" -c Release --nologo --no-build \
    --logger "trx;LogFileName=$name.trx" --logger "console;verbosity=normal" --results-directory "$results"
  local code=$?
  local trx="$results/$name.trx"
  if [ ! -f "$trx" ]; then count 0 1 "xUnit $name (no results file)"; return; fi
  local counters p f
  counters=$(grep -o '<Counters [^>]*>' "$trx")
  p=$(sed -n 's/.* passed="\([0-9]*\)".*/\1/p' <<<"$counters")
  f=0
  for k in failed error timeout aborted; do
    v=$(sed -n "s/.* $k=\"\([0-9]*\)\".*/\1/p" <<<"$counters"); f=$((f + ${v:-0}))
  done
  if [ "$code" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  count "${p:-0}" "$f" "xUnit $name"
}

syntax_qa() {
  local qa=tests/QA/syntax
  [ -f "$qa/check.js" ] || return 0
  if ! command -v node >/dev/null; then echo "WARNING: node not installed: syntax QA skipped" >&2; skipped_suites=$((skipped_suites + 1)); return; fi
  npm ci --prefix "$qa" --no-audit --no-fund --silent >/dev/null 2>&1 || { count 0 1 "Syntax QA (npm ci failed)"; return; }
  local script out line
  for script in check.js module-qa.js; do
    echo "==> PowerShell QA without PowerShell: $script (tree-sitter parser)"
    out=$(node "$qa/$script" "$root" 2>&1); echo "$out" | grep -v '^PASS '
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -n 1)
    if [ -z "$line" ]; then count 0 1 "$script (no summary)"; continue; fi
    count "$(cut -d' ' -f1 <<<"$line")" "$(cut -d' ' -f3 <<<"$line")" "$script"
  done
}

case "$task" in
  Build) build ;;
  Test)
    build || { echo "0 passed, 1 failed"; exit 1; }
    rm -rf "$root/out/test-results"
    xunit native/tests/ExchStorageTest.Engine.Tests/ExchStorageTest.Engine.Tests.csproj engine
    xunit native/tests/ExchStorageTest.PowerShell.Tests/ExchStorageTest.PowerShell.Tests.csproj powershell
    syntax_qa
    skipped_suites=$((skipped_suites + 1))   # Pester: needs PowerShell
    echo
    echo "NOTE: $skipped_suites suite(s) not run for lack of a tool (Pester needs PowerShell)."
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] || exit 1
    ;;
  Demo)
    build || exit 1
    tmp=/var/tmp; [ -d "$tmp" ] || tmp=${TMPDIR:-/tmp}
    folder=${1:-$tmp/ExchStorageTest-demo-$(date +%Y%m%d-%H%M%S)}
    mkdir -p "$folder"
    echo "==> Demo through the native helper: built-in profile (100 mailboxes x 0.5 IOPS, 10 MB, 2 databases, 30 s) in $folder"
    "bin/$rid/exchstoragetest-engine" demo "$folder" > "$folder/events.jsonl"
    code=$?
    grep -E '"type":"(error)"' "$folder/events.jsonl" >&2
    report=$(ls -t "$folder"/Results/*.txt 2>/dev/null | grep -v '\.esrp\.txt$' | head -n 1)
    if [ -n "$report" ]; then cat "$report"; echo; echo "Reports: $(dirname "$report")"; ls "$(dirname "$report")"; fi
    exit "$code"
    ;;
  Bench)
    # Our engine against fio on the same file (docs/benchmarks.md); arguments pass through.
    [ "$#" -gt 0 ] || set -- /var/tmp/est-bench 15 60 3
    exec dotnet run -c Release --project native/benchmarks/ExchStorageTest.Benchmarks -- compare-fio "$@"
    ;;
  *) echo "The $task task needs PowerShell (pwsh): run ./build.ps1 $task where PowerShell is installed." >&2; exit 2 ;;
esac
