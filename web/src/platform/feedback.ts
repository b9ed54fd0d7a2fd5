/**
 * What a scan result sounds and feels like: a tone pattern (Web Audio, no sound files) and a
 * vibration pattern per result. Both are a second signal: the screen always says the result in
 * words. Sound starts only after a user gesture (browsers require it; the scanner's buttons are one).
 */
export type Cue = "accepted" | "already" | "wrong" | "unknown" | "queued" | "undone";

const TONES: Record<Cue, [hz: number, ms: number][]> = {
  accepted: [[880, 90]],
  already: [
    [660, 80],
    [660, 80],
  ],
  wrong: [
    [440, 120],
    [330, 160],
  ],
  unknown: [[220, 350]],
  queued: [[990, 60]],
  undone: [
    [520, 70],
    [780, 70],
  ],
};

const VIBRATION: Record<Cue, number[]> = {
  accepted: [60],
  already: [40, 60, 40],
  wrong: [120, 80, 120],
  unknown: [400],
  queued: [30],
  undone: [30, 40, 30],
};

let audio: AudioContext | null = null;

export function cue(kind: Cue): void {
  navigator.vibrate?.(VIBRATION[kind]);
  try {
    audio ??= new AudioContext();
    let at = audio.currentTime;
    for (const [hz, ms] of TONES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = hz;
      gain.gain.value = 0.15;
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + ms / 1000);
      at += (ms + 40) / 1000;
    }
  } catch {
    // No audio output: the words and the vibration still tell.
  }
}
