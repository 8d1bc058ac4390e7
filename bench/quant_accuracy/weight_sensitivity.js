// Runs the model variants weight_sensitivity.py wrote and prints, per variant after the first
// (m1 .. m<count-1>), one line of output cosines against m0, one per input.
//   node weight_sensitivity.js DIR INPUTS SHAPE COUNT
// DIR holds m<k>.onnx and in<i>.bin (float32, SHAPE). ONNX Runtime from the npm cache that
// scripts/setup.sh fills (NPURT_DATA_DIR, default ~/.cache/npurt).
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');

const dataDir = process.env.NPURT_DATA_DIR || path.join(os.homedir(), '.cache', 'npurt');
const ort = require(path.join(dataDir, 'npm', 'node_modules', 'onnxruntime-node'));

function cosine(a, b) {
  let dot = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i], aa += a[i] * a[i], bb += b[i] * b[i];
  if (aa === 0 && bb === 0) return 1;
  return aa === 0 || bb === 0 ? 0 : dot / Math.sqrt(aa * bb);
}

async function main() {
  const [dir, inputCount, shapeText, countText] = process.argv.slice(2);
  const shape = shapeText.split(',').map(Number);
  const inputs = [];
  for (let i = 0; i < Number(inputCount); i++) {
    const b = fs.readFileSync(path.join(dir, `in${i}.bin`));
    inputs.push(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)));
  }
  // All outputs of one model, concatenated in output order.
  async function run(k) {
    const session = await ort.InferenceSession.create(path.join(dir, `m${k}.onnx`), {intraOpNumThreads: 1});
    const outs = [];
    for (const x of inputs) {
      const r = await session.run({[session.inputNames[0]]: new ort.Tensor('float32', x, shape)});
      const parts = session.outputNames.map((n) => r[n].data);
      const all = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
      let at = 0;
      for (const p of parts) all.set(p, at), at += p.length;
      outs.push(all);
    }
    return outs;
  }
  const reference = await run(0);
  for (let k = 1; k < Number(countText); k++) {
    const outs = await run(k);
    console.log(outs.map((o, i) => cosine(reference[i], o).toFixed(6)).join(' '));
  }
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
