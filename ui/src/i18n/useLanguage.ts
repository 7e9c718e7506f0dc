import { createElement, Fragment, type ReactNode, useSyncExternalStore } from "react";
import { type Lang, lang, subscribeLanguage } from ".";

/** The current language; a component that keys on it renders again in the new one. */
export function useLanguage(): Lang {
  return useSyncExternalStore(subscribeLanguage, lang, lang);
}

/** Renders its children anew whenever the language changes (a page's root). */
export function InLanguage({ children }: { children: ReactNode }) {
  return createElement(Fragment, { key: useLanguage() }, children);
}
