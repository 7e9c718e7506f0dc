import type { DetailField } from "../../ipc";

/**
 * A widget's `detail` as the core flattened it: one row per field, key and value as text (the
 * widget's words are untrusted: React renders them as text, never markup; they are not ours to
 * translate, so each keeps its own direction). Nothing when empty. The caller words the caption.
 */
export function DetailTable({ fields, caption }: { fields: DetailField[]; caption?: string }) {
  if (fields.length === 0) return null;
  return (
    <table className="detail-table" data-testid="detail-table">
      {caption ? <caption>{caption}</caption> : null}
      <tbody>
        {fields.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: keys may repeat ("…"); the table is read-only
          <tr key={i}>
            <th scope="row" translate="no" dir="auto">
              {f.key}
            </th>
            <td translate="no" dir="auto">
              {f.value}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
