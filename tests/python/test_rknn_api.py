"""rknn.api.RKNN on npurt: every method on a small model against a numpy oracle, the errors the vendor
reports with -1 / None, and a toolkit2-style script on PP-OCR's classifier against `npurt convert`."""
import os
import pickle
import subprocess

import numpy as np
import pytest

from rknn.api import RKNN
from rknnlite.api import RKNNLite

MEAN = [10.0, 20.0, 30.0]
STD = [50.0, 60.0, 70.0]


def built_float(conv_relu, **config):
    """A float model in float32 (these tests check ONNX's numbers; tests/python/test_float16.py the fp16 path)."""
    config.setdefault("float_dtype", "float32")
    rknn = RKNN()
    assert rknn.config(mean_values=[MEAN], std_values=[STD], target_platform="rk3588", **config) == 0
    assert rknn.load_onnx(conv_relu.path) == 0
    assert rknn.build(do_quantization=False) == 0
    return rknn


def test_float_model_normalizes_and_runs_like_the_numpy_oracle(conv_relu):
    rknn = built_float(conv_relu)
    assert rknn.init_runtime() == 0
    image = np.random.RandomState(1).randint(0, 256, (1, 8, 8, 3)).astype(np.uint8)  # NHWC, the default
    outputs = rknn.inference(inputs=[image])
    assert len(outputs) == 1 and outputs[0].dtype == np.float32 and outputs[0].shape == (1, 4, 8, 8)
    nchw = (image.transpose(0, 3, 1, 2) - np.array(MEAN).reshape(1, 3, 1, 1)) / np.array(STD).reshape(1, 3, 1, 1)
    np.testing.assert_allclose(outputs[0], conv_relu.expected(nchw), rtol=1e-5, atol=1e-5)
    # The same image given as NCHW float32 data.
    nchw_input = np.ascontiguousarray(image.transpose(0, 3, 1, 2)).astype(np.float32)
    again = rknn.inference(inputs=[nchw_input], data_format=["nchw"])
    np.testing.assert_allclose(again[0], outputs[0], rtol=1e-6, atol=1e-6)
    frame = rknn.inference(inputs=[image], get_frame_id=True)
    assert frame[-1] == 3
    rknn.release()


def test_export_then_load_rknn_runs_on_the_simulator(conv_relu, tmp_path):
    rknn = built_float(conv_relu)
    path = str(tmp_path / "out" / "conv_relu.rknn")
    assert rknn.export_rknn(path) == 0
    rknn.release()
    loaded = RKNN()
    assert loaded.load_rknn(path) == 0
    assert loaded.init_runtime(core_mask=RKNN.NPU_CORE_0_1) == 0  # the vendor's toolkit cannot do this
    image = np.full((1, 8, 8, 3), 128, np.uint8)
    nchw = (image.transpose(0, 3, 1, 2) - np.array(MEAN).reshape(1, 3, 1, 1)) / np.array(STD).reshape(1, 3, 1, 1)
    np.testing.assert_allclose(loaded.inference(inputs=[image])[0], conv_relu.expected(nchw), rtol=1e-5, atol=1e-5)
    loaded.release()


def test_perf_memory_and_version(conv_relu, capsys):
    rknn = built_float(conv_relu)
    assert rknn.init_runtime(perf_debug=True, eval_mem=True) == 0
    text = rknn.eval_perf(is_print=False)
    assert "Conv" in text and "Total Time(us):" in text
    mem = rknn.eval_memory(is_print=False)
    assert set(mem) == {"weight_memory", "internal_memory", "other_memory", "total_memory"}
    # Weights: 4x3x3x3 + 4 floats at least; inputs + outputs: 3x8x8 + 4x8x8 values of the I/O type a
    # float model reports, float16 (as the NPU's).
    assert mem["weight_memory"] >= (108 + 4) * 4
    assert mem["other_memory"] == (192 + 256) * 2
    assert mem["total_memory"] == mem["weight_memory"] + mem["internal_memory"] + mem["other_memory"]
    assert "2.3.2" in rknn.get_sdk_version()
    rknn.release()


def test_errors_return_what_the_vendor_returns_with_a_reason(conv_relu, tmp_path, capsys):
    rknn = RKNN()
    assert rknn.build(do_quantization=False) == -1
    assert "load_onnx first" in capsys.readouterr().err
    assert rknn.load_onnx(str(tmp_path / "missing.onnx")) == -1
    assert "does not exist" in capsys.readouterr().err
    assert rknn.config(quantized_dtype="w4a16") == -1
    assert "w4a16" in capsys.readouterr().err
    assert rknn.config(target_platform="rk9999", mean_values=[[1, 2, 3]]) == -1
    assert "target_platform 'rk9999'" in capsys.readouterr().err
    assert rknn._args.mean_values == []  # a failed config changes nothing
    assert rknn.config(float_dtype="bfloat16") == -1
    assert "float_dtype 'bfloat16'" in capsys.readouterr().err
    assert rknn.config(float_dtype="float32") == 0
    assert rknn.inference(inputs=[np.zeros((1, 8, 8, 3), np.uint8)]) is None
    assert "init_runtime first" in capsys.readouterr().err
    assert rknn.init_runtime() == -1
    assert "call build or load_rknn first" in capsys.readouterr().err
    assert rknn.load_tflite("model.tflite") == -1
    assert "ONNX models only" in capsys.readouterr().err
    assert rknn.list_devices() == ([], [])
    assert rknn.load_onnx(conv_relu.path) == 0
    assert rknn.build(do_quantization=True, dataset=str(tmp_path / "none.txt")) == -1
    assert "none.txt" in capsys.readouterr().err
    assert rknn.build(do_quantization=False) == 0
    assert rknn.eval_memory(is_print=False) == -1  # before init_runtime
    assert "init_runtime first" in capsys.readouterr().err
    assert rknn.init_runtime() == 0
    assert rknn.eval_memory(is_print=False) == -1  # init_runtime without eval_mem
    assert "eval_mem" in capsys.readouterr().err
    assert rknn.inference(inputs=[np.zeros((1, 8, 8, 2), np.uint8)]) is None
    assert "has 128 elements, the model wants 192" in capsys.readouterr().err
    assert rknn.inference(inputs=[np.zeros((1, 8, 8, 3), np.uint8)] * 2) is None
    assert "1 input(s), got 2" in capsys.readouterr().err
    assert rknn.inference(inputs=[np.zeros((1, 8, 8, 3), np.uint8)], data_format="nchwc") is None
    assert "data_format" in capsys.readouterr().err
    assert rknn.inference(inputs=[np.zeros((1, 8, 8, 3), np.uint8)], data_format=1) is None  # not a string
    assert "data_format must be str" in capsys.readouterr().err
    assert rknn.accuracy_analysis(inputs=["x.jpg"]) == -1  # a float32 build: nothing to compare with
    assert "do_quantization=True" in capsys.readouterr().err
    assert rknn.init_runtime(core_mask=5) == -1
    assert "core_mask 5" in capsys.readouterr().err
    # A failed load_onnx leaves no model to export.
    assert rknn.load_onnx(str(tmp_path / "missing.onnx")) == -1
    assert rknn.export_rknn(str(tmp_path / "stale.rknn")) == -1
    assert "call build" in capsys.readouterr().err
    # A directory where a file belongs: an error line, not a traceback.
    assert rknn.hybrid_quantization_step2(str(tmp_path), str(tmp_path), str(tmp_path)) == -1
    assert "hybrid_quantization_step2" in capsys.readouterr().err
    rknn.release()
    corrupt = tmp_path / "corrupt.rknn"
    corrupt.write_bytes(b"RKNN" + bytes(200))
    assert RKNN().load_rknn(str(corrupt)) == -1
    assert "RKNN_ERR_MODEL_INVALID" in capsys.readouterr().err


def test_settings_without_effect_warn_once(conv_relu, capsys):
    rknn = RKNN()
    assert rknn.config(compress_weight=True, single_core_mode=True) == 0
    assert rknn.config(compress_weight=True) == 0
    err = capsys.readouterr().err
    assert err.count("compress_weight=True has no effect on npurt") == 1
    assert "single_core_mode" in err


def run_cli(npurt_cli, *args):
    result = subprocess.run([npurt_cli] + list(args), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def test_toolkit2_script_matches_the_cli(cls_onnx, photo_dataset, npurt_cli, tmp_path):
    """tests/python/convert_ppocr_cls.py, rknn-toolkit2's way, builds the same int8 model as npurt convert."""
    dataset, images = photo_dataset
    out = tmp_path / "script"
    script = os.path.join(os.path.dirname(__file__), "convert_ppocr_cls.py")
    result = subprocess.run(["/usr/bin/python3", script, cls_onnx, dataset, images[0], str(out)],
                            capture_output=True, text=True, env=os.environ.copy())
    assert result.returncode == 0, result.stdout + result.stderr
    for printed in ("Total Time(us):", "weight_memory", "total_memory", "API: 2.3.2"):
        assert printed in result.stdout, result.stdout
    cli_model = str(tmp_path / "cli.rknn")
    run_cli(npurt_cli, "convert", cls_onnx, "-o", cli_model, "--input-shapes", "x:1,3,48,192",
            "--mean-values", "127.5,127.5,127.5", "--std-values", "127.5,127.5,127.5", "-t", "rk3588",
            "--quantize", "--dataset", dataset)
    with open(out / "cls.rknn", "rb") as a, open(cli_model, "rb") as b:
        assert a.read() == b.read(), "the script's model differs from npurt convert's"
    # Its printed outputs are the C API's on the same image (RKNNLite goes through librknnrt too).
    lite = RKNNLite()
    assert lite.load_rknn(cli_model) == 0 and lite.init_runtime() == 0
    expected = lite.inference(inputs=[np.load(out / "input.npy")])[0]
    np.testing.assert_array_equal(np.load(out / "output.npy"), expected)
    lite.release()
    report = (out / "snapshot" / "error_analysis.txt").read_text()
    assert "softmax_0.tmp_0" in report
    # The same input through `npurt run` (a C program on the C API): the same values.
    run_cli(npurt_cli, "run", cli_model, "-i", str(out / "input.npy"), "-o", str(tmp_path))
    np.testing.assert_array_equal(np.load(tmp_path / "rt_output0.npy"), np.load(out / "output.npy"))


def test_rss_stays_flat_over_1000_init_inference_release_cycles(conv_relu, tmp_path):
    rknn = built_float(conv_relu)
    path = str(tmp_path / "m.rknn")
    assert rknn.export_rknn(path) == 0
    rknn.release()
    image = np.zeros((1, 8, 8, 3), np.uint8)

    def rss_kib():
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))

    def cycle():
        lite = RKNNLite()
        assert lite.load_rknn(path) == 0 and lite.init_runtime() == 0
        assert lite.inference(inputs=[image]) is not None
        lite.release()

    for _ in range(50):  # allocator pools and caches settle
        cycle()
    start = rss_kib()
    for _ in range(1000):
        cycle()
    end = rss_kib()
    print("RSS over 1000 cycles: %d KiB at start, %d KiB at end" % (start, end))
    assert end - start < 4096, "RSS grew by %d KiB over 1000 cycles" % (end - start)


def test_rknn_convert_reads_the_vendor_yaml_like_npurt_convert(conv_relu, photo_dataset, npurt_cli, tmp_path):
    """python3 -m rknn.api.rknn_convert: rknn-toolkit2's model_config.yml layout, paths relative to the
    file, the same model bytes as npurt convert with the same settings."""
    dataset, _ = photo_dataset
    work = tmp_path / "example"
    work.mkdir()
    os.symlink(conv_relu.path, work / "model.onnx")
    os.symlink(dataset, work / "dataset.txt")
    (work / "model_config.yml").write_text(
        "models:\n"
        "  name: conv_relu_int8\n"
        "  platform: onnx\n"
        "  model_file_path: ./model.onnx\n"
        "  quantize: true\n"
        "  dataset: ./dataset.txt\n"
        "  configs:\n"
        "    quantized_dtype: asymmetric_quantized-8\n"
        "    mean_values: [10, 20, 30]\n"
        "    std_values: [50, 60, 70]\n"
        "    quantized_algorithm: normal\n"
        "    quantized_method: channel\n"
        "    quant_img_RGB2BGR: true\n")
    out = tmp_path / "out"
    result = subprocess.run(["/usr/bin/python3", "-m", "rknn.api.rknn_convert", "-t", "rk3568", "-i",
                             str(work / "model_config.yml"), "-o", str(out)],
                            capture_output=True, text=True, cwd=str(tmp_path))  # not the config's directory
    assert result.returncode == 0, result.stderr
    assert "Export rknn model to" in result.stdout
    cli_model = str(tmp_path / "cli.rknn")
    run_cli(npurt_cli, "convert", conv_relu.path, "-o", cli_model, "-t", "rk3568", "--mean-values", "10,20,30",
            "--std-values", "50,60,70", "--quantize", "--dataset", dataset, "--quant-img-rgb2bgr", "true")
    with open(out / "conv_relu_int8.rknn", "rb") as a, open(cli_model, "rb") as b:
        assert a.read() == b.read()
    bad = subprocess.run(["/usr/bin/python3", "-m", "rknn.api.rknn_convert", "-i", str(tmp_path / "none.yml")],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "E rknn_convert: cannot open config" in bad.stderr
    directory = subprocess.run(["/usr/bin/python3", "-m", "rknn.api.rknn_convert", "-i", str(tmp_path)],
                               capture_output=True, text=True)
    assert directory.returncode == 1 and "is a directory" in directory.stderr, directory.stderr


def test_accuracy_analysis_dumps_golden_and_simulator_layers(conv_relu, photo_dataset, tmp_path):
    """golden/ holds the float model's per-layer values (checked against the numpy oracle), simulator/
    the int8 model's, map_name_to_file.txt names them."""
    dataset, _ = photo_dataset
    rknn = RKNN()
    assert rknn.config(target_platform="rk3588") == 0
    assert rknn.load_onnx(conv_relu.path) == 0
    assert rknn.build(do_quantization=True, dataset=dataset) == 0
    x = np.random.RandomState(3).uniform(0, 255, (1, 3, 8, 8)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    snapshot = tmp_path / "snapshot"
    assert rknn.accuracy_analysis(inputs=[str(tmp_path / "x.npy")], output_dir=str(snapshot)) == 0
    rknn.release()
    files = dict(line.split() for line in (snapshot / "map_name_to_file.txt").read_text().splitlines())
    assert "y" in files, files
    golden = np.load(snapshot / "golden" / files["y"])
    simulator = np.load(snapshot / "simulator" / files["y"])
    expected = conv_relu.expected(x)
    assert golden.shape == simulator.shape == expected.shape
    np.testing.assert_allclose(golden, expected, rtol=1e-4, atol=1e-3)
    cosine = np.sum(golden * simulator) / np.linalg.norm(golden) / np.linalg.norm(simulator)
    assert cosine > 0.999, cosine
    assert not np.array_equal(golden, simulator)  # int8 rounding shows
    assert "y" in (snapshot / "error_analysis.txt").read_text()


def test_hybrid_quantization_keeps_the_layers_the_cfg_names_in_float(conv_relu, photo_dataset, tmp_path,
                                                                     monkeypatch):
    dataset, _ = photo_dataset
    monkeypatch.chdir(tmp_path)  # step 1 writes next to the script, as the vendor's does
    x = np.random.RandomState(5).uniform(0, 255, (1, 8, 8, 3)).astype(np.uint8)
    nchw = (x.transpose(0, 3, 1, 2) - np.array(MEAN).reshape(1, 3, 1, 1)) / np.array(STD).reshape(1, 3, 1, 1)
    expected = conv_relu.expected(nchw)

    rknn = RKNN()
    assert rknn.config(mean_values=[MEAN], std_values=[STD], target_platform="rk3588", float_dtype="float32") == 0
    assert rknn.load_onnx(conv_relu.path) == 0
    assert rknn.hybrid_quantization_step1(dataset=dataset, proposal=False) == 0
    cfg = (tmp_path / "conv_relu.quantization.cfg").read_text()
    assert "custom_quantize_layers: {}" in cfg and "#   conv " in cfg
    assert (tmp_path / "conv_relu.model").is_file() and (tmp_path / "conv_relu.data").is_file()
    # Unedited, step 2 gives step 1's int8 model.
    assert rknn.hybrid_quantization_step2("conv_relu.model", "conv_relu.data", "conv_relu.quantization.cfg") == 0
    assert rknn.export_rknn("int8.rknn") == 0
    assert (tmp_path / "int8.rknn").read_bytes() == (tmp_path / "conv_relu.data").read_bytes()
    assert rknn.init_runtime() == 0
    int8_error = np.abs(rknn.inference(inputs=[x])[0] - expected).max()
    # The conv kept in float: the output is the float model's.
    (tmp_path / "conv_relu.quantization.cfg").write_text(cfg.replace("custom_quantize_layers: {}",
                                                                    "custom_quantize_layers:\n  conv: float16"))
    assert rknn.hybrid_quantization_step2("conv_relu.model", "conv_relu.data", "conv_relu.quantization.cfg") == 0
    assert rknn.init_runtime() == 0
    hybrid_error = np.abs(rknn.inference(inputs=[x])[0] - expected).max()
    assert hybrid_error < 1e-4 < int8_error, (hybrid_error, int8_error)
    (tmp_path / "bad.cfg").write_text("custom_quantize_layers:\n  conv: int4\n")
    assert rknn.hybrid_quantization_step2("conv_relu.model", "conv_relu.data", "bad.cfg") == -1
    (tmp_path / "unknown.cfg").write_text("custom_quantize_layers:\n  no_such_layer: float16\n")
    assert rknn.hybrid_quantization_step2("conv_relu.model", "conv_relu.data", "unknown.cfg") == -1
    rknn.release()


def test_hybrid_proposal_lists_the_layers_below_the_threshold(conv_relu, photo_dataset, tmp_path, monkeypatch):
    dataset, _ = photo_dataset
    monkeypatch.chdir(tmp_path)
    rknn = RKNN()
    assert rknn.config(target_platform="rk3588", auto_hybrid_cos_thresh=1.0) == 0  # every rounded layer
    assert rknn.load_onnx(conv_relu.path) == 0
    assert rknn.hybrid_quantization_step1(dataset=dataset, proposal=True, proposal_dataset_size=2) == 0
    cfg = (tmp_path / "conv_relu.quantization.cfg").read_text()
    assert "on 2 sample(s)" in cfg
    assert "conv: float16" in cfg
    assert rknn.hybrid_quantization_step1() == -1  # no dataset
    rknn.release()


def normalized(nhwc):
    return (nhwc.transpose(0, 3, 1, 2) - np.array(MEAN).reshape(1, 3, 1, 1)) / np.array(STD).reshape(1, 3, 1, 1)


def test_dynamic_input_runs_the_shape_set_of_the_arrays(conv_relu_dynamic):
    rknn = RKNN()
    assert rknn.config(mean_values=[MEAN], std_values=[STD], dynamic_input=[[[1, 3, 8, 8]], [[1, 3, 12, 10]]],
                       float_dtype="float32") == 0
    assert rknn.load_onnx(conv_relu_dynamic.path, inputs=["x"], input_size_list=[[1, 3, 8, 8]]) == 0
    assert rknn.build(do_quantization=False) == 0
    assert rknn.init_runtime(perf_debug=True) == 0
    assert "Total Time(us):" in rknn.eval_perf(is_print=False)  # zeros in the inputs' reported layout
    rng = np.random.RandomState(9)
    for h, w in ((12, 10), (8, 8), (12, 10)):
        image = rng.randint(0, 256, (1, h, w, 3)).astype(np.uint8)
        out = rknn.inference(inputs=[image])[0]
        assert out.shape == (1, 4, h, w)
        np.testing.assert_allclose(out, conv_relu_dynamic.expected(normalized(image)), rtol=1e-5, atol=1e-5)
    assert rknn.inference(inputs=[np.zeros((1, 9, 9, 3), np.uint8)]) is None  # no such set
    rknn.release()


def test_batch_size_outputs_cut_and_pass_through(conv_relu, tmp_path):
    # rknn_batch_size: two frames per run.
    rknn = RKNN()
    assert rknn.config(mean_values=[MEAN], std_values=[STD], float_dtype="float32") == 0
    assert rknn.load_onnx(conv_relu.path) == 0
    assert rknn.build(do_quantization=False, rknn_batch_size=2) == 0
    assert rknn.init_runtime() == 0
    frames = np.random.RandomState(4).randint(0, 256, (2, 8, 8, 3)).astype(np.uint8)
    out = rknn.inference(inputs=[frames])[0]
    assert out.shape == (2, 4, 8, 8)
    for k in range(2):
        np.testing.assert_allclose(out[k:k + 1], conv_relu.expected(normalized(frames[k:k + 1])), rtol=1e-5,
                                   atol=1e-5)
    rknn.release()
    # outputs=['c']: the graph cut before the Relu.
    rknn = RKNN()
    assert rknn.config(float_dtype="float32") == 0
    assert rknn.load_onnx(conv_relu.path, outputs=["c"]) == 0
    assert rknn.build(do_quantization=False) == 0
    assert rknn.init_runtime() == 0
    x = np.random.RandomState(6).uniform(-2, 2, (1, 3, 8, 8)).astype(np.float32)
    cut = rknn.inference(inputs=[x], data_format="nchw")[0]
    assert cut.min() < 0  # no Relu
    np.testing.assert_allclose(np.maximum(cut, 0), conv_relu.expected(x), rtol=1e-5, atol=1e-5)
    # inputs_pass_through: the data is already in the input's native type and layout (float16 NHWC with
    # the native row stride here, what a float model's input reports), so no conversion happens.
    attr = rknn._session.runtime.native_input_attrs()[0]
    assert attr["fmt"] == "NHWC" and attr["type"] == "FP16"
    native = np.zeros((1, 8, attr["w_stride"], 3), np.float16)
    native[:, :, :8, :] = x.transpose(0, 2, 3, 1)
    native = pickle.loads(pickle.dumps(native))  # an equal but distinct dtype object, as from a process pool
    passed = rknn.inference(inputs=[native], inputs_pass_through=[1])[0]
    np.testing.assert_allclose(passed, cut, rtol=2e-3, atol=2e-3)
    rknn.release()


def test_async_mode_returns_the_previous_frame(conv_relu):
    rknn = built_float(conv_relu)
    assert rknn.init_runtime(async_mode=True) == 0
    a = np.full((1, 8, 8, 3), 10, np.uint8)
    b = np.full((1, 8, 8, 3), 200, np.uint8)
    first = rknn.inference(inputs=[a])[0]  # before any frame finished: zeros, as the C API documents
    second = rknn.inference(inputs=[b])[0]
    np.testing.assert_array_equal(first, np.zeros_like(first))
    np.testing.assert_allclose(second, conv_relu.expected(normalized(a)), rtol=1e-5, atol=1e-5)
    rknn.release()


def test_verbose_file_gets_the_log(conv_relu, tmp_path):
    log = tmp_path / "rknn.log"
    rknn = RKNN(verbose=True, verbose_file=str(log))
    assert rknn.config(mean_values=[MEAN], std_values=[STD]) == 0
    assert rknn.load_onnx(conv_relu.path) == 0
    assert rknn.build(do_quantization=False) == 0
    assert rknn.init_runtime() == 0
    assert rknn.inference(inputs=[np.zeros((2, 2), np.uint8)]) is None
    rknn.release()
    text = log.read_text()
    assert "I load_onnx:" in text and "E inference: input 0 'x' has 4 elements" in text


def test_the_runtime_binding_raises_the_rknn_error_codes(conv_relu):
    from npurt import _npurt
    with pytest.raises(_npurt.RknnError) as bad_model:
        _npurt.Runtime(b"RKNN" + bytes(100), 0)
    assert bad_model.value.args[1] == -6  # RKNN_ERR_MODEL_INVALID
    assert "RKNN_ERR_MODEL_INVALID" in bad_model.value.args[0]
    with pytest.raises(_npurt.RknnError) as empty:
        _npurt.Runtime(b"", 0)
    assert empty.value.args[1] == -5  # RKNN_ERR_PARAM_INVALID
    rknn = built_float(conv_relu)
    assert rknn.export_rknn("/dev/null") == 0
    runtime = _npurt.Runtime(rknn._model, 0)
    with pytest.raises(_npurt.RknnError) as count:
        runtime.inference([np.zeros((1, 8, 8, 2), np.uint8)], [""], [0])
    assert count.value.args[1] == -8  # RKNN_ERR_INPUT_INVALID
    runtime.release()
    with pytest.raises(_npurt.RknnError) as released:
        runtime.inference([np.zeros((1, 8, 8, 3), np.uint8)], [""], [0])
    assert released.value.args[1] == -7  # RKNN_ERR_CTX_INVALID
    rknn.release()
