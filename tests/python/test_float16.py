"""The float16 path (config(float_dtype='float16'), the default as on the board): one model per op family
against a numpy oracle that computes the op in float64 on fp16-rounded inputs and weights and rounds the
result to fp16; per-op rounding inside a chain; fp16 overflow to inf, named by accuracy_analysis."""
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from rknn.api import RKNN


def half(a):
    """fp16 storage: the nearest float16 (ties to even, beyond 65504 to inf), back in float64."""
    with np.errstate(over="ignore"):
        return np.asarray(a, np.float64).astype(np.float16).astype(np.float64)


def save_model(directory, name, nodes, inputs, outputs, constants, opset=17):
    graph = helper.make_graph(nodes, name, inputs, outputs,
                              [numpy_helper.from_array(v.astype(np.float32), k) for k, v in constants.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    path = str(directory / (name + ".onnx"))
    onnx.save(model, path)
    return path


def run(path, x, float_dtype=None):
    rknn = RKNN()
    config = {} if float_dtype is None else {"float_dtype": float_dtype}
    assert rknn.config(target_platform="rk3588", **config) == 0
    assert rknn.load_onnx(path) == 0
    assert rknn.build(do_quantization=False) == 0
    assert rknn.init_runtime() == 0
    out = rknn.inference(inputs=[x], data_format=["nchw"])[0]
    rknn.release()
    return out.astype(np.float64)


def value_info(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape))


def conv_oracle(x, w, b):
    n, c, h, wd = x.shape
    m, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, m, h, wd))
    for i in range(h):
        for j in range(wd):
            y[0, :, i, j] = np.tensordot(w, xp[0, :, i:i + kh, j:j + kw], axes=([1, 2, 3], [0, 1, 2])) + b
    return y


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x, g, b):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * g + b


RNG = np.random.RandomState(11)
W_CONV = RNG.uniform(-1, 1, (8, 4, 3, 3))
B_CONV = RNG.uniform(-1, 1, (8,))
W_MM = RNG.uniform(-1, 1, (256, 24))  # a long reduction: fp32 accumulation inside the op
C_ADD = RNG.uniform(-3, 3, (1, 4, 1, 6))
GAMMA = RNG.uniform(0.5, 2, (6,))
BETA = RNG.uniform(-1, 1, (6,))

# name: (nodes, input shape, output shape, constants, oracle of (x, constants) in float64)
FAMILIES = {
    "conv": ([helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])], (1, 4, 6, 6), (1, 8, 6, 6),
             {"w": W_CONV, "b": B_CONV}, lambda x, c: conv_oracle(x, c["w"], c["b"])),
    "matmul": ([helper.make_node("MatMul", ["x", "w"], ["y"])], (1, 5, 256), (1, 5, 24), {"w": W_MM},
               lambda x, c: x @ c["w"]),
    "add": ([helper.make_node("Add", ["x", "c"], ["y"])], (1, 4, 5, 6), (1, 4, 5, 6), {"c": C_ADD},
            lambda x, c: x + c["c"]),
    "mul": ([helper.make_node("Mul", ["x", "c"], ["y"])], (1, 4, 5, 6), (1, 4, 5, 6), {"c": C_ADD},
            lambda x, c: x * c["c"]),
    "sigmoid": ([helper.make_node("Sigmoid", ["x"], ["y"])], (1, 4, 5, 6), (1, 4, 5, 6), {},
                lambda x, c: 1 / (1 + np.exp(-x))),
    "softmax": ([helper.make_node("Softmax", ["x"], ["y"], axis=-1)], (1, 4, 5, 6), (1, 4, 5, 6), {},
                lambda x, c: softmax(x)),
    "layernorm": ([helper.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1, epsilon=1e-5)],
                  (1, 4, 5, 6), (1, 4, 5, 6), {"g": GAMMA, "b": BETA},
                  lambda x, c: layer_norm(x, c["g"], c["b"])),
    "global_avg_pool": ([helper.make_node("GlobalAveragePool", ["x"], ["y"])], (1, 4, 5, 6), (1, 4, 1, 1), {},
                        lambda x, c: x.mean(axis=(2, 3), keepdims=True)),
    # Ops that only copy, choose or take |x| of fp16 values write fp16 values: the runtime does not round
    # after them (OpDef::keeps_half_values). A wrongly declared op would write other values here.
    "max_pool": ([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2])], (1, 4, 6, 6),
                 (1, 4, 3, 3), {}, lambda x, c: x.reshape(1, 4, 3, 2, 3, 2).max(axis=(3, 5))),
    "concat": ([helper.make_node("Concat", ["x", "c"], ["y"], axis=1)], (1, 4, 5, 6), (1, 5, 5, 6),
               {"c": C_ADD.reshape(1, 1, 4, 6).repeat(5, axis=2)[:, :, :5, :]},
               lambda x, c: np.concatenate([x, c["c"]], axis=1)),
    "transpose": ([helper.make_node("Transpose", ["x"], ["y"], perm=[0, 2, 3, 1])], (1, 4, 5, 6), (1, 5, 6, 4), {},
                  lambda x, c: x.transpose(0, 2, 3, 1)),
    "relu": ([helper.make_node("Relu", ["x"], ["y"])], (1, 4, 5, 6), (1, 4, 5, 6), {}, lambda x, c: np.maximum(x, 0)),
    "max": ([helper.make_node("Max", ["x", "c"], ["y"])], (1, 4, 5, 6), (1, 4, 5, 6), {"c": C_ADD},
            lambda x, c: np.maximum(x, c["c"])),
    "reduce_max": ([helper.make_node("ReduceMax", ["x"], ["y"], axes=[3])], (1, 4, 5, 6), (1, 4, 5, 1), {},
                   lambda x, c: x.max(axis=3, keepdims=True)),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_op_family_rounds_its_output_like_numpy_fp16(family, tmp_path):
    nodes, in_shape, out_shape, constants, oracle = FAMILIES[family]
    path = save_model(tmp_path, family, nodes, [value_info("x", in_shape)], [value_info("y", out_shape)], constants)
    x = np.random.RandomState(5).uniform(-3, 3, in_shape).astype(np.float32)
    # The board's numbers: inputs and weights stored in fp16, the op in (at least) fp32, its output in fp16.
    want = half(oracle(half(x), {k: half(v) for k, v in constants.items()}))
    got = run(path, x)  # float16 is the default
    assert np.array_equal(half(got), got), "outputs are not fp16 values"
    ulp = np.spacing(np.abs(want).astype(np.float16)).astype(np.float64)
    # Equal but where the float64 value sits within fp32's error of a tie between two fp16 neighbours.
    assert np.all(np.abs(got - want) <= ulp), np.max(np.abs(got - want) / ulp)
    assert np.mean(got == want) >= 0.99
    # float32 keeps ONNX's numbers: the same op without any fp16 rounding.
    exact = oracle(x.astype(np.float64), constants)
    got32 = run(path, x, "float32")
    np.testing.assert_allclose(got32, exact, rtol=2e-5, atol=2e-5)
    assert not np.array_equal(half(got32), got32)


def test_every_op_of_a_chain_rounds_not_just_the_last(tmp_path):
    # (x * k + 1000) - 1000: with fp16 storage the sum keeps steps of 0.5 (fp16's spacing at 1000), so the
    # result is x * k rounded to halves; rounding only the model's output would give x * k in fp16.
    nodes = [helper.make_node("Mul", ["x", "k"], ["a"]), helper.make_node("Add", ["a", "big"], ["b"]),
             helper.make_node("Sub", ["b", "big"], ["y"])]
    constants = {"k": np.array([0.3]), "big": np.array([1000.0])}
    path = save_model(tmp_path, "chain", nodes, [value_info("x", (1, 64))], [value_info("y", (1, 64))], constants)
    x = np.random.RandomState(2).uniform(-4, 4, (1, 64)).astype(np.float32)
    got = run(path, x)
    a = half(half(x) * half(0.3))
    want = half(half(a + 1000.0) - 1000.0)
    assert np.array_equal(got, want)
    assert np.all(np.fmod(got, 0.5) == 0) and not np.array_equal(got, a)


def test_large_activations_overflow_to_inf_and_accuracy_analysis_names_the_layer(tmp_path, capsys):
    # A LayerNorm over large activations: the MatMul before it reaches ~1e5, beyond fp16's 65504, so the
    # fp16 model's MatMul writes inf and the LayerNorm NaN; float32 stays finite.
    rng = np.random.RandomState(3)
    w = rng.uniform(-1, 1, (64, 16)) * 1000
    nodes = [helper.make_node("MatMul", ["x", "w"], ["big"], name="proj"),
             helper.make_node("LayerNormalization", ["big", "g", "b"], ["y"], axis=-1, name="norm")]
    constants = {"w": w, "g": np.ones(16), "b": np.zeros(16)}
    path = save_model(tmp_path, "overflow", nodes, [value_info("x", (1, 8, 64))], [value_info("y", (1, 8, 16))],
                      constants)
    x = rng.uniform(-10, 10, (1, 8, 64)).astype(np.float32)
    assert np.max(np.abs(x.astype(np.float64) @ w)) > 65504
    assert not np.all(np.isfinite(run(path, x)))
    assert np.all(np.isfinite(run(path, x, "float32")))
    sample = str(tmp_path / "x.npy")
    np.save(sample, x)
    rknn = RKNN()
    assert rknn.config(target_platform="rk3588") == 0
    assert rknn.load_onnx(path) == 0
    assert rknn.build(do_quantization=False) == 0
    capsys.readouterr()
    assert rknn.accuracy_analysis(inputs=[sample], output_dir=str(tmp_path / "snapshot")) == 0
    rknn.release()
    err = capsys.readouterr().err
    assert "first overflow: layer 'proj' (MatMul, float16)" in err, err
    text = open(os.path.join(str(tmp_path / "snapshot"), "error_analysis.txt")).read()
    assert "# first overflow: layer 'proj'" in text and "beyond fp16's 65504" in text
