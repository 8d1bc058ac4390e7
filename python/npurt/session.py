"""The runtime half shared by rknn.api.RKNN and rknnlite.api.RKNNLite: one npurt._npurt.Runtime
(an rknn_context over librknnrt's C API) with the vendor's argument conventions for inference,
performance and memory queries."""
import numpy as np

from npurt import _npurt

# rknn_core_mask values (the same numbers as the C enum and the vendor's class constants).
NPU_CORE_AUTO = 0
NPU_CORE_0 = 1
NPU_CORE_1 = 2
NPU_CORE_2 = 4
NPU_CORE_0_1 = 3
NPU_CORE_0_1_2 = 7
NPU_CORE_ALL = 0xFFFF
_CORE_MASKS = (NPU_CORE_AUTO, NPU_CORE_0, NPU_CORE_1, NPU_CORE_2, NPU_CORE_0_1, NPU_CORE_0_1_2, NPU_CORE_ALL)


class CoreMasks:
    """The vendor classes' NPU_CORE_* constants (RKNN and RKNNLite inherit them)."""
    NPU_CORE_AUTO = NPU_CORE_AUTO
    NPU_CORE_0 = NPU_CORE_0
    NPU_CORE_1 = NPU_CORE_1
    NPU_CORE_2 = NPU_CORE_2
    NPU_CORE_0_1 = NPU_CORE_0_1
    NPU_CORE_0_1_2 = NPU_CORE_0_1_2
    NPU_CORE_ALL = NPU_CORE_ALL


def read_model(path):
    """A model file's bytes, checked as rknn_init(RKNN_FLAG_COLLECT_MODEL_INFO_ONLY) checks them."""
    with open(path, "rb") as f:
        model = f.read()
    _npurt.Runtime(model, _npurt.RKNN_FLAG_COLLECT_MODEL_INFO_ONLY).release()
    return model


class Session:
    """One initialized model. Raises npurt.Error / npurt.RknnError; the classes above turn them into
    the vendor's return values."""

    def __init__(self, model_bytes, core_mask=NPU_CORE_AUTO, perf_debug=False, async_mode=False):
        if core_mask not in _CORE_MASKS:
            raise _npurt.Error("core_mask %r is not one of NPU_CORE_AUTO, _0, _1, _2, _0_1, _0_1_2, _ALL" % (core_mask,))
        flags = 0
        if perf_debug:
            flags |= _npurt.RKNN_FLAG_COLLECT_PERF_MASK
        if async_mode:
            flags |= _npurt.RKNN_FLAG_ASYNC_MASK
        self.perf_debug = bool(perf_debug)
        self.runtime = _npurt.Runtime(model_bytes, flags)
        if core_mask != NPU_CORE_AUTO:
            self.runtime.set_core_mask(core_mask)
        self.frames = 0

    @property
    def inputs(self):
        """The inputs' attributes (of the current shape set for a dynamic-shape model)."""
        return self.runtime.input_attrs()

    @property
    def outputs(self):
        return self.runtime.output_attrs()

    def inference(self, inputs, data_format=None, inputs_pass_through=None, data_type=None):
        """Float32 outputs of one run. `inputs`: one array or a list (model input order);
        `data_format`: None (nhwc), 'nhwc' / 'nchw', or one per input; `inputs_pass_through`: 0 / 1 per
        input; `data_type` (RKNNLite): the numpy type the inputs are converted to first."""
        if isinstance(inputs, np.ndarray):
            inputs = [inputs]
        if not isinstance(inputs, (list, tuple)):
            raise _npurt.Error("inputs must be a list of numpy arrays, got %s" % type(inputs).__name__)
        arrays = []
        for i, x in enumerate(inputs):
            if not isinstance(x, np.ndarray):
                try:
                    x = np.asarray(x)
                except Exception as e:  # a list that is not rectangular, an object...
                    raise _npurt.Error("input %d is not array-like: %s" % (i, e))
            if data_type is not None:
                x = x.astype(_numpy_type(data_type), copy=False)
            arrays.append(x)
        count = len(arrays)
        formats = _per_input(data_format, count, "data_format", str)
        formats = ["" if f is None else f.lower() for f in formats]
        pass_through = _per_input(inputs_pass_through, count, "inputs_pass_through", int)
        pass_through = [0 if p is None else int(p) for p in pass_through]
        outputs = self.runtime.inference(arrays, formats, pass_through)
        self.frames += 1
        return outputs

    def eval_perf(self, loops=5):
        """Times `loops` runs on zeros in the inputs' reported shapes and layouts; per-layer lines when the
        model was initialized with perf_debug."""
        attrs = self.inputs
        zeros = [np.zeros(a["dims"], dtype=np.float32) for a in attrs]
        formats = [a["fmt"].lower() if a["fmt"] in ("NCHW", "NHWC") else None for a in attrs]
        times = []
        for _ in range(loops):
            self.inference(zeros, data_format=formats)
            times.append(self.runtime.perf_run_us())
        return sorted(times)[len(times) // 2], self.runtime.perf_detail() if self.perf_debug else ""

    def eval_memory(self):
        """rknn-toolkit2's eval_memory keys, in bytes: weights, the intermediate tensors' arena, the
        inputs and outputs (other), and their total."""
        mem = self.runtime.mem_size()
        weight = int(mem["total_weight_size"])
        internal = int(mem["total_internal_size"])
        other = sum(int(a["size"]) for a in self.inputs) + sum(int(a["size"]) for a in self.outputs)
        return {
            "weight_memory": weight,
            "internal_memory": internal,
            "other_memory": other,
            "total_memory": weight + internal + other,
        }

    def sdk_version(self):
        api, drv = self.runtime.sdk_version()
        return "API: %s\nDRV: %s" % (api, drv)

    def release(self):
        self.runtime.release()


def _per_input(value, count, what, kind):
    if value is None:
        return [None] * count
    if isinstance(value, (str, int)):
        if not isinstance(value, kind):
            raise _npurt.Error("%s must be %s or a list of them, got %r" % (what, kind.__name__, value))
        return [value] * count
    if not isinstance(value, (list, tuple)):
        raise _npurt.Error("%s must be %s or a list of them, got %r" % (what, kind.__name__, value))
    value = list(value)
    if len(value) != count:
        raise _npurt.Error("%s has %d entries for %d input(s)" % (what, len(value), count))
    for v in value:
        if v is not None and not isinstance(v, kind):
            raise _npurt.Error("%s entries must be %s, got %r" % (what, kind.__name__, v))
    return value


_TYPES = {"int8": np.int8, "uint8": np.uint8, "int16": np.int16, "float16": np.float16, "float32": np.float32}


def _numpy_type(data_type):
    if isinstance(data_type, str):
        if data_type not in _TYPES:
            raise _npurt.Error("data_type '%s': expected one of %s" % (data_type, ", ".join(sorted(_TYPES))))
        return _TYPES[data_type]
    return np.dtype(data_type)


def format_perf(median_us, detail):
    """eval_perf's text: the per-layer table (perf_debug) and the total."""
    lines = []
    if detail:
        lines.append(detail.rstrip("\n"))
    lines.append("Total Time(us): %d" % median_us)
    lines.append("FPS: %.2f" % (1e6 / median_us if median_us > 0 else 0.0))
    return "\n".join(lines)
