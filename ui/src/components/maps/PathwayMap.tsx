import { CircleCheck, CircleDashed, CircleDot, Flag, Lock, type LucideIcon } from "lucide-react";
import { useMemo, useState } from "react";
import type {
  PathwayGraphView,
  PathwayMapView,
  PathwayNodeView,
  StatusCountView,
  StepLearnersView,
  StepStatus,
  TeacherIpc,
} from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { useProjectorSafe } from "../../privacy/ProjectorSafe";
import { layoutGraph } from "./graphLayout";
import { type MapMode, ShowAs } from "./ShowAs";

const NODE_W = 300;
const NODE_H = 78;

/** Each status's icon and colour class: never colour alone, the word and the count are printed. */
const STATUS: Record<StepStatus, { icon: LucideIcon; className: string }> = {
  done: { icon: CircleCheck, className: "p-done" },
  current: { icon: CircleDot, className: "p-current" },
  upcoming: { icon: CircleDashed, className: "p-upcoming" },
};

/** What a node prints for a count: the number, or "<k" / "hidden" when suppressed. */
function countText(c: StatusCountView, k: number | null): string {
  const n = c.count !== null ? String(c.count) : c.visibility === "primary" && k !== null ? `<${k}` : "hidden";
  return `${n} ${c.label.toLowerCase()}`;
}

function pacingText(node: PathwayNodeView): string | null {
  return node.pacing_limit ? "Pacing: up to here" : node.beyond_pacing ? "After the pacing limit" : null;
}

/** A node's accessible name: the words it shows, in the order it shows them. */
function summary(node: PathwayNodeView, k: number | null): string {
  const pacing = pacingText(node);
  const counts = node.counts.map((c) => countText(c, k)).join(", ");
  return `${node.position}. ${node.title}: ${counts}${pacing ? `, ${pacing}` : ""}`;
}

/**
 * The class's pathway map (issue 16, item 3): each assigned pathway as its plan — steps as nodes
 * in pathway order — with how many learners are done, current (the first step not done, as
 * everywhere else) and upcoming on each, and the pacing limit marked. Drawn as SVG from the dagre
 * layout, with the same data as a table for keyboard and screen-reader users. Selecting a step
 * lists its learners by status.
 */
export function PathwayMap({ ipc, classId, changeTick }: { ipc: TeacherIpc; classId: string; changeTick: number }) {
  const safe = useProjectorSafe();
  const [map, setMap] = useState<PathwayMapView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<MapMode>("map");
  const [open, setOpen] = useState<{
    pathway: PathwayGraphView;
    node: PathwayNodeView;
    learners: StepLearnersView[];
  } | null>(null);

  // `safe` is in the key: the backend labels by the mode.
  useLiveLoad(
    (keep) =>
      ipc.classView.pathwayMap(classId).then(
        keep(setMap),
        keep((e: unknown) => setError(ipc.toUiError(e).message)),
      ),
    [ipc, classId, safe],
    changeTick,
  );

  const select = (pathway: PathwayGraphView, node: PathwayNodeView) => {
    ipc.classView.pathwayNode(classId, pathway.assignment_id, node.widget_id).then(
      (learners) => setOpen({ pathway, node, learners }),
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
  if (map.pathways.length === 0) return <p className="muted">Assign a pathway to see its map.</p>;
  return (
    <section className="pathway-map" aria-label="Pathway map" data-testid="pathway-map">
      <div className="knowledge-bar">
        <ShowAs name="p-mode" tableTestId="pathway-table-mode" mode={mode} onChange={setMode} />
        <Legend />
        <span className="muted" data-testid="pathway-class-size">
          {map.learners} learners
        </span>
        {map.k !== null ? <span className="muted">Groups under {map.k} are not shown.</span> : null}
      </div>
      {map.pathways.map((p) => (
        <section key={p.assignment_id} className="p-pathway" aria-label={p.title} data-assignment={p.assignment_id}>
          <h3>
            {p.title}{" "}
            <span className="muted p-pathway-meta">
              {p.up_to_step !== null ? `Paced up to step ${p.up_to_step}` : "Not paced"}
              {p.finished !== null ? ` · ${p.finished} finished` : ""}
            </span>
          </h3>
          {mode === "map" ? (
            <Graph pathway={p} k={map.k} onSelect={(n) => select(p, n)} />
          ) : (
            <PathwayTable pathway={p} onSelect={(n) => select(p, n)} />
          )}
        </section>
      ))}
      {open ? (
        <aside
          className="knowledge-learners"
          aria-label={`Learners on ${open.node.title}`}
          data-testid="pathway-learners"
        >
          <h3>
            {open.node.title} <span className="muted">({open.pathway.title})</span>
          </h3>
          <button type="button" onClick={() => setOpen(null)}>
            Close
          </button>
          {open.learners.map((s) => {
            const Icon = STATUS[s.status].icon;
            return (
              <div key={s.status} data-status={s.status}>
                <h4>
                  <Icon size={16} aria-hidden="true" className={`p-icon ${STATUS[s.status].className}`} /> {s.label} (
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
            );
          })}
        </aside>
      ) : null}
    </section>
  );
}

function Legend() {
  const statuses: [StepStatus, string][] = [
    ["done", "done"],
    ["current", "current (the first step not done)"],
    ["upcoming", "upcoming"],
  ];
  return (
    <ul className="k-legend" aria-label="Statuses">
      {statuses.map(([s, label]) => {
        const Icon = STATUS[s].icon;
        return (
          <li key={s}>
            <Icon size={14} aria-hidden="true" className={`p-icon ${STATUS[s].className}`} /> {label}
          </li>
        );
      })}
      <li>
        <Flag size={14} aria-hidden="true" className="p-icon p-pacing-icon" /> pacing limit
      </li>
    </ul>
  );
}

function Graph({
  pathway,
  k,
  onSelect,
}: {
  pathway: PathwayGraphView;
  k: number | null;
  onSelect: (n: PathwayNodeView) => void;
}) {
  const layout = useMemo(
    () =>
      layoutGraph(
        pathway.nodes.map((n) => ({ id: n.widget_id, width: NODE_W, height: NODE_H })),
        pathway.edges.map((e) => ({ from: e.from, to: e.to })),
      ),
    [pathway],
  );
  const byId = new Map(pathway.nodes.map((n) => [n.widget_id, n]));
  const arrow = `p-arrow-${pathway.assignment_id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return (
    <svg
      className="knowledge-graph pathway-graph"
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
    >
      <title>{`The steps of ${pathway.title} in order (the table lists the same)`}</title>
      <defs>
        <marker id={arrow} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
          <path d="M0,0 L10,5 L0,10 z" className="k-arrow" />
        </marker>
      </defs>
      {layout.edges.map((e) => (
        <polyline
          key={`${e.from}->${e.to}`}
          points={e.points.map((p) => `${p.x},${p.y}`).join(" ")}
          className="k-edge p-edge"
          markerEnd={`url(#${arrow})`}
        />
      ))}
      {layout.nodes.map((p) => {
        const node = byId.get(p.id);
        if (!node) return null;
        const label = summary(node, k);
        const box = ["p-node-box", node.pacing_limit ? "p-node-limit" : "", node.beyond_pacing ? "p-node-beyond" : ""]
          .filter(Boolean)
          .join(" ");
        return (
          // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it has the role, a name and the keys
          <g
            key={p.id}
            transform={`translate(${p.x},${p.y})`}
            className="k-node p-node"
            role="button"
            tabIndex={0}
            data-widget={node.widget_id}
            aria-label={label}
            onClick={() => onSelect(node)}
            onKeyDown={(e) => {
              if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                onSelect(node);
              }
            }}
          >
            <title>{label}</title>
            <rect width={p.width} height={p.height} rx={8} className={box} />
            {/* Each text starts with a space (not drawn): read as one string, the node's words are
                its accessible name, which axe's label-content-name-mismatch checks. */}
            <g>
              <text x={10} y={20} className="k-node-title">
                {`${node.position}. ${node.title}`}
              </text>
              {node.counts.map((c, i) => {
                const Icon = STATUS[c.status].icon;
                const x = 10 + i * 96;
                return (
                  <g key={c.status} transform={`translate(${x},30)`} data-status={c.status}>
                    <Icon
                      x={0}
                      y={0}
                      width={16}
                      height={16}
                      aria-hidden="true"
                      className={STATUS[c.status].className}
                    />
                    <text x={20} y={13} className="p-count">
                      {` ${countText(c, k)}`}
                    </text>
                  </g>
                );
              })}
              {node.pacing_limit ? (
                <g transform="translate(10,54)" data-testid="pathway-pacing">
                  <Flag x={0} y={0} width={16} height={16} aria-hidden="true" className="p-pacing-icon" />
                  <text x={20} y={13} className="p-pacing-text">
                    {` ${pacingText(node)}`}
                  </text>
                </g>
              ) : node.beyond_pacing ? (
                <g transform="translate(10,54)">
                  <Lock x={0} y={0} width={16} height={16} aria-hidden="true" className="p-beyond-icon" />
                  <text x={20} y={13} className="p-beyond-text">
                    {` ${pacingText(node)}`}
                  </text>
                </g>
              ) : null}
            </g>
          </g>
        );
      })}
    </svg>
  );
}

function PathwayTable({ pathway, onSelect }: { pathway: PathwayGraphView; onSelect: (n: PathwayNodeView) => void }) {
  const statuses = pathway.nodes[0]?.counts ?? [];
  return (
    <table className="k-table" data-testid="pathway-table">
      <caption>Learners done, current and upcoming, per step of {pathway.title}</caption>
      <thead>
        <tr>
          <th scope="col">Step</th>
          {statuses.map((c) => (
            <th scope="col" key={c.status}>
              {c.label}
            </th>
          ))}
          <th scope="col">Pacing</th>
        </tr>
      </thead>
      <tbody>
        {pathway.nodes.map((n) => (
          <tr key={n.widget_id}>
            <th scope="row">
              {n.position}.{" "}
              <button type="button" className="link" onClick={() => onSelect(n)}>
                {n.title}
              </button>
            </th>
            {n.counts.map((c) => (
              <td key={c.status}>{c.shown}</td>
            ))}
            <td>{n.pacing_limit ? "Pacing: up to here" : n.beyond_pacing ? "After the limit" : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
