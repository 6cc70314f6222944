// The layout of STYLE.md as a lint rule: a feature imports nothing from
// another feature (what two features share lives in components/ or lib/),
// and shared code (components/, lib/, config/) imports no feature and not
// the app. Relative imports are resolved against the importing file; the
// project uses no path aliases, so that is every import of our own code.
//
// Written here rather than taken from eslint-plugin-import(-x): that
// plugin's native resolver ships per-platform optional packages that
// `npm ci` cannot reproduce from the lock file on every machine.

import path from 'node:path';

const SHARED = new Set(['components', 'lib', 'config']);

/** Where a file sits: `feature:<name>`, `shared`, `app`, or null (outside src/). */
function zoneOf(srcDir, file) {
  const rel = path.relative(srcDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [top, second] = rel.split(path.sep);
  if (top === 'features' && second) return { kind: 'feature', name: second };
  if (SHARED.has(top)) return { kind: 'shared' };
  if (top === 'app') return { kind: 'app' };
  return null;
}

export const layoutRule = {
  meta: {
    type: 'problem',
    docs: { description: 'no cross-feature imports; shared code imports no feature or app' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const srcDir = path.join(context.cwd, 'src');
    const from = zoneOf(srcDir, file);
    if (!from || from.kind === 'app') return {};
    function check(node, spec) {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = zoneOf(srcDir, path.resolve(path.dirname(file), spec));
      if (!to) return;
      if (from.kind === 'feature' && to.kind === 'feature' && to.name !== from.name) {
        context.report({
          node,
          message: `features/${from.name} may not import features/${to.name}; move what both need to components/ or lib/.`,
        });
      } else if (from.kind === 'shared' && (to.kind === 'feature' || to.kind === 'app')) {
        context.report({ node, message: 'Shared code may not import a feature or the app.' });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export const layoutPlugin = { rules: { 'no-cross-feature-imports': layoutRule } };
