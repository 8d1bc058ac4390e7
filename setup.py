"""Builds the npurt, rknn and rknnlite packages for `pip install --no-build-isolation .` (offline).

The extension npurt._npurt and librknnrt.so come from CMake: the build directory is $NPURT_BUILD_DIR
(default build/pip-cmake; an existing build tree is reused as it is), installed into a staging prefix
from which the module and the runtime library are copied into the npurt package (the module finds
librknnrt.so next to itself through its $ORIGIN rpath).
"""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.path.abspath(os.environ.get("NPURT_BUILD_DIR", os.path.join(ROOT, "build", "pip-cmake")))
        cache = os.path.join(build_dir, "CMakeCache.txt")
        if os.path.isfile(cache):
            # A reused tree must have built the module for this interpreter (its ABI and file name).
            with open(cache, encoding="utf-8") as f:
                built_for = [line.split("=", 1)[1].strip() for line in f if line.startswith("NPURT_PYTHON_EXECUTABLE:")]
            if built_for and os.path.realpath(built_for[0]) != os.path.realpath(sys.executable):
                raise RuntimeError("%s builds the module for %s, not for %s: use another NPURT_BUILD_DIR" %
                                   (build_dir, built_for[0], sys.executable))
        else:
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DNPURT_BUILD_TESTS=OFF", "-DPython3_EXECUTABLE=" + sys.executable])
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "npurt_python", "rknnrt", "-j",
                               str(os.cpu_count() or 1)])
        staging = os.path.join(self.build_temp, "staging")
        shutil.rmtree(staging, ignore_errors=True)
        for component in ("npurt_python", "npurt_runtime"):
            subprocess.check_call(["cmake", "--install", build_dir, "--prefix", staging, "--component", component])
        module = glob.glob(os.path.join(staging, "**", "_npurt*.so"), recursive=True)
        runtime = glob.glob(os.path.join(staging, "**", "librknnrt.so"), recursive=True)
        if len(module) != 1 or len(runtime) != 1:
            raise RuntimeError("the CMake install of %s has no _npurt module or librknnrt.so" % build_dir)
        target = os.path.dirname(self.get_ext_fullpath(ext.name))
        os.makedirs(target, exist_ok=True)
        shutil.copy2(module[0], self.get_ext_fullpath(ext.name))
        shutil.copy2(runtime[0], os.path.join(target, "librknnrt.so"))


setup(
    packages=["npurt", "rknn", "rknn.api", "rknnlite", "rknnlite.api"],
    package_dir={"": "python"},
    ext_modules=[Extension("npurt._npurt", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": os.path.join("build", "setuptools")}},
)
