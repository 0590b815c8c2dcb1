#!/usr/bin/env node
// node scripts/make-ding.mjs
//
// Writes public/audio/widget/ding.mp3, the widget's new-message sound (served with CORS * by
// public/_headers, because the loader fetches it from the host page). The sound is synthesized here, so
// the project ships no recording of unknown origin: two soft bell strikes a fourth apart (E6 then A6),
// each a few inharmonic partials with an exponential decay, encoded with LAME compiled to JavaScript.
// The output is the same on every run (no randomness, no time stamps), so the committed file can be
// checked against this script: `node scripts/make-ding.mjs --check` fails when they differ.
import { Mp3Encoder } from "@breezystack/lamejs";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DING_PATH = join(root, "public", "audio", "widget", "ding.mp3");

const SAMPLE_RATE = 44_100;
const KBPS = 64;
const SECONDS = 0.6;
/** [start (s), fundamental (Hz), loudness]: the second strike is a fourth above the first and softer. */
const STRIKES = [
  [0, 1318.5, 0.5],
  [0.11, 1760, 0.42],
];
/** Partials of a small bell: frequency ratios to the fundamental, relative amplitudes, decay times (s). */
const PARTIALS = [
  [1, 1, 0.22],
  [2.76, 0.28, 0.09],
  [5.4, 0.1, 0.05],
];
/** A few milliseconds of attack: a sound that starts at full level clicks. */
const ATTACK = 0.004;

function synthesize() {
  const samples = new Int16Array(Math.round(SAMPLE_RATE * SECONDS));
  for (let i = 0; i < samples.length; i++) {
    const t = i / SAMPLE_RATE;
    let value = 0;
    for (const [start, frequency, loudness] of STRIKES) {
      const local = t - start;
      if (local < 0) continue;
      const envelope = Math.min(1, local / ATTACK);
      for (const [ratio, amplitude, decay] of PARTIALS) {
        value += loudness * amplitude * envelope * Math.exp(-local / decay) * Math.sin(2 * Math.PI * frequency * ratio * local);
      }
    }
    // fade the last 50 ms to silence, so the end does not click either
    const tail = Math.min(1, (SECONDS - t) / 0.05);
    samples[i] = Math.round(Math.max(-1, Math.min(1, value * tail)) * 32_767 * 0.8);
  }
  return samples;
}

function encode(samples) {
  const encoder = new Mp3Encoder(1, SAMPLE_RATE, KBPS);
  const chunks = [];
  const FRAME = 1152;
  for (let i = 0; i < samples.length; i += FRAME) chunks.push(encoder.encodeBuffer(samples.subarray(i, i + FRAME)));
  chunks.push(encoder.flush());
  return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
}

const mp3 = encode(synthesize());
if (process.argv.includes("--check")) {
  const committed = readFileSync(DING_PATH);
  if (!committed.equals(mp3)) {
    console.error(`${DING_PATH} differs from what scripts/make-ding.mjs makes: run it and commit the file`);
    process.exit(1);
  }
  console.log(`${DING_PATH} is up to date (${mp3.length} bytes)`);
} else {
  mkdirSync(dirname(DING_PATH), { recursive: true });
  writeFileSync(DING_PATH, mp3);
  console.log(`wrote ${DING_PATH} (${mp3.length} bytes)`);
}
