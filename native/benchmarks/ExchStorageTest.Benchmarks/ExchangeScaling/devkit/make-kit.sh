#!/bin/bash
# Builds the bare-machine kit for the Exchange scaling bench (issue 34): the helper and the bench, both published
# self-contained for linux-x64 into one folder (they share one copy of the .NET 8 runtime: the same runtime pack),
# under a fake repository root (ExchStorageTest.psd1 marks it: the bench finds the helper and writes out/bench there),
# packed as kit.tar.xz beside run.sh. Usage: native/benchmarks/.../devkit/make-kit.sh [destination folder, default out/devkit]
set -eu
repo="$(cd "$(dirname "$0")/../../../../.." && pwd)"
dest="${1:-$repo/out/devkit}"
stage="$(mktemp -d)"; trap 'rm -rf "$stage"' EXIT
bin="$stage/root/bin/linux-x64"
dotnet publish "$repo/native/src/ExchStorageTest.Host/ExchStorageTest.Host.csproj" -c Release -r linux-x64 --self-contained -o "$bin" --nologo -v quiet
dotnet publish "$repo/native/benchmarks/ExchStorageTest.Benchmarks" -c Release -r linux-x64 --self-contained -o "$stage/bench" --nologo -v quiet
cp -rn "$stage/bench/." "$bin/"
rm -f "$bin"/*.pdb "$bin"/*.xml
touch "$stage/root/ExchStorageTest.psd1"
mkdir -p "$dest"
tar -C "$stage" -cf - root | xz -T0 -6 > "$dest/kit.tar.xz"
cp "$(dirname "$0")/run.sh" "$dest/run.sh"
du -sh "$dest"/*
