// The feedback for a pack added by the camera: a short vibration (where the device has one)
// and a short tick from WebAudio — no sound file to fetch, nothing leaves the site.

let audio: AudioContext | undefined;

/** tick vibrates 30 ms and plays a 60 ms tick; either may be missing (iOS has no vibrate). */
export function tick(): void {
  try {
    navigator.vibrate?.(30);
  } catch {
    // not allowed here
  }
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 1400;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.06);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.06);
  } catch {
    // no audio: the vibration and the list say it
  }
}
