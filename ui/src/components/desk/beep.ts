/**
 * A short, soft two-tone beep generated with WebAudio: no audio file to ship or load. Does
 * nothing where WebAudio is missing (tests, a locked-down webview).
 */
export function beep(): void {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    const t = ctx.currentTime;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.15, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
    for (const [freq, start] of [
      [660, 0],
      [880, 0.12],
    ] as const) {
      const osc = ctx.createOscillator();
      osc.type = "sine";
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(t + start);
      osc.stop(t + start + 0.2);
    }
    setTimeout(() => void ctx.close(), 600);
  } catch {
    // A beep is a courtesy; never let it break the desk.
  }
}
