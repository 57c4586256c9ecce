// The browser client's modules import each other in one direction only: no module imports one
// that imports it back (directly or through others). Read from the `import … from './x.js'` lines.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { test } from 'node:test';

const dir = new URL('../../web/js/', import.meta.url).pathname;

/** Each module of web/js (its folders too, named by their path in web/js) with the modules of
 * web/js it imports. */
function graph() {
  const g = new Map();
  const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.js'));
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    const deps = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[\w./-]+\.js)'/gms)].map((m) =>
      posix.normalize(posix.join(posix.dirname(f), m[1])),
    );
    g.set(f, [...new Set(deps)]);
  }
  return g;
}

/** The import cycles of `g`, each as the list of its modules in order. */
function cycles(g) {
  const found = [];
  const state = new Map();
  const stack = [];
  const visit = (m) => {
    state.set(m, 'open');
    stack.push(m);
    for (const d of g.get(m) ?? []) {
      if (state.get(d) === 'open') found.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(m, 'done');
  };
  for (const m of [...g.keys()].sort()) if (!state.has(m)) visit(m);
  return found;
}

test('the cycle finder finds a cycle', () => {
  const g = new Map([['a.js', ['b.js']], ['b.js', ['c.js']], ['c.js', ['a.js']], ['d.js', ['a.js']]]);
  assert.deepEqual(cycles(g), [['a.js', 'b.js', 'c.js', 'a.js']]);
});

test('no module of web/js imports one that imports it back', () => {
  const g = graph();
  assert.ok(g.size > 10, `web/js has its modules: ${g.size}`);
  assert.ok(g.get('table.js')?.includes('i18n.js'), 'the imports are read');
  assert.ok(g.get('i18n.js')?.includes('i18n/en.js'), 'the folders are read');
  assert.deepEqual(cycles(g).map((c) => c.join(' → ')), []);
});
