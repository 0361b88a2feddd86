"""A PEP 517 build backend for the peerwave Python module, with no dependencies (pip installs it
offline: nothing to fetch).  build_wheel builds libpeerwave.so with CMake (the CPU part, plus the
CUDA part where a GPU is present, as scripts/setup.sh run does) and writes a wheel holding the
package python/peerwave and the library.

Environment:
  PEERWAVE_PREBUILT_LIB  a libpeerwave.so.0 already built (e.g. build/libpeerwave.so.0): used
                         instead of building one
  PEERWAVE_CUDA          ON, OFF or AUTO (CMake's PEERWAVE_CUDA); default: ON where nvidia-smi
                         lists a GPU, else OFF
  PEERWAVE_BUILD_DIR     where CMake builds (default: a temporary directory)
"""

import base64
import io
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "peerwave"


def _version():
    with open(os.path.join(ROOT, "include", "peerwave.h")) as f:
        h = f.read()
    parts = [re.search(r"#define PW_VERSION_%s (\d+)" % k, h).group(1) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def _has_gpu():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30).stdout
        return any(line.startswith("GPU") for line in out.splitlines())
    except (OSError, subprocess.SubprocessError):
        return False


def _library():
    """The bytes of libpeerwave.so.0: the one given, or one built here (in a temporary directory,
    removed afterwards, unless PEERWAVE_BUILD_DIR names where to keep the build)."""
    pre = os.environ.get("PEERWAVE_PREBUILT_LIB")
    if pre:
        if not os.path.exists(pre):
            sys.exit(f"peerwave_build: PEERWAVE_PREBUILT_LIB={pre} does not exist")
        with open(pre, "rb") as f:
            return f.read()
    keep = os.environ.get("PEERWAVE_BUILD_DIR")
    build = keep or tempfile.mkdtemp(prefix="peerwave-build-")
    try:
        return _build(build)
    finally:
        if not keep:
            shutil.rmtree(build, ignore_errors=True)


def _build(build):
    cuda = os.environ.get("PEERWAVE_CUDA") or ("ON" if _has_gpu() else "OFF")
    print(f"peerwave_build: building libpeerwave with CMake in {build} (PEERWAVE_CUDA={cuda})", file=sys.stderr)
    subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release", f"-DPEERWAVE_CUDA={cuda}",
                    "-DPEERWAVE_TESTS=OFF"], check=True, stdout=sys.stderr)
    jobs = str(os.cpu_count() or 2)
    subprocess.run(["cmake", "--build", build, "-j", jobs, "--target", "peerwave_shared"], check=True,
                   stdout=sys.stderr)
    with open(os.path.join(build, "libpeerwave.so.0"), "rb") as f:
        return f.read()


def _tag():
    # The library is native code: a wheel for this interpreter's platform, any Python 3 version.
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{plat}"


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Wavefront computations on GPUs and CPUs with peer synchronisation\n"
            "Requires-Python: >=3.9\nRequires-Dist: numpy\n")


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = os.path.join(metadata_directory, _dist_info())
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w") as f:
        f.write(_metadata())
    return _dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    lib = _library()
    tag = _tag()
    wheel = f"{NAME}-{_version()}-{tag}.whl"
    files = []
    pkg = os.path.join(ROOT, "python", NAME)
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith(".py"):
            with open(os.path.join(pkg, fn), "rb") as f:
                files.append((f"{NAME}/{fn}", f.read()))
    files.append((f"{NAME}/libpeerwave.so.0", lib))
    di = _dist_info()
    files.append((f"{di}/METADATA", _metadata().encode()))
    files.append((f"{di}/WHEEL", f"Wheel-Version: 1.0\nGenerator: peerwave_build\nRoot-Is-Purelib: false\nTag: {tag}\n".encode()))
    record = [_record_line(n, d) for n, d in files] + [f"{di}/RECORD,,"]
    files.append((f"{di}/RECORD", ("\n".join(record) + "\n").encode()))
    path = os.path.join(wheel_directory, wheel)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so.0") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    """The source tree as git would ship it (tracked files only, when git is there)."""
    base = f"{NAME}-{_version()}"
    out = os.path.join(sdist_directory, base + ".tar.gz")
    try:
        names = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.SubprocessError):
        sys.exit("peerwave_build: build_sdist needs a git checkout")
    import tarfile
    with tarfile.open(out, "w:gz") as t:
        for n in names:
            t.add(os.path.join(ROOT, n), arcname=f"{base}/{n}")
        meta = _metadata().encode()  # PKG-INFO: the core metadata, as PEP 517 asks of an sdist
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(meta)
        t.addfile(info, io.BytesIO(meta))
    return os.path.basename(out)
