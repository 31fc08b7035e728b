#!/usr/bin/env bash
# Build, test and demonstrate ExchStorageTest on Linux and macOS with the .NET SDK (and Node.js for the syntax QA).
# The tasks are build.ps1's (tools/Build.psm1), the one implementation for both entry points: this script only
# restores PowerShell 7, the local .NET tool of .config/dotnet-tools.json (dotnet tool restore), and runs
# build.ps1 in it (`dotnet pwsh`) with the same task and arguments:
#
#   ./build.sh [Build|Test|Package|Demo [folder]|Bench [arguments]|Bootstrap|Analyze|Docs]
#
# build.ps1's help (Get-Help ./build.ps1 -Detailed) says what each task does.
set -uo pipefail
cd "$(dirname "$0")"
task=${1:-Build}

# Test's last line is always its verdict, also when nothing could run.
fail() {
  echo "$1" >&2
  [ "$task" = Test ] && echo "0 passed, 1 failed"
  exit 1
}
command -v dotnet >/dev/null || fail "The .NET SDK is not installed (dotnet is not on PATH): https://dotnet.microsoft.com/download"
echo "==> Restoring PowerShell (dotnet tool restore: .config/dotnet-tools.json)"
dotnet tool restore >/dev/null || fail "dotnet tool restore failed: PowerShell is not in the NuGet source"
exec dotnet pwsh -NoProfile -File build.ps1 "$@"
