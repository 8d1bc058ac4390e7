#!/usr/bin/python3
"""A small static int8 quantizer that writes ONNX Runtime's "QDQ format" (onnx + numpy only: ONNX Runtime's
own Python quantization tool comes from PyPI, which this project does not use).

    /usr/bin/python3 qdq.py augment FLOAT.onnx AUG.onnx
        AUG.onnx: FLOAT.onnx with every tensor also a graph output, for calibration (ort_calib.js).
    /usr/bin/python3 qdq.py quantize FLOAT.onnx CALIB.json QDQ.onnx
        CALIB.json: per tensor its [min, max] over the calibration inputs, its shape and type (ort_calib.js).

Before quantizing, the float model is brought to the form quantizers expect: Constant nodes become
initializers (Paddle2ONNX keeps weights in them), opset 13 (onnx.version_converter; per-axis
DequantizeLinear needs it), Identity nodes over initializers bypassed (torch.onnx.export shares equal
biases through them), BatchNormalization folded into the Conv / ConvTranspose before it.

The recipe is the usual one of ONNX Runtime's quantize_static(QuantFormat.QDQ, per_channel=True):
  - weights (initializer input 1 of Conv, ConvTranspose, Gemm, MatMul): int8 symmetric, per output channel
    (Conv axis 0, ConvTranspose axis 1, Gemm axis 0 with transB else 1, MatMul axis 1), stored as int8
    initializers read through DequantizeLinear;
  - biases of those ops: int32 with scale input_scale * weight_scale, through DequantizeLinear;
  - activations: uint8 asymmetric per tensor, min/max calibration; a QuantizeLinear -> DequantizeLinear pair
    on every float input and output of Conv, ConvTranspose, Gemm, MatMul, Add, Mul, Concat,
    GlobalAveragePool, AveragePool and Sigmoid (ONNX Runtime fuses these groups into QLinearConv,
    QGemm, QLinearMatMul, QLinearAdd, ... and runs its int8 kernels); MaxPool, Resize and Flatten reuse
    their input's parameters (so that ONNX Runtime drops their Q/DQ and runs them on uint8);
  - a Relu or Clip that alone reads an op's output is folded the way ONNX Runtime does it: the pair goes
    after the activation, whose range (min 0) makes it redundant, and ONNX Runtime removes it.
The values are not judged here, only that ONNX Runtime executes a realistic int8 model.
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

COMPUTE_OPS = {'Conv', 'ConvTranspose', 'Gemm', 'MatMul', 'Add', 'Mul', 'Concat', 'GlobalAveragePool',
               'AveragePool', 'Sigmoid'}
MOVE_OPS = {'MaxPool', 'Resize', 'Flatten'}
WEIGHT_OPS = {'Conv', 'ConvTranspose', 'Gemm', 'MatMul'}


def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def consumers(graph):
    out = {}
    for node in graph.node:
        for i, name in enumerate(node.input):
            out.setdefault(name, []).append((node, i))
    return out


def fold_batchnorm(model):
    """Conv/ConvTranspose -> BatchNormalization (the Conv output read by nothing else) into one op."""
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    users = consumers(g)
    graph_outputs = {o.name for o in g.output}
    producer = {o: n for n in g.node for o in n.output}
    removed = set()
    for bn in list(g.node):
        if bn.op_type != 'BatchNormalization' or len([o for o in bn.output if o]) != 1:
            continue
        conv = producer.get(bn.input[0])
        if conv is None or conv.op_type not in ('Conv', 'ConvTranspose') or len(users.get(conv.output[0], [])) != 1:
            continue
        if conv.output[0] in graph_outputs or any(n not in inits for n in bn.input[1:]) or conv.input[1] not in inits:
            continue
        if conv.op_type == 'ConvTranspose' and attr(conv, 'group', 1) != 1:
            continue
        gamma, beta, mean, var = (numpy_helper.to_array(inits[n]).astype(np.float64) for n in bn.input[1:5])
        eps = attr(bn, 'epsilon', 1e-5)
        k = gamma / np.sqrt(var + eps)
        w = numpy_helper.to_array(inits[conv.input[1]]).astype(np.float64)
        if conv.op_type == 'Conv':
            w = w * k.reshape(-1, *([1] * (w.ndim - 1)))
        else:
            w = w * k.reshape(1, -1, *([1] * (w.ndim - 2)))
        b = numpy_helper.to_array(inits[conv.input[2]]).astype(np.float64) if len(conv.input) > 2 and conv.input[2] \
            else np.zeros_like(k)
        b = (b - mean) * k + beta
        wname, bname = conv.name + '_bnfold_w', conv.name + '_bnfold_b'
        g.initializer.extend([numpy_helper.from_array(w.astype(np.float32), wname),
                              numpy_helper.from_array(b.astype(np.float32), bname)])
        del conv.input[1:]
        conv.input.extend([wname, bname])
        conv.output[0] = bn.output[0]
        removed.add(id(bn))
    kept = [n for n in g.node if id(n) not in removed]
    del g.node[:]
    g.node.extend(kept)
    # Drop initializers nothing reads any more.
    used = {i for n in g.node for i in n.input} | {o.name for o in g.output}
    kept_inits = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(kept_inits)
    return len(removed)


def constants_to_initializers(model):
    """Paddle2ONNX stores the weights in Constant nodes: make them initializers, as quantizers expect."""
    g = model.graph
    kept = []
    for node in g.node:
        value = attr(node, 'value', None) if node.op_type == 'Constant' else None
        if value is not None:
            t = onnx.TensorProto()
            t.CopyFrom(value)
            t.name = node.output[0]
            g.initializer.append(t)
        else:
            kept.append(node)
    del g.node[:]
    g.node.extend(kept)


def bypass_constant_identities(model):
    """torch.onnx.export shares equal initializers through Identity nodes (e.g. the zero biases of folded
    BatchNormalizations): readers take the initializer itself, so that weights and biases stay constants."""
    g = model.graph
    inits = {t.name for t in g.initializer}
    graph_outputs = {o.name for o in g.output}
    alias = {}
    for node in g.node:
        if node.op_type == 'Identity' and node.input[0] in inits and node.output[0] not in graph_outputs:
            alias[node.output[0]] = node.input[0]
    kept = [n for n in g.node if not (n.op_type == 'Identity' and n.output[0] in alias)]
    for node in kept:
        for i, name in enumerate(node.input):
            if name in alias:
                node.input[i] = alias[name]
    del g.node[:]
    g.node.extend(kept)


ORT_TYPES = {'float32': TensorProto.FLOAT, 'float16': TensorProto.FLOAT16, 'int64': TensorProto.INT64,
             'int32': TensorProto.INT32, 'int8': TensorProto.INT8, 'uint8': TensorProto.UINT8,
             'bool': TensorProto.BOOL, 'float64': TensorProto.DOUBLE}


def augment(src, aug_path):
    """Every node output also a graph output (untyped: ONNX Runtime infers it), for ort_calib.js."""
    model = onnx.load(src)
    have = {o.name for o in model.graph.output}
    for node in model.graph.node:
        for name in node.output:
            if name and name not in have:
                model.graph.output.append(helper.make_empty_tensor_value_info(name))
                have.add(name)
    onnx.save(model, aug_path)
    print('qdq augment: %d tensors to calibrate' % len(have))


def prepare(model, calib):
    """The float model as it is quantized: weights in initializers, opset 13 (per-axis DequantizeLinear needs
    it), BatchNormalization folded into the convolution before it. Tensor names stay those of the original
    model, so the calibration of the original applies (a folded convolution's output takes the name of the
    BatchNormalization's)."""
    constants_to_initializers(model)
    opset = next(o.version for o in model.opset_import if o.domain in ('', 'ai.onnx'))
    if opset < 13:
        from onnx import version_converter
        # The converter needs some shapes (Softmax 12 -> 13 the input rank): those ONNX Runtime computed.
        del model.graph.value_info[:]
        outputs = {o.name for o in model.graph.output}
        for name, dims in calib['shapes'].items():
            if name not in outputs and calib['types'].get(name) in ORT_TYPES:
                model.graph.value_info.append(helper.make_tensor_value_info(name, ORT_TYPES[calib['types'][name]],
                                                                            dims))
        model = version_converter.convert_version(model, 13)
        del model.graph.value_info[:]
    bypass_constant_identities(model)
    folded = fold_batchnorm(model)
    for n, node in enumerate(model.graph.node):
        if not node.name:
            node.name = '%s_%d' % (node.op_type, n)
    onnx.checker.check_model(model)
    return model, opset, folded


def act_params(lo, hi):
    lo, hi = min(0.0, float(lo)), max(0.0, float(hi))
    scale = (hi - lo) / 255.0
    if scale <= 0 or not np.isfinite(scale):
        scale = 1.0
    zp = int(np.clip(np.round(-lo / scale), 0, 255))
    return np.float32(scale), np.uint8(zp)


def quantize(src, calib_path, out_path):
    with open(calib_path) as f:
        calib = json.load(f)
    ranges = calib['ranges']
    model, opset, folded = prepare(onnx.load(src), calib)
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    users = consumers(g)
    graph_outputs = {o.name for o in g.output}

    # 1. Which tensors get an activation Q/DQ pair, and with which parameters.
    qparams = {}  # tensor -> (scale, zero point)
    fused_act = {}  # op output -> the Relu/Clip output that takes its place

    def act_range(name):
        if name in inits:
            v = numpy_helper.to_array(inits[name])
            return (float(v.min()), float(v.max())) if v.dtype == np.float32 and v.size else None
        r = ranges.get(name)
        return tuple(r) if r else None

    def want(name):
        if not name or name in qparams:
            return
        r = act_range(name)
        if r is not None:
            qparams[name] = act_params(*r)

    for node in g.node:  # graph order: a tensor's producer comes before its readers
        if node.op_type in MOVE_OPS and node.input[0] in qparams:
            # Data movement: the input's parameters (ONNX Runtime then drops the pair and moves uint8).
            qparams[node.output[0]] = qparams[node.input[0]]
        elif node.op_type in COMPUTE_OPS:
            for i, name in enumerate(node.input):
                if node.op_type in WEIGHT_OPS and i >= 1 and name in inits:
                    continue  # weights and biases: below
                want(name)
            out = node.output[0]
            readers = users.get(out, [])
            if len(readers) == 1 and readers[0][0].op_type in ('Relu', 'Clip') and out not in graph_outputs:
                fused_act[out] = readers[0][0].output[0]
                want(readers[0][0].output[0])
            else:
                want(out)

    new_inits, new_nodes = [], []

    def qdq_pair(name):
        s, z = qparams[name]
        sn, zn = name + '_scale', name + '_zero_point'
        new_inits.append(numpy_helper.from_array(np.array(s, np.float32), sn))
        new_inits.append(numpy_helper.from_array(np.array(z, np.uint8), zn))
        q, dq = name + '_QuantizeLinear', name + '_DequantizeLinear'
        return (helper.make_node('QuantizeLinear', [name, sn, zn], [q + '_Output'], q),
                helper.make_node('DequantizeLinear', [q + '_Output', sn, zn], [dq + '_Output'], dq),
                dq + '_Output')

    # 2. Weights and biases.
    weight_dq = {}  # (node name, input index) -> DQ output
    for node in g.node:
        if node.op_type not in WEIGHT_OPS or len(node.input) < 2 or node.input[1] not in inits:
            continue
        w = numpy_helper.to_array(inits[node.input[1]]).astype(np.float32)
        if node.op_type == 'Conv':
            axis = 0
        elif node.op_type == 'ConvTranspose':
            axis = 1 if attr(node, 'group', 1) == 1 else None
        elif node.op_type == 'Gemm':
            axis = 0 if attr(node, 'transB', 0) else 1
        else:
            axis = 1 if w.ndim == 2 else None
        if axis is None:
            scale = np.array([max(np.abs(w).max(), 1e-8) / 127.0], np.float32)
        else:
            red = tuple(d for d in range(w.ndim) if d != axis)
            scale = (np.maximum(np.abs(w).max(axis=red), 1e-8) / 127.0).astype(np.float32)
        shape = [1] * w.ndim
        if axis is not None:
            shape[axis] = -1
        q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
        # Names per op: torch.onnx.export shares identical initializers (e.g. the zero biases of folded
        # BatchNormalizations) between ops, and each op needs its own DequantizeLinear and bias scale.
        base = node.name + '_W'
        qn, sn, zn = base + '_quantized', base + '_scale', base + '_zero_point'
        if axis is None:
            new_inits += [numpy_helper.from_array(q, qn), numpy_helper.from_array(np.float32(scale[0]), sn),
                          numpy_helper.from_array(np.int8(0), zn)]
            dq = helper.make_node('DequantizeLinear', [qn, sn, zn], [base + '_DequantizeLinear_Output'],
                                  base + '_DequantizeLinear')
        else:
            new_inits += [numpy_helper.from_array(q, qn), numpy_helper.from_array(scale, sn),
                          numpy_helper.from_array(np.zeros(scale.shape, np.int8), zn)]
            dq = helper.make_node('DequantizeLinear', [qn, sn, zn], [base + '_DequantizeLinear_Output'],
                                  base + '_DequantizeLinear', axis=axis)
        new_nodes.append(dq)
        weight_dq[(node.name, 1)] = dq.output[0]
        # Bias: int32, scale = input scale * weight scale (per output channel).
        if len(node.input) > 2 and node.input[2] in inits and node.input[0] in qparams:
            b = numpy_helper.to_array(inits[node.input[2]]).astype(np.float64)
            bscale = (float(qparams[node.input[0]][0]) * scale.astype(np.float64))
            if bscale.size == 1:
                bscale = np.full(b.shape, bscale[0])
            if bscale.shape == b.shape:
                qb = np.clip(np.round(b / bscale), -2**31, 2**31 - 1).astype(np.int32)
                bn = node.name + '_B'
                new_inits += [numpy_helper.from_array(qb, bn + '_quantized'),
                              numpy_helper.from_array(bscale.astype(np.float32), bn + '_scale'),
                              numpy_helper.from_array(np.zeros(b.shape, np.int32), bn + '_zero_point')]
                dqb = helper.make_node('DequantizeLinear', [bn + '_quantized', bn + '_scale', bn + '_zero_point'],
                                       [bn + '_DequantizeLinear_Output'], bn + '_DequantizeLinear', axis=0)
                new_nodes.append(dqb)
                weight_dq[(node.name, 2)] = dqb.output[0]

    # 3. Activation pairs: every reader of a quantized tensor reads its DequantizeLinear output.
    act_dq = {}
    for name in qparams:
        qn, dqn, out = qdq_pair(name)
        new_nodes += [qn, dqn]
        act_dq[name] = out
    for node in g.node:
        for i, name in enumerate(node.input):
            if (node.name, i) in weight_dq:
                node.input[i] = weight_dq[(node.name, i)]
            elif name in act_dq:
                node.input[i] = act_dq[name]
    for o in g.output:
        if o.name in act_dq:
            o.name = act_dq[o.name]

    # 4. Unused float weights out, new initializers in, nodes in topological order.
    g.initializer.extend(new_inits)
    nodes = list(g.node) + new_nodes
    produced = {i.name for i in g.input} | {t.name for t in g.initializer}
    ordered, pending = [], nodes
    while pending:
        rest = []
        for n in pending:
            if all((not i) or i in produced for i in n.input):
                ordered.append(n)
                produced.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):
            sys.exit('qdq.py: graph is not a DAG after quantization (%s)' % rest[0].name)
        pending = rest
    del g.node[:]
    g.node.extend(ordered)
    used = {i for n in g.node for i in n.input}
    kept = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(kept)
    del g.value_info[:]
    onnx.checker.check_model(model)
    onnx.save(model, out_path)
    print('qdq quantize: opset %d -> 13, %d BatchNormalization folded; %d activation pairs, '
          '%d weight/bias DequantizeLinear, %d Relu/Clip folded' %
          (opset, folded, len(act_dq), len(weight_dq), len(fused_act)))


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'augment':
        augment(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == 'quantize':
        quantize(*sys.argv[2:])
    else:
        sys.exit(__doc__)
