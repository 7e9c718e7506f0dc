import { Fragment, isValidElement, type ReactNode } from "react";
import { type Args, t } from ".";

/**
 * Students' words, names, anonymous ids, standard codes and the titles a host gives: text no
 * catalog holds. `translate="no"` tells tools (and the pseudo-locale walk) it is not ours to
 * translate; `<bdi>` keeps its own direction, so "anon_7f3a" reads whole inside an Arabic
 * sentence and an Arabic name inside an English one.
 */
export function UserText({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <bdi translate="no" className={className}>
      {children}
    </bdi>
  );
}

const OPEN = "\uE000";
const CLOSE = "\uE001";

/**
 * A catalog sentence with elements in it: `tx(id, { who: <UserText>{learner}</UserText> })`.
 * Each element argument is put where the message places it; the rest are plain arguments to `t`.
 */
export function tx(id: string, args: Record<string, ReactNode | number | Date | null | undefined>): ReactNode {
  const plain: Args = {};
  const elements = new Map<string, ReactNode>();
  for (const [k, v] of Object.entries(args)) {
    if (isValidElement(v)) {
      elements.set(k, v);
      plain[k] = `${OPEN}${k}${CLOSE}`;
    } else {
      plain[k] = v as Args[string];
    }
  }
  const text = t(id, plain);
  if (elements.size === 0) return text;
  const parts = text.split(new RegExp(`${OPEN}([^${CLOSE}]*)${CLOSE}`));
  return parts.map((part, i) =>
    // Odd parts are argument names (the split's captures); even ones the sentence between them.
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one sentence never reorder
    i % 2 === 1 ? <Fragment key={i}>{elements.get(part)}</Fragment> : part,
  );
}
