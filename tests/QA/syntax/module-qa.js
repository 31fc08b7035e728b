// Whole-module QA for machines without PowerShell (the Pester QA in tests/QA/Module.Tests.ps1
// checks the same with Get-Help where pwsh exists): exports equal src/Public file names, each
// public file defines its command, and every command's comment-based help has a synopsis, a
// description, at least one example and a .PARAMETER for every parameter — plus a docs/ page
// that documents each parameter. Parsed with the same tree-sitter grammar as check.js.
//
// Usage: node tests/QA/syntax/module-qa.js [repoRoot]; prints one line per check, then "N passed, N failed".

import { Parser, Language } from 'web-tree-sitter';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(process.argv[2] ?? path.join(here, '..', '..', '..'));
await Parser.init();
const parser = new Parser();
parser.setLanguage(await Language.load(path.join(here, 'node_modules', 'tree-sitter-powershell', 'tree-sitter-powershell.wasm')));

let passed = 0;
let failed = 0;
function check(name, problems) {
  if (problems.length === 0) { passed++; console.log(`PASS ${name}`); return; }
  failed++;
  console.log(`FAIL ${name}`);
  for (const p of problems) console.log(`     ${p}`);
}

// The manifest's FunctionsToExport, read as text: an explicit list, no wildcards.
const manifest = fs.readFileSync(path.join(repoRoot, 'ExchStorageTest.psd1'), 'utf8');
const exportsBlock = /FunctionsToExport\s*=\s*@\(([^)]*)\)/s.exec(manifest);
const exported = exportsBlock ? [...exportsBlock[1].matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2]).sort() : [];
const publicDir = path.join(repoRoot, 'src', 'Public');
const publicFiles = fs.readdirSync(publicDir).filter((f) => f.endsWith('.ps1')).map((f) => f.slice(0, -4)).sort();
check('manifest exports equal src/Public', [
  ...(exportsBlock ? [] : ['FunctionsToExport is not an explicit @(...) list']),
  ...exported.filter((e) => e.includes('*')).map((e) => `wildcard export '${e}'`),
  ...publicFiles.filter((f) => !exported.includes(f)).map((f) => `${f} is in src/Public but not exported`),
  ...exported.filter((e) => !publicFiles.includes(e)).map((e) => `${e} is exported but has no src/Public file`),
]);
for (const key of ['CmdletsToExport', 'VariablesToExport', 'AliasesToExport']) {
  check(`manifest ${key} is explicit`, /\*/.test((new RegExp(`${key}\\s*=\\s*([^\\n]*)`).exec(manifest) ?? ['', ''])[1]) ? [`${key} uses a wildcard`] : []);
}
for (const listed of [...manifest.matchAll(/'(src[\\/][^']+\.ps1xml)'/g)].map((m) => m[1])) {
  const file = path.join(repoRoot, listed.replace(/\\/g, '/'));
  check(`manifest lists ${listed}`, fs.existsSync(file) ? [] : [`${listed} does not exist`]);
}

function helpSections(comment) {
  const sections = {};
  let current = null;
  for (const line of comment.split(/\r?\n/)) {
    const m = /^\s*\.([A-Z]+)\s*(\S*)\s*$/.exec(line);
    if (m) { current = m[1] + (m[2] ? ' ' + m[2].toLowerCase() : ''); sections[current] = ''; continue; }
    if (current) sections[current] += line.trim() + '\n';
  }
  return sections;
}

for (const command of publicFiles) {
  const source = fs.readFileSync(path.join(publicDir, `${command}.ps1`), 'utf8').replace(/^\uFEFF/, '');
  const tree = parser.parse(source);
  const fn = tree.rootNode.descendantsOfType('function_statement').find((f) => f.childForFieldName?.('name')?.text === command
    || f.children.some((c) => c.type === 'function_name' && c.text === command));
  const problems = [];
  if (!fn) {
    problems.push(`src/Public/${command}.ps1 does not define function ${command}`);
    check(`help ${command}`, problems);
    tree.delete();
    continue;
  }
  const params = fn.descendantsOfType('param_block')[0]?.descendantsOfType('script_parameter')
    .map((p) => p.children.filter((c) => c.type === 'variable').map((c) => c.text.slice(1))[0])
    .filter(Boolean) ?? [];
  const comment = fn.descendantsOfType('comment').map((c) => c.text).find((t) => t.startsWith('<#')) ?? '';
  const help = helpSections(comment);
  if (!(help.SYNOPSIS ?? '').trim()) problems.push('no .SYNOPSIS');
  if (!(help.DESCRIPTION ?? '').trim()) problems.push('no .DESCRIPTION');
  if (!Object.keys(help).some((k) => k.startsWith('EXAMPLE'))) problems.push('no .EXAMPLE');
  for (const p of params) {
    if (!(help[`PARAMETER ${p.toLowerCase()}`] ?? '').trim()) problems.push(`parameter -${p} has no .PARAMETER help`);
  }
  const doc = path.join(repoRoot, 'docs', `${command}.md`);
  if (!fs.existsSync(doc)) problems.push(`docs/${command}.md is missing`);
  else {
    const md = fs.readFileSync(doc, 'utf8');
    for (const section of ['## SYNOPSIS', '## SYNTAX', '## DESCRIPTION', '## EXAMPLES', '## PARAMETERS']) {
      if (!md.includes(section)) problems.push(`docs/${command}.md has no '${section}'`);
    }
    for (const p of params) if (!new RegExp(`^### -${p}\\b`, 'm').test(md)) problems.push(`docs/${command}.md does not document -${p}`);
  }
  check(`help ${command} (${params.length} parameters)`, problems);
  tree.delete();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
