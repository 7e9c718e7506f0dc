import { t } from "../../i18n";

/** How a map is shown: the drawn graph, or the same data as a table (keyboard, screen readers). */
export type MapMode = "map" | "table";

/** The Map / Table switch both maps carry; `name` keeps each map's radio group its own. */
export function ShowAs({
  name,
  tableTestId,
  mode,
  onChange,
}: {
  name: string;
  tableTestId: string;
  mode: MapMode;
  onChange: (mode: MapMode) => void;
}) {
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">{t("maps-show-as")}</legend>
      <label>
        <input type="radio" name={name} checked={mode === "map"} onChange={() => onChange("map")} />{" "}
        {t("maps-show-map")}
      </label>
      <label>
        <input
          type="radio"
          name={name}
          data-testid={tableTestId}
          checked={mode === "table"}
          onChange={() => onChange("table")}
        />{" "}
        {t("maps-show-table")}
      </label>
    </fieldset>
  );
}
