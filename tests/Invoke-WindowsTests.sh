#!/usr/bin/env bash
# The module's Pester suites in Windows PowerShell 7 under Wine, against the win-x64 engine (docs/windows.md):
# tests/Windows and tests/Module, through tests/Invoke-ModuleTests.ps1, in the test host of tests/WindowsHost
# (pwsh.exe, published to out/windows-host by build.sh Test). Every test that needs what Wine lacks skips with its
# reason through the Needs: prerequisites of tests/Support/TestSupport.psm1.
#
#   tests/Invoke-WindowsTests.sh [time limit in seconds] [test file or folder ...]
#
# Prints the runner's output, then its own last line "Pester (Windows under Wine): N passed, N failed, N skipped".
# Exit code 0 all passed, 1 a failure, 2 not run (the reason on the line before: no wine64, no host, no engine).
# The whole run is under a hard time limit (default 40 minutes): under Wine a failure often shows up as a hang, and a
# hang must end as a failure. The Wine prefix is made for the run under /var/tmp and removed with its wineserver.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
limit=${1:-2400}
shift || true
wine=/usr/lib/wine/wine64
# wine64's own wineserver (Debian's /usr/bin/wineserver is a link only the wine package makes).
wineserver=/usr/lib/wine/wineserver64
host="$root/out/windows-host/pwsh.exe"
summary="Pester (Windows under Wine)"

not_run() { echo "$summary: not run: $1"; exit 2; }
[ -x "$wine" ] || not_run "$wine is not installed (apt-get install wine64; .ci/run installs it)"
[ -f "$host" ] || not_run "$host is not published (build.sh Test publishes tests/WindowsHost)"
[ -f "$root/bin/win-x64/exchstoragetest-engine.exe" ] || not_run "bin/win-x64 has no engine (build.sh Build publishes it)"

# Pester from the NuGet packages folder, where the Linux run's restore of .config/pester.csproj put it: the runner
# inside Wine cannot call the Linux dotnet to restore it.
version=$(sed -n 's/.*PackageDownload Include="Pester" Version="\[\([^]]*\)\]".*/\1/p' .config/pester.csproj)
dotnet restore .config/pester.csproj --nologo -v quiet >/dev/null || not_run "dotnet restore .config/pester.csproj failed (Pester $version is not in the NuGet source)"
packages=$(dotnet nuget locals global-packages --list | sed 's/^global-packages:[[:space:]]*//')
pester="${packages%/}/pester/$version/tools/Pester.psd1"
[ -f "$pester" ] || not_run "Pester $version was restored, but $pester is missing"

# Wine's Z: drive is the Linux root: a Linux path as Windows sees it.
winpath() { printf 'Z:%s' "${1//\//\\}"; }

paths=()
if [ $# -gt 0 ]; then
  for p in "$@"; do paths+=("$(winpath "$(realpath "$p")")"); done
else
  paths=("$(winpath "$root/tests/Windows")" "$(winpath "$root/tests/Module")")
fi
joined=$(IFS=,; echo "${paths[*]}")

export WINEPREFIX
WINEPREFIX=$(mktemp -d /var/tmp/exst-wine-pester-XXXXXX)
export WINEDEBUG=-all
# No Gecko/Mono installers at prefix creation (mshtml), and never mscoree= : that kills .NET itself.
export WINEDLLOVERRIDES="mshtml="
# .NET's W^X double mapping of JIT code breaks under Wine 8: the finalizer of a collected DynamicMethod (PowerShell
# compiles many) dies with "Internal CLR error (0x80131506)" in DynamicResolver+DestroyScout.Finalize. Without W^X
# the JIT writes its code in place, as .NET 6 did. The engines the tests start inherit it.
export DOTNET_EnableWriteXorExecute=0
# Plain text: the console under `script` is a terminal, but the log is a file.
export NO_COLOR=1
cleanup() {
  "$wineserver" -k >/dev/null 2>&1
  rm -rf "$WINEPREFIX"
}
trap cleanup EXIT

clock=$SECONDS
"$wine" wineboot --init >/dev/null 2>&1
"$wineserver" -w >/dev/null 2>&1 || true
echo "Wine prefix $WINEPREFIX ready in $((SECONDS - clock)) s."

# The console host needs a console, which Wine gives only to a process with a terminal: `script` lends one. Its CRs
# and the console's cursor sequences are taken out of the log.
mkdir -p "$root/out/test-results"
raw="$root/out/test-results/pester-windows.raw"
command=$(printf '%q ' "$wine" "$host" -NoProfile -NonInteractive -File "$(winpath "$root/tests/Invoke-ModuleTests.ps1")" \
  -Path "$joined" -PesterPath "$(winpath "$pester")" -ResultName pester-windows)
# A wide terminal, so the log's lines are not wrapped at 80 columns.
timeout -k 30 "$limit" script -qfec "stty cols 400 rows 50 2>/dev/null; exec $command" /dev/null >"$raw" 2>&1
code=$?
# Wine's own notes on the volumes it cannot open are not the tests' output.
sed -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b\][^\x07]*\x07//g' "$raw" | grep -v '^wine: Read access denied for device' 
line=$(sed -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' "$raw" | grep -E '^Pester: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' | tail -n 1)
echo
echo "Wall time under Wine: $((SECONDS - clock)) s (limit $limit s)."
if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then
  passed=$(cut -d' ' -f2 <<<"${line:-Pester: 0 passed}")
  echo "$summary: ${passed:-0} passed, 1 failed, 0 skipped (the run did not finish within $limit s: a hang)"
  exit 1
fi
if [ -z "$line" ]; then
  echo "$summary: 0 passed, 1 failed, 0 skipped (no summary from the runner, exit code $code)"
  exit 1
fi
echo "$summary:${line#Pester:}"
[ "$code" -eq 0 ] || exit 1
