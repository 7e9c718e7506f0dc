import type { ClassSummary } from "../ipc";

export function Sidebar(props: {
  classes: ClassSummary[];
  selected: string | null;
  loading: boolean;
  onSelect: (classId: string) => void;
}) {
  const { classes, selected, loading, onSelect } = props;
  return (
    <nav className="sidebar" aria-label="Classes">
      <h2 className="sidebar-title">Classes</h2>
      {loading ? (
        <p className="muted">Loading…</p>
      ) : classes.length === 0 ? (
        <p className="muted" data-testid="no-classes">
          No classes yet
        </p>
      ) : (
        <ul className="class-list">
          {classes.map((c) => (
            <li key={c.class_id}>
              <button
                type="button"
                className="class-item"
                aria-current={c.class_id === selected ? "page" : undefined}
                onClick={() => onSelect(c.class_id)}
              >
                {c.title}
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
