import dagre from "@dagrejs/dagre";

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
}

export interface LayoutEdge {
  from: string;
  to: string;
}

export interface PlacedNode extends LayoutNode {
  /** Top-left corner. */
  x: number;
  y: number;
}

export interface PlacedEdge extends LayoutEdge {
  points: { x: number; y: number }[];
}

export interface Layout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/**
 * Lays a directed graph out in layers (dagre), prerequisites above what builds on them. Pure: the
 * same graph gives the same picture, so a refresh does not move the nodes.
 */
export function layoutGraph(nodes: LayoutNode[], edges: LayoutEdge[], rankdir: "TB" | "LR" = "TB"): Layout {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir, nodesep: 28, ranksep: 48, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: n.width, height: n.height });
  const known = new Set(nodes.map((n) => n.id));
  for (const e of edges) if (known.has(e.from) && known.has(e.to)) g.setEdge(e.from, e.to);
  dagre.layout(g);
  const placed = nodes.map((n) => {
    const p = g.node(n.id);
    return { ...n, x: (p?.x ?? 0) - n.width / 2, y: (p?.y ?? 0) - n.height / 2 };
  });
  const routed = edges
    .filter((e) => known.has(e.from) && known.has(e.to))
    .map((e) => ({ ...e, points: g.edge(e.from, e.to)?.points ?? [] }));
  const graph = g.graph();
  return { nodes: placed, edges: routed, width: graph.width ?? 0, height: graph.height ?? 0 };
}
