// Per-call cost in Pyodide (the dist/pyodide wheel, through the
// WebAssembly backend) next to the native wheel's, on the same Python
// benchmark (bench.py). A benchmark, not a test: nothing is asserted.
//
//   node tools/dist/pyodide/bench.mjs <dist/pyodide> [--native <python>] [--rounds N] [--markdown FILE]
//
// With --markdown, the same table also goes to FILE as BENCHMARKS.md's
// Pyodide section (make bench).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pyodideWithWheel, wheelIn } from './load.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const dist = args[0];
const rounds = Number(option('--rounds', '5'));
const native = option('--native', null);
const markdown = option('--markdown', null);
const script = join(dirname(fileURLToPath(import.meta.url)), 'bench.py');

const { py, loadMs } = await pyodideWithWheel(wheelIn(dist, readdirSync));
py.FS.writeFile('/tmp/bench.py', readFileSync(script));
const inPyodide = JSON.parse(py.runPython(`
import json, sys
sys.path.insert(0, "/tmp")
import bench
json.dumps(bench.main(${rounds}))
`));
const atHome = native ? JSON.parse(execFileSync(native, [script, String(rounds)], { encoding: 'utf8' })) : null;

const cell = (v) => (v === undefined ? '–' : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const lines = [
  `Pyodide ${py.version} in Node ${process.version} (start with the wheel: ${Math.round(loadMs)} ms); best of ${rounds} rounds`,
  '',
  '| Operation | Pyodide (µs) | native wheel (µs) | ratio |',
  '|---|---:|---:|---:|'
];
for (const [name, us] of Object.entries(inPyodide)) {
  const home = atHome ? atHome[name] : undefined;
  const ratio = home ? `${(us / home).toFixed(0)}×` : '–';
  lines.push(`| ${name} | ${cell(us)} | ${cell(home)} | ${ratio} |`);
}
console.log(lines.join('\n'));
if (markdown) {
  const about = 'The dist/pyodide wheel (the core as WebAssembly, called through Pyodide\'s JavaScript bridge) ' +
    'against the native abi3 wheel, on the same script (tools/dist/pyodide/bench.py: a 4-line body for one ' +
    'crawler, 4 URLs in turn); ratios are Pyodide ÷ native. Command: `make pyodide-bench`.';
  writeFileSync(markdown, ['## Python in Pyodide', '', about, '', ...lines, ''].join('\n'));
}
