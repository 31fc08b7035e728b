// Syntax gate for machines without PowerShell: parses every .ps1/.psm1/.psd1 under src/ and
// tests/ (plus the root manifest) with tree-sitter-powershell and fails on parse errors and on
// syntax that only PowerShell 7 understands. The module must load unchanged in Windows
// PowerShell 5.1 (the Exchange Management Shell), so 7-only syntax is a defect, not a style.
//
// The grammar is not PowerShell's own parser: it can reject valid code (then rewrite the code
// plainly, which 5.1 readers appreciate anyway) and it cannot see everything the real parser
// sees. tests/QA/Module.Tests.ps1 repeats the 7-only checks with the real AST where pwsh exists.
//
// Usage: node tests/QA/syntax/check.js [repoRoot]
// Prints one line per file and a final "N passed, N failed" line; exit code 1 on any failure.

import { Parser, Language } from 'web-tree-sitter';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(process.argv[2] ?? path.join(here, '..', '..', '..'));
const wasmPath = path.join(here, 'node_modules', 'tree-sitter-powershell', 'tree-sitter-powershell.wasm');

function collect(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    // Build outputs are not ours: tests/WindowsHost's bin/ holds the PowerShell SDK's own modules.
    if (entry.name === 'node_modules' || entry.name === 'bin' || entry.name === 'obj' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collect(full, out);
    else if (/\.(ps1|psm1|psd1)$/i.test(entry.name)) out.push(full);
  }
  return out;
}

function lineOf(node) {
  return `${node.startPosition.row + 1}:${node.startPosition.column + 1}`;
}

// The grammar has no rule for ?:, ??, ??= or ?. (they arrived in PowerShell 7), so they surface
// as ERROR nodes; name them so the message says what to rewrite.
function describeError(text) {
  if (/\?\?=/.test(text)) return "'??=' is PowerShell 7 only";
  if (/\?\?/.test(text)) return "'??' is PowerShell 7 only";
  if (/\?\./.test(text) || /\?\[/.test(text)) return "null-conditional '?.'/'?[]' is PowerShell 7 only";
  if (/\?/.test(text)) return "'?' here looks like a ternary (PowerShell 7 only)";
  if (/\bclean\s*\{/i.test(text)) return "'clean {}' blocks are PowerShell 7.3+ only";
  return 'parse error';
}

function problemsIn(tree, source) {
  const problems = [];
  const walk = (node) => {
    if (node.isMissing) {
      problems.push(`${lineOf(node)} missing ${node.type}`);
    } else if (node.type === 'ERROR') {
      const text = source.slice(node.startIndex, node.endIndex);
      // a character either side lets '?.' and '??=' be told apart from a lone '?'
      const context = source.slice(Math.max(0, node.startIndex - 1), node.endIndex + 2);
      problems.push(`${lineOf(node)} ${describeError(context)}: ${JSON.stringify(text.slice(0, 60))}`);
      return; // children of an ERROR node only repeat it
    } else if (node.type === 'pipeline_chain_tail') {
      problems.push(`${lineOf(node)} '&&'/'||' pipeline chains are PowerShell 7 only`);
    } else if (node.type === 'command_parameter' && /^-parallel$/i.test(source.slice(node.startIndex, node.endIndex))) {
      problems.push(`${lineOf(node)} 'ForEach-Object -Parallel' is PowerShell 7 only`);
    } else if (node.type === 'command_name' && /^(Join-String|Start-ThreadJob|ConvertFrom-Markdown|Get-Error)$/i.test(source.slice(node.startIndex, node.endIndex))) {
      problems.push(`${lineOf(node)} '${source.slice(node.startIndex, node.endIndex)}' is not in Windows PowerShell 5.1`);
    } else if (node.type === 'command_parameter' && /^-AsHashtable$/i.test(source.slice(node.startIndex, node.endIndex))) {
      problems.push(`${lineOf(node)} '-AsHashtable' (ConvertFrom-Json) is PowerShell 6+ only`);
    }
    for (const child of node.children) walk(child);
  };
  walk(tree.rootNode);
  if (tree.rootNode.hasError && problems.length === 0) problems.push('parse error (location unknown)');
  return problems;
}

await Parser.init();
const language = await Language.load(wasmPath);
const parser = new Parser();
parser.setLanguage(language);

const files = [
  ...fs.readdirSync(repoRoot).filter((n) => /\.(ps1|psm1|psd1)$/i.test(n)).map((n) => path.join(repoRoot, n)),
  ...collect(path.join(repoRoot, 'src'), []),
  ...collect(path.join(repoRoot, 'tests'), []),
].sort();

let passed = 0;
let failed = 0;
for (const file of files) {
  const rel = path.relative(repoRoot, file);
  let source = fs.readFileSync(file, 'utf8');
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  // Grammar gap: tree-sitter-powershell has no rule for an attribute on a class statement, and
  // DSC needs [DscResource()] on its own line above the class (valid in 5.1 and 7). Blank exactly
  // that line, keeping offsets; the class body is still checked, and tests/QA/Module.Tests.ps1
  // parses the file with PowerShell's own parser.
  source = source.replace(/^[ \t]*\[DscResource\(\)\][ \t]*$/gm, (line) => ' '.repeat(line.length));
  const tree = parser.parse(source);
  const problems = problemsIn(tree, source);
  tree.delete();
  if (problems.length === 0) {
    passed++;
    console.log(`PASS ${rel}`);
  } else {
    failed++;
    console.log(`FAIL ${rel}`);
    for (const p of problems) console.log(`     ${rel}:${p}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
