#!/usr/bin/env node
// Runs one ONNX model with onnxruntime-node and times session.run.
//
//   node run_ort.js --ort-dir DIR --model M.onnx --inputs A.npy[,B.npy...]
//       [--threads N] [--warmup W] [--repeat R] [--output OUT.npy]
//       [--save-optimized OPT.onnx]
//
// DIR holds node_modules/onnxruntime-node (bench/ort/install.sh puts it under
// the build tree). The .npy files (float32, C order) feed the session's
// inputs in the order of session.inputNames, which is the graph's input
// order; their shapes must match the model's. The session runs on the CPU
// execution provider with intraOpNumThreads=N, interOpNumThreads=1,
// sequential execution and every graph optimization (ORT's default level,
// 'all'); W untimed runs, then R timed runs of `await session.run(feeds)`.
// Prints one JSON line: create_ms, runs_ns (each timed run), median_ns,
// min_ns, threads. --output writes the (first) output as .npy;
// --save-optimized writes the graph ONNX Runtime runs after its
// optimizations (fusions, layout changes) as a model.
'use strict';

const fs = require('fs');
const path = require('path');

function fail(message) {
  process.stderr.write(`run_ort: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const o = {threads: 1, warmup: 5, repeat: 20, inputs: [], output: '',
             saveOptimized: ''};
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i];
    const value = argv[i + 1];
    if (value === undefined) fail(`${key} needs a value`);
    ++i;
    switch (key) {
      case '--ort-dir': o.ortDir = value; break;
      case '--model': o.model = value; break;
      case '--inputs': o.inputs = value.split(','); break;
      case '--threads': o.threads = Number(value); break;
      case '--warmup': o.warmup = Number(value); break;
      case '--repeat': o.repeat = Number(value); break;
      case '--output': o.output = value; break;
      case '--save-optimized': o.saveOptimized = value; break;
      default: fail(`unknown option ${key}`);
    }
  }
  if (!o.ortDir || !o.model) fail('--ort-dir and --model are required');
  for (const k of ['threads', 'warmup', 'repeat'])
    if (!Number.isInteger(o[k]) || o[k] < (k === 'warmup' ? 0 : 1))
      fail(`--${k} expects a count, got ${o[k]}`);
  return o;
}

// .npy 1.0-3.0, little-endian float32, C order.
function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 0, 6) !== '\x93NUMPY') fail(`${file}: not .npy`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12);
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']*)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || descr[1] !== '<f4' || !fortran || fortran[1] !== 'False' ||
      !shape)
    fail(`${file}: not a C-order little-endian float32 array (${header})`);
  const dims = shape[1].split(',').map(s => s.trim()).filter(s => s.length)
                   .map(Number);
  const offset = start + headerLen;
  const count = dims.reduce((a, b) => a * b, 1);
  if (buf.length - offset !== count * 4) fail(`${file}: truncated`);
  // Copy into an aligned buffer of its own.
  const data = new Float32Array(count);
  Buffer.from(data.buffer).set(buf.subarray(offset));
  return {dims, data};
}

function writeNpy(file, dims, data) {
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([
    head, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  ]));
}

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const modulePath = path.join(path.resolve(o.ortDir), 'node_modules',
                               'onnxruntime-node');
  if (!fs.existsSync(modulePath))
    fail(`onnxruntime-node is not installed in ${o.ortDir}`);
  const ort = require(modulePath);

  const createStart = process.hrtime.bigint();
  const options = {
    executionProviders: ['cpu'],
    intraOpNumThreads: o.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  };
  if (o.saveOptimized) options.optimizedModelFilePath = o.saveOptimized;
  const session = await ort.InferenceSession.create(o.model, options);
  const createMs = Number(process.hrtime.bigint() - createStart) / 1e6;

  const names = session.inputNames;
  if (names.length !== o.inputs.length)
    fail(`${o.model} has ${names.length} inputs (${names.join(', ')}), ` +
         `${o.inputs.length} .npy given`);
  const feeds = {};
  names.forEach((name, i) => {
    const {dims, data} = readNpy(o.inputs[i]);
    feeds[name] = new ort.Tensor('float32', data, dims);
  });

  let results;
  for (let i = 0; i < o.warmup; ++i) results = await session.run(feeds);
  const runs = [];
  for (let i = 0; i < o.repeat; ++i) {
    const start = process.hrtime.bigint();
    results = await session.run(feeds);
    runs.push(Number(process.hrtime.bigint() - start));
  }
  if (o.output) {
    const out = results[session.outputNames[0]];
    writeNpy(o.output, out.dims, out.data);
  }
  process.stdout.write(JSON.stringify({
    model: path.basename(o.model), threads: o.threads, create_ms: createMs,
    median_ns: median(runs), min_ns: Math.min(...runs), runs_ns: runs
  }) + '\n');
}

main().catch(e => fail(e && e.message ? e.message : String(e)));
