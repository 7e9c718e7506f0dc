import { Fragment, useMemo, useState } from "react";
import { dir, t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
import type { KnowledgeMapView, KnowledgeNodeView, NodeLearnersView, NodeState, TeacherIpc } from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { useProjectorSafe } from "../../privacy/ProjectorSafe";
import { inlineX, joinList, layoutGraph, NOT_OURS } from "./graphLayout";
import { shownCount, stateLabel } from "./words";

type MisconceptionView = KnowledgeMapView["misconceptions"][number];

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

/** The states in the legend's order. */
const STATES: NodeState[] = ["known", "missed", "dont_know", "taught", "candidate"];

/** A node's counts read out: "known 5, missed 1, …". */
function countsSummary(node: KnowledgeNodeView, k: number | null): string {
  return joinList(
    node.counts.map((c) => t("maps-state-count", { state: stateLabel(c.state), count: shownCount(c, k) })),
  );
}

/** Learners who showed a misconception: the number, or "fewer than k" on the projector. */
function misShown(m: MisconceptionView, k: number | null): string {
  return shownCount({ count: m.learners, visibility: "primary" }, k);
}

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
  if (map.nodes.length === 0) return <p className="muted">{t("maps-no-standard")}</p>;
  return (
    <section className="knowledge" aria-label={t("maps-knowledge-map")} data-testid="knowledge-map">
      <div className="knowledge-bar">
        <ShowAs name="k-mode" tableTestId="knowledge-table-mode" mode={mode} onChange={setMode} />
        <Legend />
        {map.k !== null ? <span className="muted">{t("maps-groups-under-k", { k: map.k })}</span> : null}
      </div>
      {mode === "map" ? <Graph map={map} onSelect={select} /> : <KnowledgeTable map={map} onSelect={select} />}
      {open ? (
        <aside
          className="knowledge-learners"
          aria-label={t("maps-learners-on", { title: open.node.title })}
          data-testid="knowledge-learners"
        >
          <h3>
            <UserText>{open.node.title}</UserText>
          </h3>
          <button type="button" onClick={() => setOpen(null)}>
            {t("maps-close")}
          </button>
          {open.learners.map((s) => (
            <div key={s.state}>
              <h4>
                <span className={`k-swatch ${STATE_CLASS[s.state]}`} aria-hidden="true" />{" "}
                {t("maps-group-count", { group: stateLabel(s.state), count: s.learners.length })}
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
          ))}
        </aside>
      ) : null}
    </section>
  );
}

function Legend() {
  return (
    <ul className="k-legend" aria-label={t("maps-states")}>
      {STATES.map((s) => (
        <li key={s}>
          <span className={`k-swatch ${STATE_CLASS[s]}`} aria-hidden="true" /> {stateLabel(s)}
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
  // The layout stays as dagre made it; inside each node the words start on the reader's side.
  const rtl = dir() === "rtl";
  return (
    <svg
      className="knowledge-graph"
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      direction={dir()}
    >
      <title>{t("maps-knowledge-graph-title")}</title>
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
          const summary = countsSummary(node, map.k);
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it has the role, a name and the keys
            <g
              key={p.id}
              transform={`translate(${p.x},${p.y})`}
              className="k-node"
              role="button"
              tabIndex={0}
              data-code={node.code}
              aria-label={t("maps-standard-summary", { title: node.title, counts: summary })}
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
              <text x={inlineX(8, p.width, rtl)} y={20} className="k-node-title" {...NOT_OURS}>
                {node.title.length > 28 ? `${node.title.slice(0, 27)}…` : node.title}
              </text>
              {node.counts.map((c) => {
                const w = counted > 0 && c.count ? (barW * c.count) / counted : 0;
                const rect = (
                  <rect
                    key={c.state}
                    x={inlineX(x, p.width, rtl, w)}
                    y={34}
                    width={w}
                    height={16}
                    className={STATE_CLASS[c.state]}
                  />
                );
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
            <title>{t("maps-misconception-title", { name: m.name, count: m.learners ?? misShown(m, map.k) })}</title>
            <rect width={p.width} height={p.height} rx={16} className="k-mis-box" />
            <text x={inlineX(10, p.width, rtl)} y={24} className="k-mis-text">
              {tx("maps-misconception-label", {
                name: <tspan {...NOT_OURS}>{m.name.length > 20 ? `${m.name.slice(0, 19)}…` : m.name}</tspan>,
                count: misShown(m, map.k),
              })}
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
        <caption>{t("maps-knowledge-table-caption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("maps-standard")}</th>
            <th scope="col">{t("maps-builds-on")}</th>
            {states.map((c) => (
              <th scope="col" key={c.state}>
                {stateLabel(c.state)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {map.nodes.map((n) => {
            const buildsOn = map.edges
              .filter((e) => e.to === n.code)
              .map((e) => map.nodes.find((x) => x.code === e.from)?.title ?? e.from);
            return (
              <tr key={n.code}>
                <th scope="row">
                  <button type="button" className="link" onClick={() => onSelect(n)}>
                    <UserText>{n.title}</UserText>
                  </button>{" "}
                  <UserText className="muted">{n.code}</UserText>
                </th>
                <td>
                  {buildsOn.length === 0
                    ? "—"
                    : buildsOn.map((title, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: two prerequisites may share a title
                        <Fragment key={i}>
                          {i > 0 ? t("maps-list-separator") : null}
                          <UserText>{title}</UserText>
                        </Fragment>
                      ))}
                </td>
                {n.counts.map((c) => (
                  <td key={c.state}>{shownCount(c, map.k)}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {map.misconceptions.length ? (
        <table className="k-table">
          <caption>{t("maps-misconceptions-caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("maps-misconception")}</th>
              <th scope="col">{t("maps-standard")}</th>
              <th scope="col">{t("maps-learners")}</th>
            </tr>
          </thead>
          <tbody>
            {map.misconceptions.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  <UserText>{m.name}</UserText>
                </th>
                <td>
                  <UserText>{map.nodes.find((n) => n.code === m.standard)?.title ?? m.standard}</UserText>
                </td>
                <td>{misShown(m, map.k)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
