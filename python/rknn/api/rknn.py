"""rknn-toolkit2's ``RKNN`` class (2.3.2 signatures and defaults) on npurt.

Conversion goes through npurt's compiler with the settings of ``npurt convert`` (the same fields and
checks, tools/npurt/convert_options.h), inference through librknnrt's C API on this machine. Methods
return 0 on success and -1 on failure with an ``E <method>: <reason>`` line on stderr, as the vendor's
do; ``inference`` returns None on failure. What npurt does with each parameter: docs/python.md.
"""
import os
import tempfile

from npurt import _npurt, session
from npurt._log import Log
from rknn.api import custom_op as custom_op_api
from rknn.api import hybrid

# The platforms npurt's compiler knows (compiler/emit/target_platform.h); rknn-toolkit2 2.3.2 also has
# rv1103b, rv1106b, rv1126b and rk2118, whose native layouts npurt does not model yet.
_PLATFORMS = ("rk3588", "rk3576", "rk3568", "rk3566", "rk3562", "rv1106", "rv1103")
_DTYPES = ("w8a8", "asymmetric_quantized-8")
_ALGORITHMS = ("normal", "mmse", "kl_divergence")
_METHODS = ("channel", "layer")


def _api(method):
    """Runs a method body; npurt errors become the vendor's -1 and an E line."""

    def wrap(fn):
        def call(self, *args, **kwargs):
            try:
                return fn(self, *args, **kwargs)
            except Exception as e:  # as the vendor's methods: every failure is a return value and an E line
                self._log.e(method, str(e.args[0]) if e.args else "%s" % type(e).__name__)
                return None if method == "inference" else -1

        call.__name__ = fn.__name__
        call.__doc__ = fn.__doc__
        return call

    return wrap


class RKNN(session.CoreMasks):
    def __init__(self, verbose=False, verbose_file=None):
        self._log = Log(verbose, verbose_file)
        self._args = _npurt.ConvertArgs()
        self._args.target_platform = "rk3588"
        self._auto_hybrid_cos = 0.98
        self._quantized_algorithm = "normal"  # build(do_quantization=True) only: npurt convert
        self._quantized_method = "channel"    # rejects them without --quantize
        self._quant_img_rgb2bgr = []          # per input: calibration images decoded as BGR
        self._loaded = None      # load_onnx: {'inputs': [(name, shape)], 'outputs': [name]}
        self._model = None       # model file bytes (build or load_rknn)
        self._float_model = None  # build(do_quantization=True): the float reference for accuracy_analysis
        self._session = None
        self._custom_ops = {}     # reg_custom_op: op_type -> the registered object
        self._custom_dir = None   # the model annotated with the custom ops' output shapes

    # ---- configuration and loading ----

    @_api("config")
    def config(self, mean_values=None, std_values=None, quant_img_RGB2BGR=False, quantized_dtype="w8a8",
               quantized_algorithm="normal", quantized_method="channel", quantized_hybrid_level=0,
               target_platform=None, quantize_weight=False, custom_string=None, remove_weight=False,
               compress_weight=False, inputs_yuv_fmt=None, single_core_mode=False, dynamic_input=None,
               model_pruning=False, op_target=None, remove_reshape=False, sparse_infer=False,
               enable_flash_attention=False, float_dtype="float16", optimization_level=3,
               auto_hybrid_cos_thresh=0.98, auto_hybrid_euc_thresh=None, **kwargs):
        """Conversion settings; npurt implements the mean/std normalization, quantized dtype, algorithm
        and method, target platform, custom string, dynamic input, float dtype (float16, the default as on
        the board, or float32) and the auto-hybrid threshold; the
        others are accepted and warn once that they change nothing on npurt."""
        # Everything is checked before anything changes: a failed config leaves the previous settings.
        args = self._args
        means = _per_input_values(mean_values, "mean_values") if mean_values is not None else None
        stds = _per_input_values(std_values, "std_values") if std_values is not None else None
        if quantized_dtype not in _DTYPES:
            raise _npurt.Error("quantized_dtype '%s' is not supported by npurt (w8a8 / asymmetric_quantized-8)"
                               % quantized_dtype)
        if quantized_algorithm not in _ALGORITHMS:
            raise _npurt.Error("quantized_algorithm '%s': expected one of %s" % (quantized_algorithm,
                                                                               ", ".join(_ALGORITHMS)))
        if quantized_method not in _METHODS:
            raise _npurt.Error("quantized_method '%s': expected one of %s" % (quantized_method, ", ".join(_METHODS)))
        platform = str(target_platform).lower() if target_platform is not None else None
        if platform is not None and platform not in _PLATFORMS:
            raise _npurt.Error("target_platform '%s': expected one of %s" % (target_platform, ", ".join(_PLATFORMS)))
        dynamic = None
        if dynamic_input is not None:
            dynamic = [";".join(",".join(str(int(d)) for d in shape) for shape in shape_set)
                       for shape_set in dynamic_input]
        if optimization_level not in (0, 1, 2, 3):
            raise _npurt.Error("optimization_level %r: expected 0, 1, 2 or 3" % (optimization_level,))
        if float_dtype not in ("float16", "float32"):
            raise _npurt.Error("float_dtype %r: expected 'float16' or 'float32'" % (float_dtype,))
        cos_thresh = float(auto_hybrid_cos_thresh)
        flags = quant_img_RGB2BGR if isinstance(quant_img_RGB2BGR, (list, tuple)) else [quant_img_RGB2BGR]

        if means is not None:
            args.mean_values = means
        if stds is not None:
            args.std_values = stds
        self._quantized_algorithm = quantized_algorithm
        self._quantized_method = quantized_method
        if platform is not None:
            args.target_platform = platform
        if custom_string is not None:
            args.custom_string = str(custom_string)
        if dynamic is not None:
            args.dynamic_input = dynamic
        args.float_dtype = float_dtype
        self._auto_hybrid_cos = cos_thresh
        self._quant_img_rgb2bgr = [bool(flag) for flag in flags] if any(flags) else []
        ignored = {"quantized_hybrid_level": (quantized_hybrid_level, 0), "quantize_weight": (quantize_weight, False),
                   "remove_weight": (remove_weight, False), "compress_weight": (compress_weight, False),
                   "inputs_yuv_fmt": (inputs_yuv_fmt, None), "single_core_mode": (single_core_mode, False),
                   "model_pruning": (model_pruning, False), "op_target": (op_target, None),
                   "remove_reshape": (remove_reshape, False), "sparse_infer": (sparse_infer, False),
                   "enable_flash_attention": (enable_flash_attention, False),
                   "auto_hybrid_euc_thresh": (auto_hybrid_euc_thresh, None)}
        for name, (value, default) in sorted(ignored.items()):
            if value != default:
                self._log.w_once("config", "%s=%r has no effect on npurt" % (name, value))
        for name in sorted(kwargs):
            self._log.w_once("config", "unknown parameter '%s' ignored" % name)
        self._log.i("config: %s" % _describe(args))
        return 0

    @_api("load_onnx")
    def load_onnx(self, model, inputs=None, input_size_list=None, input_initial_val=None, outputs=None):
        """Imports and checks an ONNX model; `inputs` + `input_size_list` fix (or cut at) input tensors
        and their shapes, `outputs` cuts the graph at these tensors."""
        self._loaded = self._model = self._float_model = None  # a failed load leaves no model behind
        if not isinstance(model, str) or not os.path.isfile(model):
            raise _npurt.Error("model file '%s' does not exist" % (model,))
        args = self._args
        args.model = model
        args.inputs = list(inputs) if inputs is not None else []
        args.outputs = list(outputs) if outputs is not None else []
        args.input_shapes = []
        if input_size_list is not None:
            if inputs is None or len(inputs) != len(input_size_list):
                raise _npurt.Error("input_size_list needs 'inputs' with one name per entry")
            args.input_shapes = ["%s:%s" % (name, ",".join(str(int(d)) for d in size))
                                 for name, size in zip(inputs, input_size_list)]
        if input_initial_val is not None:
            self._log.w_once("load_onnx", "input_initial_val has no effect on npurt")
        args.custom_ops = sorted(self._custom_ops)
        if self._custom_ops:
            # The custom nodes' output shapes, from their shape_infer, written into a copy of the model.
            self._custom_dir = tempfile.TemporaryDirectory(prefix="npurt_custom_op_")
            annotated = os.path.join(self._custom_dir.name, os.path.basename(model))
            sizes = dict(zip(inputs, input_size_list)) if input_size_list is not None else {}
            custom_op_api.annotate(model, self._custom_ops, sizes, annotated)
            args.model = annotated
        self._loaded = _npurt.import_model(args)
        self._log.i("load_onnx: %s, inputs %s, outputs %s" % (model, self._loaded["inputs"], self._loaded["outputs"]))
        return 0

    @_api("build")
    def build(self, do_quantization=True, dataset="dataset.txt", rknn_batch_size=None, auto_hybrid=False):
        """Converts the loaded model; with do_quantization, calibrates on `dataset` (one sample per line)
        and quantizes with npurt's default recipe (docs/quantization.md)."""
        self._prepare_build(do_quantization, dataset, rknn_batch_size, auto_hybrid)
        self._run_build()
        return 0

    def _prepare_build(self, do_quantization, dataset, rknn_batch_size, auto_hybrid):
        """The settings of build(...) in self._args."""
        if self._loaded is None:
            raise _npurt.Error("no model loaded: call load_onnx first")
        args = self._args
        args.quantize = bool(do_quantization)
        args.dataset = dataset if do_quantization else ""
        if do_quantization and (not isinstance(dataset, str) or not os.path.isfile(dataset)):
            raise _npurt.Error("dataset '%s' does not exist" % (dataset,))
        args.quantized_algorithm = self._quantized_algorithm if do_quantization else ""
        args.quantized_method = self._quantized_method if do_quantization else ""
        args.quant_img_rgb2bgr = [str(flag).lower() for flag in self._quant_img_rgb2bgr] if do_quantization else []
        args.batch_size = -1 if rknn_batch_size in (None, -1) else int(rknn_batch_size)
        args.auto_hybrid = self._auto_hybrid_cos if auto_hybrid and do_quantization else -1.0

    def _run_build(self):
        """Converts with self._args: the model file (and, quantized, its float reference)."""
        result = _npurt.build(self._args)
        self._model = result["model"]
        # The float32 reference: of an int8 model, or of a float model built in float16.
        self._float_model = result["float_model"] if result["float_model"] else None
        self._build_report = result
        if result["quantized"]:
            self._log.i("build: int8, calibrated on %d samples: %d ops int8, %d float" % (
                result["calibration_samples"], result["int8_nodes"], result["float_nodes"]))

    # ---- what npurt does not do: the vendor's methods fail with their reason ----

    def _onnx_only(self, method):
        self._log.e(method, "npurt converts ONNX models only: export the model to ONNX and use load_onnx")
        return -1

    def load_pytorch(self, model, input_size_list=None, **kwargs):
        return self._onnx_only("load_pytorch")

    def load_tflite(self, model, input_is_nchw=False, **kwargs):
        return self._onnx_only("load_tflite")

    def load_tensorflow(self, tf_pb, inputs=None, input_size_list=None, outputs=None, **kwargs):
        return self._onnx_only("load_tensorflow")

    def load_caffe(self, model, blobs=None, input_name=None, **kwargs):
        return self._onnx_only("load_caffe")

    def load_darknet(self, model, weight=None, **kwargs):
        return self._onnx_only("load_darknet")

    def export_encrypted_rknn_model(self, input_model, output_model=None, crypt_level=1):
        self._log.e("export_encrypted_rknn_model", "npurt does not encrypt models")
        return -1

    def codegen(self, output_path, inputs=None, overwrite=False):
        self._log.e("codegen", "npurt does not generate C++ projects: see examples/ for board-style programs")
        return -1

    @_api("reg_custom_op")
    def reg_custom_op(self, custom_op):
        """Registers a custom op class (op_type, shape_infer, compute) before load_onnx: its nodes become custom
        ops of the model, computed on the board -- and by npurt's runtime -- by the callbacks the application
        registers (rknn_custom_op.h). compute is not called: npurt does not simulate custom ops."""
        op = custom_op_api.check(custom_op)
        if self._loaded is not None:
            raise _npurt.Error("reg_custom_op comes before load_onnx")
        self._custom_ops[op.op_type] = op
        if getattr(op, "compute", None) is not None:
            self._log.w_once("reg_custom_op", "npurt does not run a custom op's Python compute: init_runtime and "
                                              "build(do_quantization=True) need the op's C callbacks")
        return 0

    def list_devices(self):
        """No boards: npurt runs models on this machine."""
        self._log.w_once("list_devices", "npurt has no board connection: no devices")
        return [], []

    @_api("hybrid_quantization_step1")
    def hybrid_quantization_step1(self, dataset=None, rknn_batch_size=None, proposal=False, proposal_dataset_size=1,
                                  custom_hybrid=None):
        """Quantizes the loaded model and writes <name>.model, <name>.data and <name>.quantization.cfg in the
        working directory; edit the cfg's custom_quantize_layers, then call hybrid_quantization_step2."""
        if dataset is None:
            raise _npurt.Error("hybrid_quantization_step1 needs a dataset")
        if custom_hybrid is not None:
            self._log.w_once("hybrid_quantization_step1", "custom_hybrid has no effect on npurt: name the layers in "
                                                          "the cfg's custom_quantize_layers")
        self._prepare_build(True, dataset, rknn_batch_size, False)
        self._run_build()
        prefix = os.path.splitext(os.path.basename(self._args.model))[0]
        paths = hybrid.step1(self._args, self._build_report, len(self._loaded["inputs"]), proposal_dataset_size,
                             proposal, self._auto_hybrid_cos, prefix)
        self._log.i("hybrid_quantization_step1: wrote %s" % ", ".join(paths))
        return 0

    @_api("hybrid_quantization_step2")
    def hybrid_quantization_step2(self, model_input, data_input, model_quantization_cfg):
        """Builds the model of step 1 with the cfg's custom_quantize_layers in float / int16; then export_rknn,
        init_runtime and accuracy_analysis work as after build."""
        args = hybrid.step2_args(model_input, data_input, model_quantization_cfg)
        self._args = args
        self._loaded = _npurt.import_model(args)
        self._quant_img_rgb2bgr = [flag == "true" for flag in args.quant_img_rgb2bgr]
        self._run_build()
        return 0

    @_api("export_rknn")
    def export_rknn(self, export_path, **kwargs):
        """Writes the built (or loaded) model file."""
        if self._model is None:
            raise _npurt.Error("no model to export: call build (or load_rknn) first")
        for name in sorted(kwargs):
            self._log.w_once("export_rknn", "%s has no effect on npurt" % name)
        directory = os.path.dirname(os.path.abspath(export_path))
        os.makedirs(directory, exist_ok=True)
        with open(export_path, "wb") as f:
            f.write(self._model)
        return 0

    @_api("load_rknn")
    def load_rknn(self, path):
        """Reads a model file; unlike the vendor's toolkit, init_runtime then runs it on this machine."""
        self._model = session.read_model(path)
        self._float_model = None
        self._loaded = None
        return 0

    # ---- runtime ----

    @_api("init_runtime")
    def init_runtime(self, target=None, target_sub_class=None, device_id=None, perf_debug=False, eval_mem=False,
                     async_mode=False, core_mask=session.NPU_CORE_AUTO, fallback_prior_device="cpu"):
        """Initializes the model on this machine (target=None: npurt is the simulator; a board name runs
        here too, with a warning, since npurt has no board connection)."""
        if self._model is None:
            raise _npurt.Error("no model: call build or load_rknn first")
        if target is not None:
            self._log.w_once("init_runtime", "target '%s': npurt has no board connection; the model runs on this "
                                             "machine" % target)
        if device_id is not None or target_sub_class is not None:
            self._log.w_once("init_runtime", "device_id / target_sub_class have no effect on npurt")
        if self._session is not None:
            self._session.release()
            self._session = None
        self._session = session.Session(self._model, core_mask=core_mask, perf_debug=perf_debug,
                                        async_mode=async_mode)
        self._eval_mem = bool(eval_mem)
        return 0

    @_api("inference")
    def inference(self, inputs, data_format=None, inputs_pass_through=None, get_frame_id=False):
        """One run: a list of float32 arrays, one per output (None on failure)."""
        if self._session is None:
            raise _npurt.Error("the runtime is not initialized: call init_runtime first")
        outputs = self._session.inference(inputs, data_format, inputs_pass_through)
        if get_frame_id:
            outputs.append(self._session.frames)
        return outputs

    @_api("eval_perf")
    def eval_perf(self, is_print=True, fix_freq=True):
        """Times the model on this machine: per-layer times (perf_debug=True) and the total, as text."""
        if self._session is None:
            raise _npurt.Error("the runtime is not initialized: call init_runtime first")
        median_us, detail = self._session.eval_perf()
        text = session.format_perf(median_us, detail)
        if is_print:
            print(text)
        return text

    @_api("eval_memory")
    def eval_memory(self, is_print=True):
        """Memory of the initialized model, in bytes, under rknn-toolkit2's keys."""
        if self._session is None:
            raise _npurt.Error("the runtime is not initialized: call init_runtime first")
        if not self._eval_mem:
            raise _npurt.Error("init_runtime was called without eval_mem=True")
        mem = self._session.eval_memory()
        if is_print:
            for key in ("weight_memory", "internal_memory", "other_memory", "total_memory"):
                print("%-16s %10.2f KiB" % (key, mem[key] / 1024.0))
        return mem

    @_api("accuracy_analysis")
    def accuracy_analysis(self, inputs, output_dir="./snapshot", target=None, device_id=None):
        """Layer-by-layer comparison of the int8 (or float16) model with its float32 model on one sample
        (`inputs`: one image or .npy path per model input): output_dir/error_analysis.txt (.csv, .html).
        The log names the first layer that overflowed fp16 or fell below cosine 0.999."""
        if self._float_model is None:
            raise _npurt.Error("accuracy_analysis needs a model built in this object, with do_quantization=True "
                               "or in float16 (config(float_dtype='float16'), the default)")
        if target is not None:
            self._log.w_once("accuracy_analysis", "target '%s': npurt has no board; the simulator column only" % target)
        if isinstance(inputs, str):
            inputs = [inputs]
        for path in inputs:
            if not isinstance(path, str):
                raise _npurt.Error("inputs must be image or .npy paths, got %s" % type(path).__name__)
        swap = self._quant_img_rgb2bgr
        report = _npurt.analyze_accuracy(self._float_model, self._model, len(self._loaded["inputs"]), [list(inputs)],
                                         swap, output_dir, "accuracy_analysis: " + self._args.model)
        for o in report["outputs"]:
            self._log.i("accuracy_analysis: output '%s' cos %.6f euc %.5g" % (o["name"], o["cos"], o["euc"]))
        for line in report["first_departures"].splitlines():
            self._log.w("accuracy_analysis", line)
        return 0

    @_api("get_sdk_version")
    def get_sdk_version(self):
        """The runtime's API and driver versions (needs init_runtime, as on the board)."""
        if self._session is None:
            raise _npurt.Error("the runtime is not initialized: call init_runtime first")
        return self._session.sdk_version()

    def release(self):
        """Frees the runtime and the models."""
        if self._session is not None:
            self._session.release()
            self._session = None
        self._model = self._float_model = self._loaded = None
        self._log.close()


def _per_input_values(values, what):
    """[[a, b, c], ...] (one list per input) or [a, b, c] (one input) -> "a,b,c" strings."""
    if not isinstance(values, (list, tuple)):
        raise _npurt.Error("%s must be a list of per-input lists, e.g. [[128, 128, 128]]" % what)
    if values and not isinstance(values[0], (list, tuple)):
        values = [values]
    out = []
    for v in values:
        if not isinstance(v, (list, tuple)):
            raise _npurt.Error("%s must be a list of per-input lists, e.g. [[128, 128, 128]]" % what)
        out.append(",".join(repr(float(x)) for x in v))
    return out


def _describe(args):
    return "target %s, mean %s, std %s" % (args.target_platform, args.mean_values, args.std_values)
