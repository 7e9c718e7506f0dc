import { useEffect, useState } from "react";
import type { HostOffersView, TeacherIpc } from "./index";

/** What is assumed until the host answers: the controls stay, and a refusal explains itself. */
const UNASKED: HostOffersView = { create_class: true, assign_pathway: true, answer: true, unknown: null };

/**
 * The write controls the configured host can honour (its `tools/list`, asked once per host by
 * the backend). A read-only host — the bridge over the upstream's database — offers none, and
 * the window then shows none. Asked again when `key` changes (the class list, after a new host).
 */
export function useHostOffers(ipc: TeacherIpc, key: unknown): HostOffersView {
  const [offers, setOffers] = useState<HostOffersView>(UNASKED);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is not read; it says when to ask again
  useEffect(() => {
    let live = true;
    ipc.hostOffers().then(
      (o) => {
        if (live) setOffers(o);
      },
      () => {
        if (live) setOffers(UNASKED);
      },
    );
    return () => {
      live = false;
    };
  }, [ipc, key]);
  return offers;
}
