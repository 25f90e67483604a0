/**
 * Reads a V8 heap snapshot (`.heapsnapshot` JSON, as the inspector's `HeapProfiler.takeHeapSnapshot`
 * or `--heap-snapshot-signal` writes it) into what `bench/heap.ts` prints: self size by constructor,
 * and the objects that retain most (their dominator subtree), each with a path from the roots.
 *
 * Retained sizes follow Chrome DevTools' definition: an object's own size plus that of everything
 * only reachable through it (its subtree in the dominator tree, weak edges ignored), computed with
 * Cooper, Harvey and Kennedy's iterative dominator algorithm.
 *
 * @module
 */

/** Objects of one constructor (or one kind, e.g. `(string)`): how many, and their self size in bytes. */
export interface ConstructorTotal {
  count: number;
  size: number;
}

/** An object that retains much, with the path it is reached by. */
export interface Retainer {
  /** Bytes only reachable through this object (its own included). */
  retained: number;
  /** Its constructor or kind. */
  name: string;
  /** The last steps of the shortest path from the roots: `Owner.field → Owner.field …`. */
  path: string;
}

/** What {@link summarize} answers. */
export interface HeapSummary {
  /** Self size of every object reachable from the roots. */
  total: number;
  /** Largest total self size first. */
  byConstructor: [string, ConstructorTotal][];
  /** Largest retained size first; an object whose one child retains most of it gives way to that child. */
  topRetainers: Retainer[];
  /** Every Map, Set, WeakMap and WeakSet retaining at least 1 KB, largest first: the caches. */
  collections: Retainer[];
  /** Scripts' source text by npm package (or project folder), largest first. */
  sources: [string, ConstructorTotal][];
}

/** The npm package or project folder a module's URL belongs to. */
export function packageOf(url: string): string {
  const npm = url.match(/node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
  if (npm) return `npm:${npm[1]}`;
  const file = url.match(/^file:\/\/\/.*?\/((?:lib|routes|islands|components|vendor|locales)\/[^/]+|[^/]+$)/);
  if (file) return file[1].replace(/\.(ts|tsx|js|json)$/, "");
  return url.split("/").slice(0, 3).join("/") || "(no name)";
}

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * Summarizes a heap snapshot's JSON text.
 *
 * @example
 * ```ts
 * const summary = summarize(await Deno.readTextFile("idle.heapsnapshot"));
 * console.log(summary.byConstructor.slice(0, 10), summary.topRetainers.slice(0, 10));
 * ```
 */
export function summarize(text: string, top = 40): HeapSummary {
  const snap: Snapshot = JSON.parse(text);
  const { meta } = snap.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const nType = meta.node_fields.indexOf("type");
  const nName = meta.node_fields.indexOf("name");
  const nSize = meta.node_fields.indexOf("self_size");
  const nEdges = meta.node_fields.indexOf("edge_count");
  const eType = meta.edge_fields.indexOf("type");
  const eName = meta.edge_fields.indexOf("name_or_index");
  const eTo = meta.edge_fields.indexOf("to_node");
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const weak = edgeTypes.indexOf("weak");
  const elementLike = new Set([edgeTypes.indexOf("element"), edgeTypes.indexOf("hidden")]);
  const { nodes, edges, strings } = snap;
  const count = nodes.length / nf;

  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + nEdges] * ef;
    firstEdge[i + 1] = e;
  }
  const kind = (i: number) => nodeTypes[nodes[i * nf + nType]];
  const nodeName = (i: number) => {
    const type = kind(i);
    if (type === "object" || type === "native") return strings[nodes[i * nf + nName]] || `(${type})`;
    if (type === "closure") return `(closure ${strings[nodes[i * nf + nName]] || "anonymous"})`;
    return `(${type})`;
  };
  const edgeName = (e: number) => {
    const t = edges[e + eType];
    return elementLike.has(t) ? `[${edges[e + eName]}]` : String(strings[edges[e + eName]]);
  };

  // Depth-first order from the root (node 0), weak edges ignored.
  const UNSEEN = 0xffffffff;
  const post = new Uint32Array(count).fill(UNSEEN); // postorder number of each node
  const order: number[] = []; // nodes by postorder number
  const stack: number[] = [0];
  const cursor = new Uint32Array(count);
  const visited = new Uint8Array(count);
  visited[0] = 1;
  for (let i = 0; i < count; i++) cursor[i] = firstEdge[i];
  while (stack.length) {
    const v = stack[stack.length - 1];
    let pushed = false;
    while (cursor[v] < firstEdge[v + 1]) {
      const e = cursor[v];
      cursor[v] += ef;
      if (edges[e + eType] === weak) continue;
      const w = edges[e + eTo] / nf;
      if (visited[w]) continue;
      visited[w] = 1;
      stack.push(w);
      pushed = true;
      break;
    }
    if (!pushed) {
      stack.pop();
      post[v] = order.length;
      order.push(v);
    }
  }

  // Predecessors (reachable ones, strong edges) in CSR form.
  const predCount = new Uint32Array(count + 1);
  for (let v = 0; v < count; v++) {
    if (!visited[v]) continue;
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += ef) {
      if (edges[e + eType] !== weak) predCount[edges[e + eTo] / nf + 1]++;
    }
  }
  for (let i = 0; i < count; i++) predCount[i + 1] += predCount[i];
  const preds = new Uint32Array(predCount[count]);
  const fill = predCount.slice(0, count);
  for (let v = 0; v < count; v++) {
    if (!visited[v]) continue;
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += ef) {
      if (edges[e + eType] !== weak) preds[fill[edges[e + eTo] / nf]++] = v;
    }
  }

  // Dominators (Cooper, Harvey, Kennedy), by postorder number.
  const n = order.length;
  const rootPost = post[0];
  const idom = new Uint32Array(n).fill(UNSEEN);
  idom[rootPost] = rootPost;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (a < b) a = idom[a];
      while (b < a) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let p = n - 1; p >= 0; p--) {
      if (p === rootPost) continue;
      const v = order[p];
      let next = UNSEEN;
      for (let k = predCount[v]; k < predCount[v + 1]; k++) {
        const q = post[preds[k]];
        if (q === UNSEEN || idom[q] === UNSEEN) continue;
        next = next === UNSEEN ? q : intersect(q, next);
      }
      if (next !== idom[p]) {
        idom[p] = next;
        changed = true;
      }
    }
  }

  // Retained sizes: a node's dominator has a higher postorder number, so add upwards in order.
  const retained = new Float64Array(n);
  const biggestChild = new Float64Array(n);
  let total = 0;
  for (let p = 0; p < n; p++) {
    const size = nodes[order[p] * nf + nSize];
    retained[p] += size;
    total += size;
  }
  for (let p = 0; p < n; p++) {
    if (p === rootPost) continue;
    const d = idom[p];
    retained[d] += retained[p];
    if (retained[p] > biggestChild[d]) biggestChild[d] = retained[p];
  }

  const byName = new Map<string, ConstructorTotal>();
  for (let p = 0; p < n; p++) {
    const name = nodeName(order[p]);
    const t = byName.get(name) ?? { count: 0, size: 0 };
    t.count++;
    t.size += nodes[order[p] * nf + nSize];
    byName.set(name, t);
  }

  // Shortest paths from the root (breadth first), to name where an object is held.
  const parentEdge = new Int32Array(count).fill(-1);
  const parentNode = new Int32Array(count).fill(-1);
  const queue = new Uint32Array(count);
  const reached = new Uint8Array(count);
  reached[0] = 1;
  for (let head = 0, tail = 1; head < tail; head++) {
    const v = queue[head];
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += ef) {
      if (edges[e + eType] === weak) continue;
      const w = edges[e + eTo] / nf;
      if (reached[w]) continue;
      reached[w] = 1;
      parentEdge[w] = e;
      parentNode[w] = v;
      queue[tail++] = w;
    }
  }
  const path = (v: number) => {
    const steps: string[] = [];
    for (let w = v; parentNode[w] > 0 && steps.length < 6; w = parentNode[w]) {
      steps.unshift(`${nodeName(parentNode[w])}.${edgeName(parentEdge[w])}`);
    }
    return steps.join(" → ");
  };

  // Scripts: a node with a "source" edge to a string and a "name" edge to its URL.
  const sources = new Map<string, ConstructorTotal>();
  for (let p = 0; p < n; p++) {
    const v = order[p];
    let source = -1;
    let url = "";
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += ef) {
      if (elementLike.has(edges[e + eType])) continue;
      const label = strings[edges[e + eName]];
      const w = edges[e + eTo] / nf;
      if (label === "source" && kind(w).includes("string")) source = w;
      else if (label === "name" && kind(w).includes("string")) url = strings[nodes[w * nf + nName]];
    }
    if (source < 0 || !url) continue;
    const key = packageOf(url);
    const t = sources.get(key) ?? { count: 0, size: 0 };
    t.count++;
    t.size += nodes[source * nf + nSize];
    sources.set(key, t);
  }

  const synthetic = new Set(["synthetic", "hidden", "code"]);
  const candidates: number[] = [];
  for (let p = 0; p < n; p++) {
    if (p === rootPost || synthetic.has(kind(order[p]))) continue;
    // A node whose biggest dominated child holds most of it: report the child instead.
    if (biggestChild[p] > 0.8 * retained[p]) continue;
    candidates.push(p);
  }
  candidates.sort((a, b) => retained[b] - retained[a]);
  const COLLECTIONS = new Set(["Map", "Set", "WeakMap", "WeakSet"]);
  const collections: number[] = [];
  for (let p = 0; p < n; p++) {
    if (kind(order[p]) === "object" && COLLECTIONS.has(nodeName(order[p])) && retained[p] >= 1024) {
      collections.push(p);
    }
  }
  collections.sort((a, b) => retained[b] - retained[a]);
  const describe = (p: number) => ({ retained: retained[p], name: nodeName(order[p]), path: path(order[p]) });
  return {
    total,
    byConstructor: [...byName].sort((a, b) => b[1].size - a[1].size),
    sources: [...sources].sort((a, b) => b[1].size - a[1].size),
    topRetainers: candidates.slice(0, top).map(describe),
    collections: collections.slice(0, top).map(describe),
  };
}
