// Times one model with ONNX Runtime (npm onnxruntime-node, CPU execution provider): batch 1, a fixed
// pseudo-random float32 input, `session.run` per frame (the input tensor made once, outputs read back).
//   node bench_ort.js MODEL.onnx SHAPE THREADS LOOPS WARMUP [OPTIMIZED.onnx]
// Prints one JSON line: {"median_ms", "min_ms", "max_ms", "init_ms", "times_ms", "version"}.
// OPTIMIZED.onnx: also write the graph ONNX Runtime runs after its optimizations (to check that a QDQ
// model's groups became QLinearConv etc.).
'use strict';
const path = require('path');
const os = require('os');

const dataDir = process.env.NPURT_DATA_DIR || path.join(os.homedir(), '.cache', 'npurt');
const ortDir = path.join(dataDir, 'npm', 'node_modules', 'onnxruntime-node');
const ort = require(ortDir);

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

async function main() {
  const [model, shapeText, threads, loops, warmup, optimized] = process.argv.slice(2);
  const shape = shapeText.split(',').map(Number);
  const options = {
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  };
  if (optimized) options.optimizedModelFilePath = optimized;
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, options);
  const initMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const x = new Float32Array(shape.reduce((a, b) => a * b, 1));
  let seed = 12345;
  for (let i = 0; i < x.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    x[i] = (seed / 4294967296) * 2 - 1;
  }
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', x, shape)};
  const times = [];
  for (let k = 0; k < Number(warmup) + Number(loops); k++) {
    const a = process.hrtime.bigint();
    const r = await session.run(feeds);
    for (const name of session.outputNames) void r[name].data[0];
    const ms = Number(process.hrtime.bigint() - a) / 1e6;
    if (k >= Number(warmup)) times.push(ms);
  }
  const version = require(path.join(ortDir, 'package.json')).version;
  console.log(JSON.stringify({median_ms: median(times), min_ms: Math.min(...times), max_ms: Math.max(...times),
    init_ms: initMs, times_ms: times, version}));
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
