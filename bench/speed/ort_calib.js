// Calibration for qdq.py: runs a model whose every tensor is a graph output (qdq.py augment's AUG.onnx)
// with ONNX Runtime on the preprocessed calibration inputs and writes JSON {ranges: {tensor: [min, max]}
// over the inputs (float tensors), shapes: {tensor: dims}, types: {tensor: type}}.
//   node ort_calib.js AUG.onnx CALIB_DIR SHAPE OUT.json
// CALIB_DIR holds NN.bin files (float32, SHAPE = d0,d1,...), as prepare.py writes them. ONNX Runtime
// from the npm cache that scripts/setup.sh fills (NPURT_DATA_DIR, default ~/.cache/npurt).
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');

const dataDir = process.env.NPURT_DATA_DIR || path.join(os.homedir(), '.cache', 'npurt');
const ort = require(path.join(dataDir, 'npm', 'node_modules', 'onnxruntime-node'));

async function main() {
  const [model, calibDir, shapeText, out] = process.argv.slice(2);
  const shape = shapeText.split(',').map(Number);
  // No graph optimization: every tensor of the graph qdq.py quantizes must be computed as it is.
  const session = await ort.InferenceSession.create(model, {
    graphOptimizationLevel: 'disabled', intraOpNumThreads: 2, interOpNumThreads: 1});
  const ranges = {}, shapes = {}, types = {};
  const files = fs.readdirSync(calibDir).filter((f) => f.endsWith('.bin')).sort();
  for (const f of files) {
    const b = fs.readFileSync(path.join(calibDir, f));
    const x = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
    const r = await session.run({[session.inputNames[0]]: new ort.Tensor('float32', x, shape)});
    for (const name of session.outputNames) {
      const t = r[name];
      shapes[name] = t.dims;
      types[name] = t.type;
      if (t.type !== 'float32') continue;
      let lo = Infinity, hi = -Infinity;
      for (const v of t.data) {
        if (!Number.isFinite(v)) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (lo > hi) continue;
      const old = ranges[name];
      ranges[name] = old ? [Math.min(old[0], lo), Math.max(old[1], hi)] : [lo, hi];
    }
    // The input: its range is the images' (a graph input is not among the outputs unless listed).
    const name = session.inputNames[0];
    let lo = Infinity, hi = -Infinity;
    for (const v of x) lo = Math.min(lo, v), hi = Math.max(hi, v);
    const old = ranges[name];
    ranges[name] = old ? [Math.min(old[0], lo), Math.max(old[1], hi)] : [lo, hi];
  }
  const name = session.inputNames[0];
  shapes[name] = shape;
  types[name] = 'float32';
  fs.writeFileSync(out, JSON.stringify({ranges, shapes, types}));
  console.log(`ort_calib: ${Object.keys(ranges).length} tensor ranges over ${files.length} inputs`);
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
