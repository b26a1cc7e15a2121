// The feedback for a code the camera found, from WebAudio and the vibration motor — no sound
// file to fetch, nothing leaves the site: a pack added gets a short high tick, a pack the rules
// refuse its own sound (two low buzzes and a longer double vibration), so a driver looking at
// the pack, not the screen, knows which it was.

let audio: AudioContext | undefined;

/** tone plays a frequency (Hz) with wave from start for length seconds after now. */
function tone(ctx: AudioContext, frequency: number, wave: OscillatorType, start: number, length: number, volume: number) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = wave;
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, ctx.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length);
}

function feedback(vibration: number | number[], play: (ctx: AudioContext) => void) {
  try {
    navigator.vibrate?.(vibration);
  } catch {
    // not allowed here
  }
  try {
    audio ??= new AudioContext();
    play(audio);
  } catch {
    // no audio: the vibration and the screen say it
  }
}

/** tick vibrates 30 ms and plays a 60 ms tick; either may be missing (iOS has no vibrate). */
export function tick(): void {
  feedback(30, (ctx) => tone(ctx, 1400, "sine", 0, 0.06, 0.2));
}

/** refusal vibrates twice (150 ms each) and plays two low 180 ms buzzes: a pack the rules refuse. */
export function refusal(): void {
  feedback([150, 80, 150], (ctx) => {
    tone(ctx, 220, "square", 0, 0.18, 0.15);
    tone(ctx, 165, "square", 0.24, 0.18, 0.15);
  });
}
