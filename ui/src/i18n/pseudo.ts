/**
 * The pseudo-locale `en-XA`: English with every letter accented and every vowel doubled (about
 * 35% longer). No teacher reads it; tests do. A word on screen in plain ASCII letters did not come
 * from a catalog, and a box too narrow for the longer text shows up before a real translation
 * does. The Rust side applies the same rules (`a2learn_i18n::pseudo`), so both halves agree.
 */
const ACCENTED: Record<string, string> = {
  a: "á",
  b: "ƀ",
  c: "ç",
  d: "ð",
  e: "é",
  f: "ƒ",
  g: "ĝ",
  h: "ĥ",
  i: "í",
  j: "ĵ",
  k: "ķ",
  l: "ļ",
  m: "ɱ",
  n: "ñ",
  o: "ó",
  p: "þ",
  q: "ǫ",
  r: "ŕ",
  s: "š",
  t: "ţ",
  u: "ú",
  v: "ṽ",
  w: "ŵ",
  x: "ẋ",
  y: "ý",
  z: "ž",
  A: "Å",
  B: "Ɓ",
  C: "Ç",
  D: "Ð",
  E: "É",
  F: "Ƒ",
  G: "Ĝ",
  H: "Ĥ",
  I: "Î",
  J: "Ĵ",
  K: "Ķ",
  L: "Ļ",
  M: "Ṁ",
  N: "Ñ",
  O: "Ö",
  P: "Þ",
  Q: "Ǫ",
  R: "Ŕ",
  S: "Š",
  T: "Ţ",
  U: "Û",
  V: "Ṽ",
  W: "Ŵ",
  X: "Ẋ",
  Y: "Ý",
  Z: "Ž",
};
const VOWELS = "aeiouAEIOU";

export function pseudo(text: string): string {
  let out = "";
  for (const ch of text) {
    const accented = ACCENTED[ch];
    if (accented === undefined) {
      out += ch;
    } else {
      out += VOWELS.includes(ch) ? accented + accented : accented;
    }
  }
  return out;
}
