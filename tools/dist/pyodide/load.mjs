// Pyodide from this folder's node_modules (npm `pyodide`, pinned in
// package.json), with a wheel installed as a user installs it: the file's
// bytes unpacked into site-packages. No CDN: micropip and Pyodide's own
// packages are not used.
import { readFileSync } from 'node:fs';
import { loadPyodide } from 'pyodide';

export async function pyodideWithWheel(wheel) {
  const started = performance.now();
  const py = await loadPyodide();
  // unpackArchive wants a Uint8Array, not a Node Buffer.
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(new Uint8Array(readFileSync(wheel)), 'wheel', { extractDir: sitePackages });
  return { py, loadMs: performance.now() - started };
}

// The wheel of dist/pyodide (the only one there).
export function wheelIn(dir, readdir) {
  const found = readdir(dir).filter((f) => f.endsWith('-py3-none-any.whl'));
  if (found.length !== 1) throw new Error(`${dir}: expected one py3-none-any wheel, found ${found.length}`);
  return `${dir}/${found[0]}`;
}
