"""rknn-toolkit2's YAML converter on npurt:

    python3 -m rknn.api.rknn_convert -t rk3588 -i model_config.yml -o out/

reads the config with the parser of ``npurt convert --config`` (models: name, platform,
model_file_path, subgraphs, quantize, dataset, configs: ...; relative paths are relative to the
file) and writes ``out/<name>.rknn``. Exit status 0 on success, 1 with an ``E rknn_convert:`` line.
"""
import argparse
import os
import sys

from npurt import _npurt
from npurt._log import Log


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m rknn.api.rknn_convert",
                                     description="Convert the model a YAML config describes (rknn-toolkit2's layout)")
    parser.add_argument("-t", "--target_platform", help="target platform (overrides the config's)")
    parser.add_argument("-i", "--input", required=True, help="model_config.yml")
    parser.add_argument("-o", "--output", default=".", help="output directory (default: .)")
    parser.add_argument("-v", "--verbose", action="store_true", help="information lines")
    options = parser.parse_args(argv)
    log = Log(options.verbose)
    try:
        args = _npurt.load_config(options.input, "rknn_convert")
        if not args.model:
            raise _npurt.Error("%s names no model (models: model_file_path: ...)" % options.input)
        if options.target_platform:
            args.target_platform = options.target_platform.lower()
        if not args.quantize:
            # A float conversion ignores the quantization keys, as the vendor's does.
            args.dataset, args.quantized_algorithm, args.quantized_method = "", "", ""
        name = args.name or os.path.splitext(os.path.basename(args.model))[0]
        log.i("rknn_convert: %s -> %s (%s%s)" % (args.model, name, args.target_platform or "rk3588",
                                                 ", int8" if args.quantize else ""))
        result = _npurt.build(args)
        os.makedirs(options.output, exist_ok=True)
        path = os.path.join(options.output, name + ".rknn")
        with open(path, "wb") as f:
            f.write(result["model"])
    except Exception as e:  # every failure is an E line and exit status 1, never a traceback
        log.e("rknn_convert", str(e.args[0]) if e.args else type(e).__name__)
        return 1
    print("Export rknn model to %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
