// Mermaid's own flowchart parser, run headless: reads each file named on the command line
// with Mermaid 11 (`mermaidAPI.getDiagramFromText`, in a jsdom window for DOMPurify) and
// prints one JSON line per file: the graph as Mermaid's flowchart db holds it, reduced to
// what diagtui compares (crates/layout/tests/mermaid_reference.rs):
//   {file, direction, nodes: {id: text}, edges: [{from, to, start, end, stroke, text,
//    length, id}], groups: {id: {title, parent, dir}}, parents: {node: group}}
// or {file, error} when Mermaid refuses it. Texts are raw, as Mermaid's db keeps them (with
// their kind: "text", "string" or "markdown"); the test reduces them to plain text.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const { window } = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = window;
globalThis.document = window.document;
globalThis.DOMParser = window.DOMParser;
globalThis.Element = window.Element;
globalThis.HTMLElement = window.HTMLElement;
globalThis.Node = window.Node;

const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false, securityLevel: 'loose' });

/**
 * A text as Mermaid draws it: getDiagramFromText hides entity codes (`#quot;`, `#9829;`)
 * from its lexer as placeholders, which its renderer turns into HTML entities
 * (`decodeEntities`); this does the same.
 */
function decoded(text) {
  return text.replace(/ﬂ°°/g, '&#').replace(/ﬂ°/g, '&').replace(/¶ß/g, ';');
}

/** Mermaid's arrow type as the heads at the two ends. */
function heads(type) {
  const kind = type.replace('double_', '');
  const head = { arrow_point: 'arrow', arrow_circle: 'circle', arrow_cross: 'cross' }[kind] ?? 'none';
  return { start: type.startsWith('double_') ? head : 'none', end: head };
}

async function read(file) {
  const text = readFileSync(file, 'utf8');
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const db = diagram.db;
  const subGraphs = db.getSubGraphs();
  const groupIds = new Set(subGraphs.map((s) => s.id));
  // Mermaid's membership: the first subgraph (in the order they close) listing a node owns it
  // (flowDb.getData's parentDB).
  const parent = new Map();
  for (let i = subGraphs.length - 1; i >= 0; i--) {
    for (const id of subGraphs[i].nodes) parent.set(id, subGraphs[i].id);
  }
  const edgeIds = new Set(db.getEdges().map((e) => e.id));
  const nodes = {};
  const parents = {};
  for (const [id, v] of db.getVertices()) {
    if (groupIds.has(id) || edgeIds.has(id)) continue;
    nodes[id] = { text: decoded(v.text ?? id), kind: v.labelType ?? 'text' };
    if (parent.has(id)) parents[id] = parent.get(id);
  }
  const groups = {};
  for (const s of subGraphs) {
    groups[s.id] = {
      title: decoded(s.title),
      kind: s.labelType ?? 'text',
      parent: parent.get(s.id) ?? null,
      dir: s.dir ?? null,
    };
  }
  const edges = db.getEdges().map((e) => ({
    from: e.start,
    to: e.end,
    ...heads(e.type ?? 'arrow_point'),
    stroke: e.stroke ?? 'normal',
    text: decoded(e.text ?? ''),
    kind: e.labelType ?? 'text',
    length: e.length ?? 1,
    id: e.isUserDefinedId ? e.id : null,
  }));
  return { direction: db.getDirection(), nodes, edges, groups, parents };
}

for (const file of process.argv.slice(2)) {
  try {
    process.stdout.write(`${JSON.stringify({ file, ...(await read(file)) })}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ file, error: String(e?.message ?? e) })}\n`);
  }
}
