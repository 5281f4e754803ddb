// The Pyodide wheel against the native wheel: probe.py run in Pyodide
// (the dist/pyodide wheel) and in the native wheel's Python; every probe's
// answer must be the same. Exits non-zero on any difference.
//
//   node tools/dist/pyodide/compare.mjs <dist/pyodide> <python with the native wheel>
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pyodideWithWheel, wheelIn } from './load.mjs';

const [dist, native] = process.argv.slice(2);
if (!dist || !native) {
  console.error('usage: node compare.mjs <dist/pyodide> <python>');
  process.exit(2);
}
const script = join(dirname(fileURLToPath(import.meta.url)), 'probe.py');
const { py } = await pyodideWithWheel(wheelIn(dist, readdirSync));
const lines = (text) => text.trimEnd().split('\n');
const captured = [];
py.setStdout({ batched: (line) => captured.push(line) });
py.runPython(readFileSync(script, 'utf8'));
const inPyodide = captured;
const atHome = lines(execFileSync(native, [script], { encoding: 'utf8' }));
let passed = 0;
let failed = 0;
for (let i = 0; i < Math.max(inPyodide.length, atHome.length); i++) {
  if (inPyodide[i] === atHome[i]) {
    passed++;
  } else {
    failed++;
    console.log(`differs:\n  pyodide: ${inPyodide[i]}\n  native:  ${atHome[i]}`);
  }
}
console.log(`compare: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
