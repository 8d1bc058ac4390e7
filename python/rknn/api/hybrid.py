"""rknn-toolkit2's two-step hybrid quantization, on npurt.

Step 1 quantizes as build() does and writes three files named after the model:
  <name>.model               the conversion settings, in ``npurt convert --config`` YAML (absolute paths),
  <name>.data                the int8 model of step 1 (a runnable npurt model file),
  <name>.quantization.cfg    YAML whose ``custom_quantize_layers`` the user edits: layer name -> float16 /
                             float32 (kept in float) or int16 (int16 activations); with proposal=True it
                             starts with the layers whose own error is above auto_hybrid_cos_thresh. Every
                             quantized layer is listed in comments with the cosine it keeps alone
                             ("single", docs/accuracy.md), worst first.
Step 2 reads them back and builds with those layers moved (npurt convert's --float-layers /
--int16-layers).
"""
import os
import tempfile

import yaml

from npurt import _npurt

_FLOAT = ("float16", "float32", "float")
_INT16 = ("int16",)


def dataset_lines(dataset, count):
    """The first `count` samples of a dataset file (each a list of paths), resolved against its directory."""
    base = os.path.dirname(os.path.abspath(dataset))
    lines = []
    with open(dataset, encoding="utf-8") as f:
        for raw in f:
            paths = raw.split()
            if not paths:
                continue
            lines.append([p if os.path.isabs(p) else os.path.join(base, p) for p in paths])
            if len(lines) == count:
                break
    if not lines:
        raise _npurt.Error("dataset '%s' has no samples" % dataset)
    return lines


def settings_yaml(args):
    """ConvertArgs as an `npurt convert --config` file that _npurt.load_config reads back."""
    settings = {"model": os.path.abspath(args.model), "target_platform": args.target_platform, "quantize": True,
                "dataset": os.path.abspath(args.dataset)}
    # Per-input value lists nested, so that one-channel inputs read back as one list each.
    for key in ("mean_values", "std_values"):
        if getattr(args, key):
            settings[key] = [[float(v) for v in text.split(",") if v.strip()] for text in getattr(args, key)]
    if args.dynamic_input:
        settings["dynamic_input"] = [[[int(d) for d in shape.split(",")] for shape in shape_set.split(";")]
                                     for shape_set in args.dynamic_input]
    if args.inputs:
        settings["inputs"] = list(args.inputs)
    if args.outputs:
        settings["outputs"] = list(args.outputs)
    if args.input_shapes:
        settings["input_shapes"] = {s.rsplit(":", 1)[0]: s.rsplit(":", 1)[1] for s in args.input_shapes}
    if args.custom_string:
        settings["custom_string"] = args.custom_string
    if args.float_dtype:
        settings["float_dtype"] = args.float_dtype
    if args.batch_size > 0:
        settings["rknn_batch_size"] = args.batch_size
    for key in ("quantized_algorithm", "quantized_method"):
        if getattr(args, key):
            settings[key] = getattr(args, key)
    if args.quant_img_rgb2bgr:
        settings["quant_img_RGB2BGR"] = list(args.quant_img_rgb2bgr)
    return "# npurt hybrid_quantization_step1: the conversion settings (npurt convert --config)\n" + \
        yaml.safe_dump(settings, sort_keys=False)


def step1(args, build, num_inputs, proposal_dataset_size, proposal, threshold, prefix):
    """Writes the three files for `args` (quantize on, dataset set) and `build` (_npurt.build's result);
    returns their paths."""
    samples = dataset_lines(args.dataset, max(1, int(proposal_dataset_size)))
    swap = [flag == "true" for flag in args.quant_img_rgb2bgr]
    with tempfile.TemporaryDirectory() as scratch:
        report = _npurt.analyze_accuracy(build["float_model"], build["model"], num_inputs, samples, swap, scratch,
                                         "hybrid_quantization_step1")
    layers = [l for l in report["layers"] if l["op_type"] not in ("QuantizeLinear", "DequantizeLinear")]
    layers.sort(key=lambda l: l["single"]["cos"])
    proposed = {l["node"]: "float16" for l in layers if proposal and l["single"]["cos"] < threshold}
    lines = ["# npurt hybrid quantization: edit custom_quantize_layers, then call hybrid_quantization_step2.",
             "# A layer maps to float16 / float32 (kept in float) or int16 (int16 activations); the others stay",
             "# as step 1 quantized them. Layers by the cosine each keeps alone on %d sample(s), worst first:" %
             len(samples)]
    lines += ["#   %-48s %-20s %-8s %.6f" % (l["node"], l["op_type"], l["precision"], l["single"]["cos"])
              for l in layers]
    body = yaml.safe_dump({"custom_quantize_layers": proposed}, sort_keys=False)
    paths = (prefix + ".model", prefix + ".data", prefix + ".quantization.cfg")
    with open(paths[0], "w", encoding="utf-8") as f:
        f.write(settings_yaml(args))
    with open(paths[1], "wb") as f:
        f.write(build["model"])
    with open(paths[2], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n" + body)
    return paths


def step2_args(model_input, data_input, model_quantization_cfg):
    """The settings of step 1 with the cfg's layers moved to float / int16."""
    if not os.path.isfile(data_input):
        raise _npurt.Error("data_input '%s' does not exist (hybrid_quantization_step1 writes it)" % data_input)
    args = _npurt.load_config(model_input, "hybrid_quantization_step2")
    try:
        with open(model_quantization_cfg, encoding="utf-8") as f:
            cfg = yaml.safe_load(f) or {}
    except OSError as e:
        raise _npurt.Error("cannot read '%s': %s" % (model_quantization_cfg, e.strerror))
    except yaml.YAMLError as e:
        raise _npurt.Error("'%s' is not valid YAML: %s" % (model_quantization_cfg, e))
    layers = cfg.get("custom_quantize_layers") or {} if isinstance(cfg, dict) else None
    if not isinstance(layers, dict):
        raise _npurt.Error("'%s': custom_quantize_layers must map layer names to float16 / int16" %
                           model_quantization_cfg)
    float_layers, int16_layers = [], []
    for name, dtype in layers.items():
        if str(dtype) in _FLOAT:
            float_layers.append(str(name))
        elif str(dtype) in _INT16:
            int16_layers.append(str(name))
        else:
            raise _npurt.Error("'%s': layer '%s' -> '%s': expected float16, float32 or int16" %
                               (model_quantization_cfg, name, dtype))
    args.float_layers = float_layers
    args.int16_layers = int16_layers
    args.quantize = True
    return args
