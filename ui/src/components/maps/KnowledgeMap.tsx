import { useMemo, useState } from "react";
import type { KnowledgeMapView, KnowledgeNodeView, NodeLearnersView, NodeState, TeacherIpc } from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { useProjectorSafe } from "../../privacy/ProjectorSafe";
import { layoutGraph } from "./graphLayout";
import { type MapMode, ShowAs } from "./ShowAs";

const NODE_W = 200;
const NODE_H = 64;
const MIS_W = 170;
const MIS_H = 40;

/** Each state's colour class; the legend and the table say the state in words too. */
const STATE_CLASS: Record<NodeState, string> = {
  known: "k-known",
  missed: "k-missed",
  dont_know: "k-dont-know",
  taught: "k-taught",
  candidate: "k-candidate",
};

/**
 * The class's knowledge map (issue 16): standards as nodes with a stacked bar of how many
 * learners are in each state, prerequisite edges, misconceptions beside the standard they were
 * shown on. Drawn as SVG from a dagre layout, with the same data as a table for keyboard and
 * screen-reader users. Selecting a standard lists its learners by state.
 */
export function KnowledgeMap({ ipc, classId, changeTick }: { ipc: TeacherIpc; classId: string; changeTick: number }) {
  const safe = useProjectorSafe();
  const [map, setMap] = useState<KnowledgeMapView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<MapMode>("map");
  const [open, setOpen] = useState<{ node: KnowledgeNodeView; learners: NodeLearnersView[] } | null>(null);

  // `safe` is in the key: the backend labels by the mode.
  useLiveLoad(
    (keep) =>
      ipc.classView.knowledgeMap(classId).then(
        keep(setMap),
        keep((e: unknown) => setError(ipc.toUiError(e).message)),
      ),
    [ipc, classId, safe],
    changeTick,
  );

  const select = (node: KnowledgeNodeView) => {
    ipc.classView.knowledgeNode(classId, node.code).then(
      (learners) => setOpen({ node, learners }),
      (e) => setError(ipc.toUiError(e).message),
    );
  };

  if (error) {
    return (
      <p role="alert" className="field-error">
        {error}
      </p>
    );
  }
  if (!map) return null;
  if (map.nodes.length === 0) return <p className="muted">No standard in the assigned pathways yet.</p>;
  return (
    <section className="knowledge" aria-label="Knowledge map" data-testid="knowledge-map">
      <div className="knowledge-bar">
        <ShowAs name="k-mode" tableTestId="knowledge-table-mode" mode={mode} onChange={setMode} />
        <Legend />
        {map.k !== null ? <span className="muted">Groups under {map.k} are not shown.</span> : null}
      </div>
      {mode === "map" ? <Graph map={map} onSelect={select} /> : <KnowledgeTable map={map} onSelect={select} />}
      {open ? (
        <aside
          className="knowledge-learners"
          aria-label={`Learners on ${open.node.title}`}
          data-testid="knowledge-learners"
        >
          <h3>{open.node.title}</h3>
          <button type="button" onClick={() => setOpen(null)}>
            Close
          </button>
          {open.learners.map((s) => (
            <div key={s.state}>
              <h4>
                <span className={`k-swatch ${STATE_CLASS[s.state]}`} aria-hidden="true" /> {s.label} (
                {s.learners.length})
              </h4>
              {s.learners.length ? (
                <ul className="k-names">
                  {s.learners.map((l) => (
                    <li key={l}>{l}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ))}
        </aside>
      ) : null}
    </section>
  );
}

function Legend() {
  const states: [NodeState, string][] = [
    ["known", "known"],
    ["missed", "missed"],
    ["dont_know", "doesn't know yet"],
    ["taught", "taught"],
    ["candidate", "not met yet"],
  ];
  return (
    <ul className="k-legend" aria-label="States">
      {states.map(([s, label]) => (
        <li key={s}>
          <span className={`k-swatch ${STATE_CLASS[s]}`} aria-hidden="true" /> {label}
        </li>
      ))}
    </ul>
  );
}

function Graph({ map, onSelect }: { map: KnowledgeMapView; onSelect: (n: KnowledgeNodeView) => void }) {
  const layout = useMemo(
    () =>
      layoutGraph(
        [
          ...map.nodes.map((n) => ({ id: n.code, width: NODE_W, height: NODE_H })),
          ...map.misconceptions.map((m) => ({ id: m.id, width: MIS_W, height: MIS_H })),
        ],
        [
          ...map.edges.map((e) => ({ from: e.from, to: e.to })),
          ...map.misconceptions.map((m) => ({ from: m.standard, to: m.id })),
        ],
      ),
    [map],
  );
  const byId = new Map(map.nodes.map((n) => [n.code, n]));
  const misById = new Map(map.misconceptions.map((m) => [m.id, m]));
  return (
    <svg
      className="knowledge-graph"
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
    >
      <title>Standards and their prerequisites (the table lists the same)</title>
      <defs>
        <marker id="k-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
          <path d="M0,0 L10,5 L0,10 z" className="k-arrow" />
        </marker>
      </defs>
      {layout.edges.map((e) => (
        <polyline
          key={`${e.from}->${e.to}`}
          points={e.points.map((p) => `${p.x},${p.y}`).join(" ")}
          className={misById.has(e.to) ? "k-edge k-edge-mis" : "k-edge"}
          markerEnd={misById.has(e.to) ? undefined : "url(#k-arrow)"}
        />
      ))}
      {layout.nodes.map((p) => {
        const node = byId.get(p.id);
        if (node) {
          const counted = node.counts.reduce((sum, c) => sum + (c.count ?? 0), 0);
          let x = 8;
          const barW = p.width - 16;
          const summary = node.counts.map((c) => `${c.label} ${c.shown}`).join(", ");
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it has the role, a name and the keys
            <g
              key={p.id}
              transform={`translate(${p.x},${p.y})`}
              className="k-node"
              role="button"
              tabIndex={0}
              data-code={node.code}
              aria-label={`${node.title}: ${summary}`}
              onClick={() => onSelect(node)}
              onKeyDown={(e) => {
                if (e.key === "Enter" || e.key === " ") {
                  e.preventDefault();
                  onSelect(node);
                }
              }}
            >
              <title>{`${node.code}\n${summary}`}</title>
              <rect width={p.width} height={p.height} rx={8} className="k-node-box" />
              <text x={8} y={20} className="k-node-title">
                {node.title.length > 28 ? `${node.title.slice(0, 27)}…` : node.title}
              </text>
              {node.counts.map((c) => {
                const w = counted > 0 && c.count ? (barW * c.count) / counted : 0;
                const rect = <rect key={c.state} x={x} y={34} width={w} height={16} className={STATE_CLASS[c.state]} />;
                x += w;
                return rect;
              })}
              <rect x={8} y={34} width={barW} height={16} className="k-bar-frame" />
            </g>
          );
        }
        const m = misById.get(p.id);
        if (!m) return null;
        return (
          <g key={p.id} transform={`translate(${p.x},${p.y})`} className="k-mis">
            <title>{`Misconception: ${m.name} (${m.shown} learners)`}</title>
            <rect width={p.width} height={p.height} rx={16} className="k-mis-box" />
            <text x={10} y={24} className="k-mis-text">
              {m.name.length > 20 ? `${m.name.slice(0, 19)}…` : m.name} · {m.shown}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function KnowledgeTable({ map, onSelect }: { map: KnowledgeMapView; onSelect: (n: KnowledgeNodeView) => void }) {
  const states = map.nodes[0]?.counts ?? [];
  return (
    <>
      <table className="k-table" data-testid="knowledge-table">
        <caption>Learners in each state, per standard</caption>
        <thead>
          <tr>
            <th scope="col">Standard</th>
            <th scope="col">Builds on</th>
            {states.map((c) => (
              <th scope="col" key={c.state}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {map.nodes.map((n) => (
            <tr key={n.code}>
              <th scope="row">
                <button type="button" className="link" onClick={() => onSelect(n)}>
                  {n.title}
                </button>{" "}
                <span className="muted">{n.code}</span>
              </th>
              <td>
                {map.edges
                  .filter((e) => e.to === n.code)
                  .map((e) => map.nodes.find((x) => x.code === e.from)?.title ?? e.from)
                  .join(", ") || "—"}
              </td>
              {n.counts.map((c) => (
                <td key={c.state}>{c.shown}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {map.misconceptions.length ? (
        <table className="k-table">
          <caption>Misconceptions shown</caption>
          <thead>
            <tr>
              <th scope="col">Misconception</th>
              <th scope="col">Standard</th>
              <th scope="col">Learners</th>
            </tr>
          </thead>
          <tbody>
            {map.misconceptions.map((m) => (
              <tr key={m.id}>
                <th scope="row">{m.name}</th>
                <td>{map.nodes.find((n) => n.code === m.standard)?.title ?? m.standard}</td>
                <td>{m.shown}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
