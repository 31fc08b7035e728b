#!/usr/bin/env bash
# Build, test and demonstrate ExchStorageTest on Linux and macOS with the .NET SDK (and Node.js for the
# syntax QA). PowerShell 7 comes from NuGet as the local .NET tool of .config/dotnet-tools.json (dotnet
# tool restore; run as `dotnet pwsh`), Pester 5 from NuGet through .config/pester.csproj. build.ps1 runs
# the same tasks the same way on Windows.
#
#   Build  the engine, the cmdlets (bin/ExchStorageTest.dll), the help compiled from docs/ (en-US/),
#          and the native helper published into bin/<rid>/ with JetstressCmd beside it (plus win-x64 where the
#          NuGet source has it; docs/jetstress.md)
#   Test   Build, then the engine's and the help compiler's xUnit suites, the module's Pester suites in
#          real pwsh (tests/Invoke-ModuleTests.ps1) and the 5.1 syntax QA of the PowerShell files; ends
#          with "N passed, N failed" over all suites
#   Demo   Build, then the README's pipeline (New-MailboxProfile | Invoke-StorageTest | Get-TestReport) on
#          a built-in profile for 30 s in a temporary folder, in pwsh (tools/Demo.ps1; a folder may be given)
#   Bench  our engine against fio (defaults and fixedbufs+registerfiles) on the virtio disk and a
#          RAM-backed device, database creation against fio's 1 MiB writes, two databases on two
#          devices against one, the Exchange mix on 1, 2 ... RAM-backed volumes, and the regression
#          check (arguments pass through; exit 1 on a miss); `Bench exchange` the Exchange part alone
set -uo pipefail
cd "$(dirname "$0")"
root=$(pwd)
task=${1:-Build}
shift || true

rid=linux-x64
case "$(uname -s)-$(uname -m)" in
  Darwin-arm64) rid=osx-arm64 ;; Darwin-*) rid=osx-x64 ;; *-aarch64) rid=linux-arm64 ;;
esac

build() {
  # One solution build: the engine, the cmdlets (copied to bin/) and the help compiler, which runs
  # as part of its own build and writes en-US/ExchStorageTest.dll-Help.xml and the about topic.
  echo "==> Building the engine, the cmdlets and the help (Release)"
  dotnet build native/ExchStorageTest.sln -c Release --nologo -v quiet || return 1
  echo "==> Publishing the native helper for $rid -> bin/$rid"
  dotnet publish native/src/ExchStorageTest.Host/ExchStorageTest.Host.csproj -c Release -r "$rid" --self-contained -o "bin/$rid" --nologo -v quiet || return 1
  if [ "$rid" != win-x64 ]; then
    dotnet publish native/src/ExchStorageTest.Host/ExchStorageTest.Host.csproj -c Release -r win-x64 --self-contained -o bin/win-x64 --nologo -v quiet \
      || echo "WARNING: win-x64 helper not published (runtime packs missing from the NuGet source)" >&2
  fi
}

# pwsh: the local tool of .config/dotnet-tools.json, from the NuGet feed.
restore_pwsh() {
  echo "==> Restoring PowerShell (dotnet tool restore: .config/dotnet-tools.json)"
  dotnet tool restore >/dev/null || { echo "dotnet tool restore failed: PowerShell is not in the NuGet source" >&2; return 1; }
}

passed=0; failed=0; skipped=""
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

# The module's Pester suites in real pwsh: the runner prints Pester's counts as its last line,
# "Pester: N passed, N failed, N skipped" (every skip listed above it with its reason).
pester() {
  echo "==> Pester: the module in real pwsh (tests/Invoke-ModuleTests.ps1)"
  local log="$root/out/test-results/pester.log" line
  mkdir -p "$root/out/test-results"
  dotnet pwsh -NoProfile -NonInteractive -File tests/Invoke-ModuleTests.ps1 2>&1 | tee "$log"
  line=$(grep -E '^Pester: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -z "$line" ]; then count 0 1 "Pester (no summary)"; return; fi
  count "$(cut -d' ' -f2 <<<"$line")" "$(cut -d' ' -f4 <<<"$line")" "Pester"
}

# Windows PowerShell 5.1 syntax of the PowerShell files (the DSC root module, the manifest, build.ps1,
# tools/, the Pester suites): parsed with tree-sitter, since pwsh 7 accepts syntax 5.1 does not.
syntax_qa() {
  local qa=tests/QA/syntax
  [ -f "$qa/check.js" ] || return 0
  if ! command -v node >/dev/null; then skipped="$skipped syntax-QA(node-not-installed)"; return; fi
  npm ci --prefix "$qa" --no-audit --no-fund --silent >/dev/null 2>&1 || { count 0 1 "Syntax QA (npm ci failed)"; return; }
  echo "==> Windows PowerShell 5.1 syntax QA (tree-sitter parser)"
  local out line
  out=$(node "$qa/check.js" "$root" 2>&1); echo "$out" | grep -v '^PASS '
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -n 1)
  if [ -z "$line" ]; then count 0 1 "Syntax QA (no summary)"; return; fi
  count "$(cut -d' ' -f1 <<<"$line")" "$(cut -d' ' -f3 <<<"$line")" "Syntax QA"
}

case "$task" in
  Build) build ;;
  Test)
    build || { echo "0 passed, 1 failed"; exit 1; }
    rm -rf "$root/out/test-results"
    xunit native/tests/ExchStorageTest.Engine.Tests/ExchStorageTest.Engine.Tests.csproj engine
    xunit tools/ExchStorageTest.HelpCompiler.Tests/ExchStorageTest.HelpCompiler.Tests.csproj help-compiler
    if restore_pwsh; then pester; else count 0 1 "Pester (no pwsh)"; fi
    syntax_qa
    echo
    [ -z "$skipped" ] || echo "NOTE: not run for lack of a tool:$skipped"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] || exit 1
    ;;
  Demo)
    build || exit 1
    restore_pwsh || exit 1
    exec dotnet pwsh -NoProfile -File tools/Demo.ps1 "$@"
    ;;
  Bench)
    # Our engine against fio, creation, the Exchange mix on 1, 2 ... RAM-backed volumes, and the regression
    # check (docs/benchmarks.md); arguments pass through: seconds, repeats, scenario|all, pin|nopin, plain|-,
    # creation MiB (default 5 5 all pin - 1024). `Bench exchange [counts|max] [sessionsPerDatabase] [seconds]
    # [warmupSeconds] [repeats] [databaseMiB]` runs the Exchange scaling part alone, up to the CPU count by
    # default. The Exchange part runs the published helper, so the build comes first.
    build || exit 1
    if [ "${1:-}" = exchange ]; then
      shift
      exec dotnet run -c Release --project native/benchmarks/ExchStorageTest.Benchmarks -- exchange-scaling "$@"
    fi
    exec dotnet run -c Release --project native/benchmarks/ExchStorageTest.Benchmarks -- bench "$@"
    ;;
  *) echo "Unknown task '$task': Build, Test, Demo or Bench (build.ps1 on Windows also has Bootstrap, Analyze, Docs, Package)." >&2; exit 2 ;;
esac
