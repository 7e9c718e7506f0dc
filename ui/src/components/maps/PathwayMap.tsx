import { CircleCheck, CircleDashed, CircleDot, Flag, Lock, type LucideIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { dir, t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
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
import { inlineX, joinList, layoutGraph, NOT_OURS } from "./graphLayout";
import { type MapMode, ShowAs } from "./ShowAs";
import { shownCount, statusLabel } from "./words";

const NODE_W = 300;
const NODE_H = 78;

/** Each status's icon and colour class: never colour alone, the word and the count are printed. */
const STATUS: Record<StepStatus, { icon: LucideIcon; className: string }> = {
  done: { icon: CircleCheck, className: "p-done" },
  current: { icon: CircleDot, className: "p-current" },
  upcoming: { icon: CircleDashed, className: "p-upcoming" },
};

/** What a node prints for a count: "9 done", or "<k done" / "hidden done" when suppressed. */
function countText(c: StatusCountView, k: number | null): string {
  // A number goes in as a number, so a translation may choose its words by it.
  const count = c.count ?? shownCount(c, k, true);
  switch (c.status) {
    case "done":
      return t("maps-step-done", { count });
    case "current":
      return t("maps-step-current", { count });
    case "upcoming":
      return t("maps-step-upcoming", { count });
  }
}

function pacingText(node: PathwayNodeView): string | null {
  return node.pacing_limit ? t("maps-pacing-up-to-here") : node.beyond_pacing ? t("maps-after-pacing-limit") : null;
}

/** A node's accessible name: the words it shows, in the order it shows them. */
function summary(node: PathwayNodeView, k: number | null): string {
  const pacing = pacingText(node);
  const details = joinList([...node.counts.map((c) => countText(c, k)), ...(pacing ? [pacing] : [])]);
  return t("maps-step-summary", { position: node.position, title: node.title, details });
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
  if (map.pathways.length === 0) return <p className="muted">{t("maps-assign-a-pathway")}</p>;
  return (
    <section className="pathway-map" aria-label={t("maps-pathway-map")} data-testid="pathway-map">
      <div className="knowledge-bar">
        <ShowAs name="p-mode" tableTestId="pathway-table-mode" mode={mode} onChange={setMode} />
        <Legend />
        <span className="muted" data-testid="pathway-class-size">
          {t("maps-class-size", { count: map.learners })}
        </span>
        {map.k !== null ? <span className="muted">{t("maps-groups-under-k", { k: map.k })}</span> : null}
      </div>
      {map.pathways.map((p) => (
        <section key={p.assignment_id} className="p-pathway" aria-label={p.title} data-assignment={p.assignment_id}>
          <h3>
            <UserText>{p.title}</UserText>{" "}
            <span className="muted p-pathway-meta">
              {p.up_to_step !== null ? t("maps-paced-up-to-step", { step: p.up_to_step }) : t("maps-not-paced")}
              {p.finished !== null ? ` ${t("maps-pathway-finished", { count: p.finished })}` : ""}
            </span>
          </h3>
          {mode === "map" ? (
            <Graph pathway={p} k={map.k} onSelect={(n) => select(p, n)} />
          ) : (
            <PathwayTable pathway={p} k={map.k} onSelect={(n) => select(p, n)} />
          )}
        </section>
      ))}
      {open ? (
        <aside
          className="knowledge-learners"
          aria-label={t("maps-learners-on", { title: open.node.title })}
          data-testid="pathway-learners"
        >
          <h3>
            <UserText>{open.node.title}</UserText>{" "}
            <span className="muted">
              {tx("maps-in-pathway", { pathway: <UserText>{open.pathway.title}</UserText> })}
            </span>
          </h3>
          <button type="button" onClick={() => setOpen(null)}>
            {t("maps-close")}
          </button>
          {open.learners.map((s) => {
            const Icon = STATUS[s.status].icon;
            return (
              <div key={s.status} data-status={s.status}>
                <h4>
                  <Icon size={16} aria-hidden="true" className={`p-icon ${STATUS[s.status].className}`} />{" "}
                  {t("maps-group-count", { group: statusLabel(s.status), count: s.learners.length })}
                </h4>
                {s.learners.length ? (
                  <ul className="k-names">
                    {s.learners.map((l) => (
                      <li key={l}>
                        <UserText>{l}</UserText>
                      </li>
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
    ["done", t("maps-legend-done")],
    ["current", t("maps-legend-current")],
    ["upcoming", t("maps-legend-upcoming")],
  ];
  return (
    <ul className="k-legend" aria-label={t("maps-statuses")}>
      {statuses.map(([s, label]) => {
        const Icon = STATUS[s].icon;
        return (
          <li key={s}>
            <Icon size={14} aria-hidden="true" className={`p-icon ${STATUS[s].className}`} /> {label}
          </li>
        );
      })}
      <li>
        <Flag size={14} aria-hidden="true" className="p-icon p-pacing-icon" /> {t("maps-legend-pacing-limit")}
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
  // The layout stays as dagre made it; inside each node the words and icons start on the reader's
  // side (an icon before its words), and each text's default anchor, "start", follows `direction`.
  const rtl = dir() === "rtl";
  const side = (v: number) => (rtl ? -v : v);
  return (
    <svg
      className="knowledge-graph pathway-graph"
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      direction={dir()}
    >
      <title>{t("maps-pathway-graph-title", { title: pathway.title })}</title>
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
              <text x={inlineX(10, p.width, rtl)} y={20} className="k-node-title">
                {tx("maps-step-title", {
                  position: node.position,
                  title: <tspan {...NOT_OURS}>{node.title}</tspan>,
                })}
              </text>
              {node.counts.map((c, i) => {
                const Icon = STATUS[c.status].icon;
                const x = inlineX(10 + i * 96, p.width, rtl);
                return (
                  <g key={c.status} transform={`translate(${x},30)`} data-status={c.status}>
                    <Icon
                      x={inlineX(0, 0, rtl, 16)}
                      y={0}
                      width={16}
                      height={16}
                      aria-hidden="true"
                      className={STATUS[c.status].className}
                    />
                    <text x={side(20)} y={13} className="p-count">
                      {` ${countText(c, k)}`}
                    </text>
                  </g>
                );
              })}
              {node.pacing_limit ? (
                <g transform={`translate(${inlineX(10, p.width, rtl)},54)`} data-testid="pathway-pacing">
                  <Flag
                    x={inlineX(0, 0, rtl, 16)}
                    y={0}
                    width={16}
                    height={16}
                    aria-hidden="true"
                    className="p-pacing-icon"
                  />
                  <text x={side(20)} y={13} className="p-pacing-text">
                    {` ${pacingText(node)}`}
                  </text>
                </g>
              ) : node.beyond_pacing ? (
                <g transform={`translate(${inlineX(10, p.width, rtl)},54)`}>
                  <Lock
                    x={inlineX(0, 0, rtl, 16)}
                    y={0}
                    width={16}
                    height={16}
                    aria-hidden="true"
                    className="p-beyond-icon"
                  />
                  <text x={side(20)} y={13} className="p-beyond-text">
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

function PathwayTable({
  pathway,
  k,
  onSelect,
}: {
  pathway: PathwayGraphView;
  k: number | null;
  onSelect: (n: PathwayNodeView) => void;
}) {
  const statuses = pathway.nodes[0]?.counts ?? [];
  return (
    <table className="k-table" data-testid="pathway-table">
      <caption>{tx("maps-pathway-table-caption", { title: <UserText>{pathway.title}</UserText> })}</caption>
      <thead>
        <tr>
          <th scope="col">{t("maps-step")}</th>
          {statuses.map((c) => (
            <th scope="col" key={c.status}>
              {statusLabel(c.status)}
            </th>
          ))}
          <th scope="col">{t("maps-pacing")}</th>
        </tr>
      </thead>
      <tbody>
        {pathway.nodes.map((n) => (
          <tr key={n.widget_id}>
            <th scope="row">
              {t("maps-step-number", { position: n.position })}{" "}
              <button type="button" className="link" onClick={() => onSelect(n)}>
                <UserText>{n.title}</UserText>
              </button>
            </th>
            {n.counts.map((c) => (
              <td key={c.status}>{shownCount(c, k)}</td>
            ))}
            <td>{n.pacing_limit ? t("maps-pacing-up-to-here") : n.beyond_pacing ? t("maps-after-limit") : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
