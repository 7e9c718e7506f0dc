/**
 * For an effect that loads data: setters wrapped by `keep` apply a response only while the
 * effect is current. Once it re-runs (a newer store change, another class, projector-safe mode
 * switched) or unmounts, `end` drops whatever its loads still return — so an older, slower answer
 * never overwrites a newer one (a grid of names fetched just before projector-safe mode went on
 * must not land after it).
 *
 *   useEffect(() => {
 *     const load = currentOnly();
 *     ipc.classView.grid(id, a).then(load.keep(setGrid), load.keep(fail));
 *     return load.end;
 *   }, [ipc, id, a, changeTick]);
 */
export function currentOnly(): { keep<T>(set: (value: T) => void): (value: T) => void; end(): void } {
  let current = true;
  return {
    keep:
      <T>(set: (value: T) => void) =>
      (value: T) => {
        if (current) set(value);
      },
    end: () => {
      current = false;
    },
  };
}
