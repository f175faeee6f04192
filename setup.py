"""Builds tempcert's Python module (tempcert._core) with the project's own
CMake build, so the module runs exactly the C++ the command line runs.

    /usr/bin/python3 -m venv --system-site-packages .venv
    .venv/bin/pip install --no-build-isolation .

The CMake build directory is $TEMPCERT_BUILD, else build/ (the one
scripts/setup uses), so an existing build is reused, not repeated."""

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
        build = os.environ.get("TEMPCERT_BUILD", os.path.join(ROOT, "build"))
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DTEMPCERT_PYTHON=ON",
                               f"-DPython_EXECUTABLE={os.path.realpath(sys.executable)}"],
                              stdout=subprocess.DEVNULL)
        jobs = str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "--build", build, "--target", "tempcert_python",
                               "tempcert-check", "-j", jobs])
        built = glob.glob(os.path.join(build, "python", "tempcert", "_core*.so"))
        if len(built) != 1:
            sys.exit(f"setup.py: expected one built module in {build}/python/tempcert, "
                     f"found {built} (is pybind11-dev installed?)")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)
        # the small checker beside the module: check() runs it, and every
        # certificate is verified by it before it is written (docs/python.md)
        checker = os.path.join(os.path.dirname(target), "tempcert-check")
        shutil.copyfile(os.path.join(build, "tempcert-check"), checker)
        os.chmod(checker, 0o755)


setup(
    ext_modules=[Extension("tempcert._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own staging, kept apart from the CMake tree in build/
    options={"build": {"build_base": os.path.join("build", "setuptools")}},
)
