import dagre from "@dagrejs/dagre";
import { t } from "../../i18n";

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

/**
 * `translate="no"` for an SVG text or tspan holding only text that is not ours (a title from the
 * host): the DOM takes the attribute on any element, React's SVG types leave it out.
 */
export const NOT_OURS = { translate: "no" } as Record<string, string>;

/**
 * Where something inside a node goes, `at` from the node's start edge: its left in a left-to-right
 * language, its right in a right-to-left one. The graph keeps its layout in both; only what a node
 * holds mirrors, so its words start where the reader starts. A text placed there needs no
 * `text-anchor` of its own: "start" follows the SVG's `direction`, which the maps set from the
 * window's. `size` is the width of what is placed (an icon), 0 for a text's anchor.
 */
export function inlineX(at: number, width: number, rtl: boolean, size = 0): number {
  return rtl ? width - at - size : at;
}

/** Items read out in one line: "known 5, missed 1". */
export function joinList(items: string[]): string {
  return items.join(t("maps-list-separator"));
}
