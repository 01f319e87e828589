"""Build pokereval's C evaluator through cffi (out-of-line API mode); see csrc/build_ffi.py."""
from setuptools import setup

setup(cffi_modules=["csrc/build_ffi.py:ffibuilder"])
