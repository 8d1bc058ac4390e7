"""npurt: the RKNN toolkit and runtime without an NPU.

The extension module ``npurt._npurt`` holds npurt's compiler (conversion, quantization, accuracy
analysis) and a runtime over librknnrt's C API; ``rknn.api.RKNN`` and ``rknnlite.api.RKNNLite`` are
rknn-toolkit2's and rknn-toolkit-lite2's classes on top of it (docs/python.md).
"""
from npurt._npurt import ConvertArgs, Error, RknnError, Runtime  # noqa: F401
from npurt._log import Log  # noqa: F401

__version__ = "2.3.2"
SDK_VERSION = "2.3.2 (npurt)"
