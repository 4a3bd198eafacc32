"""An app's HDF5 output as a Python user opens it: h5py reads the fields with
their shape (slowest dimension first), type and attributes."""
import subprocess
import sys
import tempfile
from pathlib import Path

import h5py
import numpy as np

apps = Path(sys.argv[1])
with tempfile.TemporaryDirectory() as work:
    out = Path(work) / "hotspot.h5"
    subprocess.run([apps / "hotspot", "--size", "33x21", "--steps", "3", "--height", "1", "--output", out],
                   check=True, capture_output=True)
    with h5py.File(out, "r") as f:
        temperature, power = f["temperature"], f["power"]
        assert temperature.shape == (21, 33), temperature.shape
        assert temperature.dtype == np.float32 and power.shape == (21, 33)
        attributes = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in temperature.attrs.items()}
        assert attributes["step"] == 3, attributes
        assert attributes["stencil"] == "hotspot" and attributes["boundary"] == "clamp", attributes
        assert list(attributes["extent"]) == [33, 21], attributes
        assert np.isfinite(temperature[...]).all() and temperature[...].min() > 200, temperature[...].min()
print("h5py read hotspot's output: fields, shapes and attributes as documented")
