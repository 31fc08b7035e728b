#!/bin/bash
# Builds the bare-machine kit for the Exchange scaling bench: the engine and the bench, both published
# self-contained for linux-x64 into one folder (they share one copy of the .NET 8 runtime: the same runtime pack),
# under a fake repository root (ExchStorageTest.psd1 marks it: the bench finds the engine and writes out/bench there),
# packed as kit.tar.xz beside run.sh. Usage: native/benchmarks/.../devkit/make-kit.sh [destination folder, default out/devkit]
# [baseline commit]: with a commit, that build's engine rides along as a baseline (only its own assemblies and
# apphost, root/baseline-overlay/: the runtime is the same pack), and run.sh makes every Exchange run with it too.
set -eu
repo="$(cd "$(dirname "$0")/../../../../.." && pwd)"
dest="${1:-$repo/out/devkit}"
stage="$(mktemp -d)"; trap 'rm -rf "$stage"' EXIT
bin="$stage/root/bin/linux-x64"
dotnet publish "$repo/native/src/ExchStorageTest.Engine.Cli/ExchStorageTest.Engine.Cli.csproj" -c Release -r linux-x64 --self-contained -o "$bin" --nologo -v quiet
dotnet publish "$repo/native/benchmarks/ExchStorageTest.Benchmarks" -c Release -r linux-x64 --self-contained -o "$stage/bench" --nologo -v quiet
cp -rn "$stage/bench/." "$bin/"
rm -f "$bin"/*.pdb "$bin"/*.xml
if [ -n "${2:-}" ]; then
  git -C "$repo" worktree add -q --detach "$stage/baseline-src" "$2"
  dotnet publish "$stage/baseline-src/native/src/ExchStorageTest.Engine.Cli/ExchStorageTest.Engine.Cli.csproj" -c Release -r linux-x64 --self-contained -o "$stage/baseline-bin" --nologo -v quiet
  git -C "$repo" worktree remove --force "$stage/baseline-src"
  mkdir -p "$stage/root/baseline-overlay"
  find "$stage/baseline-bin" -maxdepth 1 -iname '*exchstoragetest*' ! -name '*.pdb' ! -name '*.xml' -exec cp {} "$stage/root/baseline-overlay/" \;
  git -C "$repo" rev-parse "$2" > "$stage/root/baseline-overlay/COMMIT"
fi
touch "$stage/root/ExchStorageTest.psd1"
mkdir -p "$dest"
tar -C "$stage" -cf - root | xz -T0 -6 > "$dest/kit.tar.xz"
cp "$(dirname "$0")/run.sh" "$dest/run.sh"
du -sh "$dest"/*
