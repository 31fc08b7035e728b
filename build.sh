#!/usr/bin/env bash
# Build, test and demonstrate ExchStorageTest on Linux and macOS with the .NET SDK (and Node.js for the
# syntax QA). PowerShell 7 comes from NuGet as the local .NET tool of .config/dotnet-tools.json (dotnet
# tool restore; run as `dotnet pwsh`), Pester 5 from NuGet through .config/pester.csproj. build.ps1 runs
# the same tasks the same way on Windows.
#
#   Build  the engine, the cmdlets (bin/ExchStorageTest.dll), the help compiled from docs/ (en-US/),
#          and the native helper published into bin/<rid>/ with JetstressCmd beside it (plus win-x64 where the
#          NuGet source has it; docs/jetstress.md)
#   Test   Build and Package (the suites install the package and run the installed copy), then at the same time the xUnit suites (the engine; the module's C#,
#          tests/ExchStorageTest.Commands.Tests; the help compiler), the module's Pester suites in real pwsh
#          (tests/Invoke-ModuleTests.ps1, two processes) and in Windows PowerShell 7 under Wine against the
#          win-x64 helper (tests/Invoke-WindowsTests.sh; needs wine64); then the 5.1 syntax QA of the
#          PowerShell files; ends with "N passed, N failed" over all suites
#   Package  Build, then the module's package (tools/Package.ps1): out/package/ExchStorageTest/<version>/ as it installs,
#          and out/package/ExchStorageTest.<version>.nupkg for Publish-PSResource -NupkgPath (docs/install.md)
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

# The module's package from what Build made: one script for both build entry points (tools/Package.ps1).
package() {
  echo "==> Packaging the module (tools/Package.ps1)"
  dotnet pwsh -NoProfile -NonInteractive -File tools/Package.ps1
}

# The summary's last lines: each suite's counts and every failed test with the first line of its message, so that the end
# of the output, often all a CI shows, says what failed and why without the logs above it.
passed=0; failed=0; skipped=""; suites=(); failures=()
count() {
  passed=$((passed + $1)); failed=$((failed + $2)); echo "$3: $1 passed, $2 failed"
  suites+=("$3: $1 passed, $2 failed")
}
# An awk function for the summary's failed tests: the first line of a test's message, XML entities read, cut short.
reason_awk='
  function reason(m) {
    gsub(/&quot;/, "\"", m); gsub(/&apos;/, "\047", m); gsub(/&lt;/, "<", m); gsub(/&gt;/, ">", m); gsub(/&amp;/, "\\&", m)
    return length(m) > 300 ? substr(m, 1, 300) "..." : m
  }'
# failed_tests <suite label> <names, one a line>: kept for the summary.
failed_tests() {
  local label=$1 name
  while IFS= read -r name; do [ -z "$name" ] || failures+=("$label: $name"); done <<<"$2"
}

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
  # Each failed result's name and the first line of its message (<UnitTestResult ... testName outcome> <Message>).
  failed_tests "xUnit $name" "$(awk '
    /<UnitTestResult / {
      name = ""; if ($0 !~ /outcome="(Passed|NotExecuted)"/ && match($0, /testName="[^"]*"/)) name = reason(substr($0, RSTART + 10, RLENGTH - 11))
      if (name != "" && $0 ~ /\/>[ \t]*$/) { print name; name = "" }
    }
    /<Message>/ && name != "" { m = $0; sub(/.*<Message>/, "", m); sub(/<\/Message>.*/, "", m); print name " -- " reason(m); name = "" }
    /<\/UnitTestResult>/ && name != "" { print name; name = "" }
    '"$reason_awk" "$trx")"
}

# The module's Pester suites run while the xUnit suites run: in real pwsh on Linux against the Linux helper, in two
# processes split by file, and in Windows PowerShell 7 under Wine against the win-x64 helper
# (tests/Invoke-WindowsTests.sh, docs/windows.md). The Linux runs spend most of their time waiting on timed runs and
# remote hosts (30% of one CPU in a measured run), the xUnit rigs and Wine most of theirs on the CPU, so together they
# take little longer than the longest, the Wine run. Each writes its own log, printed whole when it ends; each runner
# prints its counts as its last line, "Pester[ (Windows under Wine)]: N passed, N failed, N skipped", every skip
# listed above it with its reason.
#
# The first Linux process takes these files, the second every other one: the SSH rig's hosts, the build scripts'
# demos and the scheduled runner, whose tests each start their own processes (about half the Linux run's time);
# the second keeps the files that share one set of finished runs (Get-FinishedRun) together.
pester_first_part="tests/Remoting,tests/Build,tests/Module/RunnerScript.Tests.ps1,tests/Module/Capacity.Tests.ps1,tests/Module/Calculator.Tests.ps1,tests/Module/DscResource.Tests.ps1"
pester_pids=()
pester_start() {
  local results="$root/out/test-results"
  mkdir -p "$results"
  # Pester once, before the runners read it (a restore of the same project from several would race).
  dotnet restore .config/pester.csproj --nologo -v quiet >/dev/null
  if windows_host; then
    echo "==> Pester (Windows under Wine): the module in Windows PowerShell 7 against bin/win-x64 (log: out/test-results/pester-windows.log)"
    # At a lower disk priority: the Linux runs' verdicts stand on real latencies, while the page cache serves every
    # I/O under Wine, whose verdicts mean nothing (docs/windows.md). Not at a lower CPU priority: it is the longest.
    ionice -c 2 -n 7 tests/Invoke-WindowsTests.sh "${WINE_PESTER_LIMIT:-2400}" >"$results/pester-windows.log" 2>&1 &
    pester_pids+=("$!:pester-windows:Pester (Windows under Wine):Pester (Windows under Wine)")
  fi
  echo "==> Pester: the module in real pwsh, two processes (tests/Invoke-ModuleTests.ps1; logs: out/test-results/pester-1.log, pester-2.log)"
  dotnet pwsh -NoProfile -NonInteractive -File tests/Invoke-ModuleTests.ps1 -Path "$pester_first_part" -ResultName pester-1 >"$results/pester-1.log" 2>&1 &
  pester_pids+=("$!:pester-1:Pester:Pester (part 1)")
  dotnet pwsh -NoProfile -NonInteractive -File tests/Invoke-ModuleTests.ps1 -ExcludePath "$pester_first_part" -ResultName pester-2 >"$results/pester-2.log" 2>&1 &
  pester_pids+=("$!:pester-2:Pester:Pester (part 2)")
}

# Waits for each Pester run pester_start began ("pid:log:runner's summary name:label"), in the order begun, and prints
# its log and its counts.
pester_finish() {
  local results="$root/out/test-results" entry pid log name label
  for entry in "${pester_pids[@]}"; do
    IFS=: read -r pid log name label <<<"$entry"
    wait "$pid"
    echo "==> $label: finished (log: out/test-results/$log.log)"
    cat "$results/$log.log"
    pester_count "$results/$log.log" "$name" "$label"
    # Pester marks a failed test "[-] name <time>" and gives the first line of its message on the next line.
    failed_tests "$label" "$(awk '
      /^ *\[-\] / { name = $0; sub(/^ *\[-\] /, "", name); sub(/ [0-9.]+m?s \(.*$/, "", name)
                     if ((getline m) > 0) { sub(/^ +/, "", m); print name " -- " reason(m) } else print name }
      '"$reason_awk" "$results/$log.log")"
  done
}

# Counts a runner's last "<name>: N passed, N failed" line (none: the runner itself failed) under its label; a runner
# that could not run ("<name>: not run: <reason>") joins the tools not run.
pester_count() {
  local log=$1 name=$2 label=${3:-$2} line
  line=$(awk -v p="$name: " 'index($0, p) == 1' "$log" | tail -n 1)
  line=${line#"$name: "}
  case "$line" in
    "not run: "*) skipped="$skipped $(tr ' ' '-' <<<"$label(${line#not run: })")" ;;
    [0-9]*" passed, "[0-9]*" failed"*) count "$(cut -d' ' -f1 <<<"$line")" "$(cut -d' ' -f3 <<<"$line")" "$label" ;;
    *) count 0 1 "$label (no summary)" ;;
  esac
}

# The Windows PowerShell test host (tests/WindowsHost) published to out/windows-host, where wine64 can run it;
# false, with the reason among the tools not run, where it cannot.
windows_host() {
  if [ ! -x /usr/lib/wine/wine64 ]; then skipped="$skipped Pester-under-Wine(wine64-not-installed)"; return 1; fi
  if [ ! -f bin/win-x64/exchstoragetest-engine.exe ]; then skipped="$skipped Pester-under-Wine(no-win-x64-helper)"; return 1; fi
  echo "==> Publishing the Windows PowerShell test host (tests/WindowsHost) -> out/windows-host"
  dotnet publish tests/WindowsHost/WindowsHost.csproj -c Release -o out/windows-host --nologo -v quiet \
    || { count 0 1 "Pester (Windows under Wine): the test host did not publish"; return 1; }
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
    if restore_pwsh; then
      package || count 0 1 "Package (tools/Package.ps1 failed: the suites' installed copy is missing)"
      pester_start
    else count 0 1 "Pester (no pwsh)"; fi
    xunit native/tests/ExchStorageTest.Engine.Tests/ExchStorageTest.Engine.Tests.csproj engine
    xunit tests/ExchStorageTest.Commands.Tests/ExchStorageTest.Commands.Tests.csproj module
    xunit tools/ExchStorageTest.HelpCompiler.Tests/ExchStorageTest.HelpCompiler.Tests.csproj help-compiler
    pester_finish
    syntax_qa
    echo
    echo "Suites:"; printf '  %s\n' "${suites[@]}"
    [ ${#failures[@]} -eq 0 ] || { echo "Failed tests:"; printf '  %s\n' "${failures[@]}"; }
    [ -z "$skipped" ] || echo "NOTE: not run for lack of a tool:$skipped"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] || exit 1
    ;;
  Package)
    build || exit 1
    restore_pwsh || exit 1
    package
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
  *) echo "Unknown task '$task': Build, Test, Package, Demo or Bench (build.ps1 on Windows also has Bootstrap, Analyze, Docs)." >&2; exit 2 ;;
esac
