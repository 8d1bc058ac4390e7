"""rknn-toolkit2's custom operators on npurt's converter (``RKNN.reg_custom_op``).

A registered class names an ``op_type`` and gives ``shape_infer(node, in_shapes, in_dtypes)`` ->
``(out_shapes, out_dtypes)``; ``compute(node, inputs)`` is the vendor simulator's and is not called here
(npurt's runtime calls the application's C callbacks, rknn_custom_op.h). Before conversion the ONNX model
is given the output types and shapes of every custom node -- ONNX's shape inference cannot see inside
them -- by running ``shape_infer`` in graph order; the converter then records them (docs/c_api.md,
"Custom operators").
"""
import numpy as np

try:
    import onnx
    from onnx import helper, mapping, shape_inference
except ImportError:  # the toolkit works without python3-onnx until a custom op is registered
    onnx = None


def _np_dtype(elem_type):
    return mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type]  # onnx 1.12 (Debian 12); helper has it from 1.13


def _elem_type(dtype):
    return mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


def get_node_attr(node, attr_name):
    """The value of attribute ``attr_name`` of ONNX ``node`` (None when absent), as the vendor's helper."""
    for a in node.attribute:
        if a.name == attr_name:
            value = helper.get_attribute_value(a)
            return value.decode("utf-8") if isinstance(value, bytes) else value
    return None


def check(custom_op):
    """The registered object (a class is instantiated), or a ValueError naming what it lacks."""
    op = custom_op() if isinstance(custom_op, type) else custom_op
    op_type = getattr(op, "op_type", None)
    if not isinstance(op_type, str) or not op_type:
        raise ValueError("a custom op needs a non-empty string attribute 'op_type'")
    if not callable(getattr(op, "shape_infer", None)):
        raise ValueError("custom op '%s' needs shape_infer(node, in_shapes, in_dtypes)" % op_type)
    return op


def _known(model):
    """name -> (shape list, numpy dtype) of every typed tensor with a static shape."""
    known = {}
    g = model.graph
    for t in g.initializer:
        known[t.name] = (list(t.dims), _np_dtype(t.data_type))
    for v in list(g.input) + list(g.value_info) + list(g.output):
        tt = v.type.tensor_type
        if not v.type.HasField("tensor_type") or not tt.HasField("shape") or tt.elem_type == 0:
            continue
        dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
        if None not in dims:
            known[v.name] = (dims, _np_dtype(tt.elem_type))
    return known


def annotate(path, ops, input_shapes, out_path):
    """Writes ``path``'s model to ``out_path`` with value_info for every output of the nodes whose op_type
    is in ``ops`` (op_type -> registered object); ``input_shapes`` (name -> shape) fixes dynamic inputs."""
    if onnx is None:
        raise RuntimeError("custom ops need python3-onnx (apt-get install python3-onnx)")
    model = onnx.load(path)
    for inp in model.graph.input:
        if inp.name in input_shapes:
            dims = inp.type.tensor_type.shape.dim
            for d, v in zip(dims, input_shapes[inp.name]):
                d.ClearField("dim_param")
                d.dim_value = int(v)
    for node in model.graph.node:
        if node.op_type not in ops:
            continue
        model = shape_inference.infer_shapes(model)
        known = _known(model)
        missing = [i for i in node.input if i and i not in known]
        if missing:
            raise RuntimeError("custom op node '%s' (%s): input %s has no static shape; give the model's input sizes"
                               % (node.name, node.op_type, missing[0]))
        in_shapes = [known[i][0] for i in node.input if i]
        in_dtypes = [known[i][1] for i in node.input if i]
        out_shapes, out_dtypes = ops[node.op_type].shape_infer(node, in_shapes, in_dtypes)
        outputs = [o for o in node.output if o]
        if len(out_shapes) != len(outputs) or len(out_dtypes) != len(outputs):
            raise RuntimeError("custom op '%s' shape_infer gave %d shapes and %d types for %d outputs"
                               % (node.op_type, len(out_shapes), len(out_dtypes), len(outputs)))
        declared = {v.name for v in model.graph.value_info}
        for name, shape, dtype in zip(outputs, out_shapes, out_dtypes):
            if name in declared:
                continue
            model.graph.value_info.append(helper.make_tensor_value_info(name, _elem_type(dtype), [int(d) for d in shape]))
    onnx.save(model, out_path)
