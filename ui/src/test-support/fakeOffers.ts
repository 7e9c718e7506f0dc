import type { HostOffersView } from "../ipc";

/** A host with every §1 tool, as the reference host is: every write control shown. */
export const writingHost = async (): Promise<HostOffersView> => ({
  create_class: true,
  assign_pathway: true,
  answer: true,
  unknown: null,
});
