// The Pyodide wheel as a user installs it: Pyodide from npm (no CDN), the
// wheel of dist/pyodide unpacked into it, then the shared vectors through
// the Python API (bindings/python/tests/test_vectors.py) and a smoke test
// (vectors.py). Exits non-zero unless everything passed.
//
//   node tools/dist/pyodide/test.mjs <repo> <dist/pyodide>
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pyodideWithWheel, wheelIn } from './load.mjs';

const [repo, dist] = process.argv.slice(2);
if (!repo || !dist) {
  console.error('usage: node test.mjs <repo> <dist/pyodide>');
  process.exit(2);
}
const wheel = wheelIn(dist, readdirSync);
const { py, loadMs } = await pyodideWithWheel(wheel);
console.log(`pyodide ${py.version}: loaded with ${wheel} in ${Math.round(loadMs)} ms`);

// The repository's vectors and runner, copied into Pyodide's file system.
const copy = (from, to) => {
  py.FS.mkdirTree(dirname(to));
  py.FS.writeFile(to, readFileSync(from));
};
const vectors = join(repo, 'tests', 'vectors');
for (const f of readdirSync(vectors).filter((f) => f.endsWith('.json'))) {
  copy(join(vectors, f), `/repo/tests/vectors/${f}`);
}
for (const f of ['conftest.py', 'test_vectors.py', 'test_api.py', 'test_bad_input.py', 'test_preferences.py']) {
  copy(join(repo, 'bindings', 'python', 'tests', f), `/repo/bindings/python/tests/${f}`);
}
copy(join(repo, 'examples', 'shop', 'robots.txt'), '/repo/examples/shop/robots.txt');
copy(join(dirname(fileURLToPath(import.meta.url)), 'vectors.py'), '/runner/vectors.py');

const started = performance.now();
const [passed, failed] = py.runPython(`
import sys
sys.path.insert(0, "/runner")
import vectors
vectors.main()
`).toJs();
console.log(`ran in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`pyodide: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
