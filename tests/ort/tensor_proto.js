// onnx.TensorProto <-> onnxruntime-node Tensor, for the fields test data uses:
// dims, data_type, name and the data (raw_data, or the typed repeated fields on
// read). Enough of the protobuf wire format to need no protobuf package.
'use strict';

// ONNX TensorProto.DataType -> [onnxruntime-node type, TypedArray].
const TYPES = {
  1: ['float32', Float32Array], 2: ['uint8', Uint8Array], 3: ['int8', Int8Array],
  4: ['uint16', Uint16Array], 5: ['int16', Int16Array], 6: ['int32', Int32Array],
  7: ['int64', BigInt64Array], 9: ['bool', Uint8Array], 10: ['float16', Uint16Array],
  11: ['float64', Float64Array], 12: ['uint32', Uint32Array], 13: ['uint64', BigUint64Array],
};

class Reader {
  constructor(buf) { this.buf = buf; this.pos = 0; }
  done() { return this.pos >= this.buf.length; }
  varint() {
    let result = 0n, shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
      shift += 7n;
    }
  }
  bytes(n) {
    if (this.pos + n > this.buf.length) throw new Error('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.bytes(8);
    else if (wire === 2) this.bytes(Number(this.varint()));
    else if (wire === 5) this.bytes(4);
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

// Repeated scalar field, packed (wire 2) or not: calls push(value) per element.
function readRepeated(r, wire, readOne) {
  if (wire !== 2) return [readOne(r)];
  const sub = new Reader(r.bytes(Number(r.varint())));
  const out = [];
  while (!sub.done()) out.push(readOne(sub));
  return out;
}

const asInt64 = (v) => BigInt.asIntN(64, v);

function decodeTensor(buf) {
  const r = new Reader(buf);
  const t = { dims: [], dataType: 0, name: '', raw: null, floats: [], ints: [], doubles: [] };
  while (!r.done()) {
    const key = Number(r.varint());
    const field = key >> 3, wire = key & 7;
    switch (field) {
      case 1: t.dims.push(...readRepeated(r, wire, (x) => Number(asInt64(x.varint())))); break;
      case 2: t.dataType = Number(r.varint()); break;
      case 4: t.floats.push(...readRepeated(r, wire, (x) => Buffer.from(x.bytes(4)).readFloatLE(0))); break;
      case 5: t.ints.push(...readRepeated(r, wire, (x) => asInt64(x.varint()))); break;
      case 7: t.ints.push(...readRepeated(r, wire, (x) => asInt64(x.varint()))); break;
      case 8: t.name = Buffer.from(r.bytes(Number(r.varint()))).toString('utf8'); break;
      case 9: t.raw = Buffer.from(r.bytes(Number(r.varint()))); break;
      case 10: t.doubles.push(...readRepeated(r, wire, (x) => Buffer.from(x.bytes(8)).readDoubleLE(0))); break;
      case 11: t.ints.push(...readRepeated(r, wire, (x) => x.varint())); break;
      case 14: if (Number(r.varint()) !== 0) throw new Error('external data is not supported'); break;
      default: r.skip(wire);
    }
  }
  return t;
}

// Reads a serialized TensorProto into { name, tensor: ort.Tensor }.
function readTensorProto(ort, buf) {
  const t = decodeTensor(buf);
  const entry = TYPES[t.dataType];
  if (!entry) throw new Error(`TensorProto data_type ${t.dataType} is not supported`);
  const [type, Ctor] = entry;
  const count = t.dims.reduce((a, b) => a * b, 1);
  let data;
  if (t.raw) {
    const copy = Uint8Array.from(t.raw);  // aligned
    data = new Ctor(copy.buffer, 0, count);
  } else if (Ctor === Float32Array) {
    data = Float32Array.from(t.floats);
  } else if (Ctor === Float64Array) {
    data = Float64Array.from(t.doubles);
  } else if (Ctor === BigInt64Array || Ctor === BigUint64Array) {
    data = Ctor.from(t.ints);
  } else {
    data = Ctor.from(t.ints.map(Number));
  }
  if (data.length !== count) throw new Error(`tensor '${t.name}' has ${data.length} elements, dims say ${count}`);
  return { name: t.name, tensor: new ort.Tensor(type, type === 'bool' ? Uint8Array.from(data) : data, t.dims) };
}

function varint(n) {
  let v = BigInt.asUintN(64, BigInt(n));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}

function lengthDelimited(field, bytes) {
  return Buffer.concat([varint((field << 3) | 2), varint(bytes.length), bytes]);
}

// Serializes an ort.Tensor as a TensorProto with raw_data.
function writeTensorProto(name, tensor) {
  const code = Object.keys(TYPES).find((k) => TYPES[k][0] === tensor.type);
  if (!code) throw new Error(`output '${name}' has type ${tensor.type}, which TensorProto cannot hold here`);
  const parts = [];
  for (const d of tensor.dims) parts.push(varint(1 << 3), varint(d));
  parts.push(varint(2 << 3), varint(Number(code)));
  parts.push(lengthDelimited(8, Buffer.from(name, 'utf8')));
  const data = tensor.data;
  parts.push(lengthDelimited(9, Buffer.from(data.buffer, data.byteOffset, data.byteLength)));
  return Buffer.concat(parts);
}

module.exports = { readTensorProto, writeTensorProto };
