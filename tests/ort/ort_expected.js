#!/usr/bin/env node
// Golden outputs from ONNX Runtime (npm onnxruntime-node, CPU, one thread):
// for every test case under the given directories -- a directory holding
// model.onnx and test_data_set_*/input_K.pb, the layout of the ONNX backend
// tests -- runs the model on each data set and writes output_K.pb next to the
// inputs. npurt_conformance then compares npurt against them.
//
//   node ort_expected.js DIR...        (NODE_PATH must reach onnxruntime-node)
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const { readTensorProto, writeTensorProto } = require('./tensor_proto.js');

function* caseDirs(dir) {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  if (entries.some((e) => e.name === 'model.onnx')) { yield dir; return; }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.isDirectory()) yield* caseDirs(path.join(dir, e.name));
  }
}

const numbered = (prefix) => (names) => names
  .filter((n) => n.startsWith(prefix) && n.endsWith('.pb'))
  .sort((a, b) => parseInt(a.slice(prefix.length), 10) - parseInt(b.slice(prefix.length), 10));

async function runCase(dir) {
  const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'),
    { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
  const sets = fs.readdirSync(dir).filter((n) => n.startsWith('test_data_set_')).sort();
  if (sets.length === 0) throw new Error('no test_data_set_* directory');
  for (const set of sets) {
    const setDir = path.join(dir, set);
    const inputFiles = numbered('input_')(fs.readdirSync(setDir));
    if (inputFiles.length !== session.inputNames.length) {
      throw new Error(`${set}: ${inputFiles.length} input files for ${session.inputNames.length} model inputs`);
    }
    const feeds = {};
    inputFiles.forEach((file, k) => {
      const { name, tensor } = readTensorProto(ort, fs.readFileSync(path.join(setDir, file)));
      feeds[session.inputNames.includes(name) ? name : session.inputNames[k]] = tensor;
    });
    const results = await session.run(feeds);
    session.outputNames.forEach((name, k) => {
      fs.writeFileSync(path.join(setDir, `output_${k}.pb`), writeTensorProto(name, results[name]));
    });
  }
  await session.release();
}

(async () => {
  const roots = process.argv.slice(2);
  if (roots.length === 0) {
    console.error('usage: ort_expected.js DIR...');
    process.exit(2);
  }
  let count = 0, failed = 0;
  for (const root of roots) {
    for (const dir of caseDirs(root)) {
      try {
        await runCase(dir);
        ++count;
      } catch (e) {
        ++failed;
        console.error(`ort_expected: ${dir}: ${e.message}`);
      }
    }
  }
  console.log(`ort_expected: onnxruntime-node ${ort.env.versions.common}: ${count} cases written, ${failed} failed`);
  process.exit(failed || count === 0 ? 1 : 0);
})();
