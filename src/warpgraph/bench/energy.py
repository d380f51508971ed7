"""Energy and power of a measured region: NVML on the GPU, RAPL on the CPU when readable.

On an NVIDIA GPU (through ``nvidia-ml-py``, imported as ``pynvml``) the sampler reads the
board's cumulative energy counter (``nvmlDeviceGetTotalEnergyConsumption``, millijoules, Volta
and newer) before and after the region. A thread samples, every ``interval_s`` seconds, the
board power (the instantaneous power field when the driver has it, else
``nvmlDeviceGetPowerUsage``), the SM and memory clocks, the temperature and the clock-event
("throttle") reasons. Energy comes from the counter; when the counter is missing or did not
advance during the region (regions shorter than its update period), it is the time integral of
the power samples (trapezoids) instead. The record says which method was used.

On the CPU the Linux powercap interface (``/sys/class/powercap/intel-rapl:*``, package domains)
gives package energy when the file is readable (often root only); otherwise the fields stay
empty.

Clocks, power limits and application clocks are only **read**, never set. Without a GPU, without
``nvidia-ml-py`` or without permission every field is ``None`` and nothing fails: the reading's
``note`` says why.

Examples
--------
>>> sampler = EnergySampler("cpu", rapl_root="/nonexistent")
>>> with sampler.measure() as m:
...     _ = sum(range(10))
>>> m.reading.method is None and m.reading.energy_j is None
True
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["THROTTLE_REASONS", "EnergyReading", "EnergySampler", "gpu_static_info"]

#: NVML clock-event (throttle) reason bits and the names recorded in results.
THROTTLE_REASONS = {
    0x1: "gpu_idle",
    0x2: "applications_clocks_setting",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal_slowdown",
    0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown",
    0x100: "display_clock_setting",
}

_INSTALL_HINT = "install nvidia-ml-py (pip install 'warpgraph[bench]') to measure GPU energy"


def decode_throttle_reasons(mask: int) -> list[str]:
    """Names of the bits set in an NVML clock-event reason mask.

    Examples
    --------
    >>> decode_throttle_reasons(0x4 | 0x1)
    ['gpu_idle', 'sw_power_cap']
    """
    names = [name for bit, name in THROTTLE_REASONS.items() if mask & bit]
    rest = mask & ~sum(THROTTLE_REASONS)
    if rest:
        names.append(f"other_0x{rest:x}")
    return names


@dataclass
class EnergyReading:
    """Energy, power, clocks and throttling over one measured region (``None`` = not measured)."""

    method: str | None = None  # "nvml_energy_counter", "nvml_power_samples", "rapl" or None
    seconds: float | None = None
    energy_j: float | None = None
    avg_power_w: float | None = None
    peak_power_w: float | None = None
    samples: int = 0
    sm_clock_mhz_min: float | None = None
    sm_clock_mhz_max: float | None = None
    mem_clock_mhz_min: float | None = None
    mem_clock_mhz_max: float | None = None
    temperature_c_max: float | None = None
    throttle_reasons: list[str] = field(default_factory=list)
    power_limit_w: float | None = None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain dict for JSON output."""
        return asdict(self)


@dataclass
class _Sample:
    t: float
    power_w: float | None
    sm_mhz: float | None
    mem_mhz: float | None
    temp_c: float | None
    reasons: int


class _NvmlBackend:
    """Reads one GPU through NVML (never writes a setting)."""

    name = "nvml"

    def __init__(self, nvml: Any, handle: Any):
        self.nvml, self.handle = nvml, handle
        self.has_counter = self._try(lambda: nvml.nvmlDeviceGetTotalEnergyConsumption(handle))
        self.has_instant = self._instant_power() is not None

    @staticmethod
    def _try(fn) -> bool:
        try:
            fn()
            return True
        except Exception:
            return False

    def _instant_power(self) -> float | None:
        nvml = self.nvml
        field_id = getattr(nvml, "NVML_FI_DEV_POWER_INSTANT", None)
        if field_id is None:
            return None
        try:
            (value,) = nvml.nvmlDeviceGetFieldValues(self.handle, [field_id])
            if value.nvmlReturn != 0:
                return None
            return value.value.uiVal / 1000.0
        except Exception:
            return None

    def energy_j(self) -> float | None:
        if not self.has_counter:
            return None
        try:
            return self.nvml.nvmlDeviceGetTotalEnergyConsumption(self.handle) / 1000.0
        except Exception:
            return None

    def _call(self, name: str, *args) -> Any:
        fn = getattr(self.nvml, name, None)
        if fn is None:
            return None
        try:
            return fn(self.handle, *args)
        except Exception:
            return None

    def sample(self) -> _Sample:
        nvml = self.nvml
        power = self._instant_power() if self.has_instant else None
        if power is None:
            mw = self._call("nvmlDeviceGetPowerUsage")
            power = None if mw is None else mw / 1000.0
        sm = self._call("nvmlDeviceGetClockInfo", getattr(nvml, "NVML_CLOCK_SM", 1))
        mem = self._call("nvmlDeviceGetClockInfo", getattr(nvml, "NVML_CLOCK_MEM", 2))
        temp = self._call("nvmlDeviceGetTemperature", getattr(nvml, "NVML_TEMPERATURE_GPU", 0))
        reasons = self._call("nvmlDeviceGetCurrentClocksEventReasons")
        if reasons is None:
            reasons = self._call("nvmlDeviceGetCurrentClocksThrottleReasons")
        return _Sample(time.perf_counter(), power, sm, mem, temp, int(reasons or 0))

    def power_limit_w(self) -> float | None:
        mw = self._call("nvmlDeviceGetEnforcedPowerLimit")
        return None if mw is None else mw / 1000.0

    def static_info(self) -> dict[str, Any]:
        nvml = self.nvml

        def text(x):
            return x.decode() if isinstance(x, bytes) else x

        info = {
            "name": text(self._call("nvmlDeviceGetName")),
            "power_limit_w": self.power_limit_w(),
            "max_sm_clock_mhz": self._call(
                "nvmlDeviceGetMaxClockInfo", getattr(nvml, "NVML_CLOCK_SM", 1)
            ),
            "max_mem_clock_mhz": self._call(
                "nvmlDeviceGetMaxClockInfo", getattr(nvml, "NVML_CLOCK_MEM", 2)
            ),
            "energy_counter": self.has_counter,
        }
        try:
            info["driver"] = text(nvml.nvmlSystemGetDriverVersion())
        except Exception:
            info["driver"] = None
        return info


class _RaplBackend:
    """Package energy from the Linux powercap files (read only)."""

    name = "rapl"
    has_counter = True

    def __init__(self, domains: list[str]):
        self.domains = domains
        self.ranges = []
        for d in domains:
            try:
                with open(os.path.join(d, "max_energy_range_uj")) as f:
                    self.ranges.append(int(f.read()))
            except OSError:
                self.ranges.append(None)
        self._last: list[int] | None = None
        self._total = 0.0

    @classmethod
    def open(cls, root: str) -> _RaplBackend | None:
        domains = []
        for d in sorted(glob.glob(os.path.join(root, "intel-rapl:*"))):
            if os.path.basename(d).count(":") != 1:
                continue  # sub-domains (core, uncore, dram) are inside the package numbers
            try:
                with open(os.path.join(d, "energy_uj")) as f:
                    int(f.read())
                domains.append(d)
            except (OSError, ValueError):
                return None
        return cls(domains) if domains else None

    def _read(self) -> list[int]:
        out = []
        for d in self.domains:
            with open(os.path.join(d, "energy_uj")) as f:
                out.append(int(f.read()))
        return out

    def energy_j(self) -> float | None:
        """Cumulative package energy (J) since this backend opened, unwrapping counter wraps."""
        try:
            now = self._read()
        except OSError:
            return None
        if self._last is not None:
            for i, (a, b) in enumerate(zip(self._last, now, strict=True)):
                delta = b - a
                if delta < 0 and self.ranges[i]:
                    delta += self.ranges[i]
                self._total += delta / 1e6
        self._last = now
        return self._total

    def sample(self) -> _Sample:
        return _Sample(time.perf_counter(), None, None, None, None, 0)

    def power_limit_w(self) -> None:
        return None

    def static_info(self) -> dict[str, Any]:
        return {"rapl_domains": [os.path.basename(d) for d in self.domains]}


def _nvml_handle(nvml: Any, gpu_id: int | None) -> Any:
    """NVML handle of the CUDA device ``gpu_id`` (CuPy's current device when None).

    Matches by PCI bus id, because ``CUDA_VISIBLE_DEVICES`` renumbers CUDA devices but not NVML's.
    """
    bus_id = None
    index = 0 if gpu_id is None else int(gpu_id)
    try:
        from ..device import _import_cupy

        cp = _import_cupy()
        if cp is not None:
            dev = cp.cuda.Device(gpu_id) if gpu_id is not None else cp.cuda.Device()
            index = dev.id
            bus_id = dev.pci_bus_id
    except Exception:
        bus_id = None
    if bus_id:
        with contextlib.suppress(Exception):
            return nvml.nvmlDeviceGetHandleByPciBusId(bus_id)
    return nvml.nvmlDeviceGetHandleByIndex(index)


class _Measurement:
    """Handle yielded by :meth:`EnergySampler.measure`; ``reading`` is set when the block ends."""

    def __init__(self):
        self.reading: EnergyReading | None = None


class EnergySampler:
    """Measures energy and power around regions of code, on ``"gpu"`` (NVML) or ``"cpu"`` (RAPL).

    Parameters
    ----------
    device : {"gpu", "cpu"}
        Which hardware to read.
    interval_s : float
        Period of the power/clock sampling thread (the driver refreshes power every few to tens
        of milliseconds, so going below ~5 ms only repeats values).
    gpu_id : int, optional
        CUDA device number (default: CuPy's current device).
    nvml : module, optional
        An NVML binding to use instead of importing ``pynvml`` (tests pass a fake).
    rapl_root : str
        Where the powercap tree lives.

    Attributes
    ----------
    available : bool
        Whether anything can be measured; when False, readings are empty with a ``note``.
    reason : str or None
        Why nothing can be measured.

    Examples
    --------
    >>> s = EnergySampler("gpu", nvml=False)   # nvml=False: act as if nvidia-ml-py were missing
    >>> s.available, "nvidia-ml-py" in s.reason
    (False, True)
    """

    def __init__(
        self,
        device: str = "gpu",
        *,
        interval_s: float = 0.005,
        gpu_id: int | None = None,
        nvml: Any = None,
        rapl_root: str = "/sys/class/powercap",
    ):
        self.device = device
        self.interval_s = float(interval_s)
        self.backend: Any = None
        self.reason: str | None = None
        self._nvml = None
        if device == "gpu":
            self._open_nvml(nvml, gpu_id)
        else:
            self.backend = _RaplBackend.open(rapl_root)
            if self.backend is None:
                self.reason = f"no readable RAPL energy counter under {rapl_root}"

    def _open_nvml(self, nvml: Any, gpu_id: int | None) -> None:
        if nvml is False:
            self.reason = f"nvidia-ml-py is not installed; {_INSTALL_HINT}"
            return
        if nvml is None:
            try:
                import pynvml as nvml
            except ImportError:
                self.reason = f"nvidia-ml-py is not installed; {_INSTALL_HINT}"
                return
        try:
            nvml.nvmlInit()
        except Exception as exc:
            self.reason = f"NVML is not usable here ({exc})"
            return
        self._nvml = nvml
        try:
            self.backend = _NvmlBackend(nvml, _nvml_handle(nvml, gpu_id))
        except Exception as exc:
            self.reason = f"NVML found no device handle ({exc})"
            self.close()

    @property
    def available(self) -> bool:
        return self.backend is not None

    def close(self) -> None:
        """Release NVML (safe to call twice)."""
        if self._nvml is not None:
            with contextlib.suppress(Exception):
                self._nvml.nvmlShutdown()
            self._nvml = None

    def __enter__(self) -> EnergySampler:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def static_info(self) -> dict[str, Any]:
        """Device name, driver, power limit and maximum clocks, as read (empty when unavailable)."""
        return self.backend.static_info() if self.backend is not None else {}

    @contextlib.contextmanager
    def measure(self) -> Iterator[_Measurement]:
        """Measure the block's energy; the yielded handle's ``reading`` is set on exit."""
        handle = _Measurement()
        if self.backend is None:
            t0 = time.perf_counter()
            try:
                yield handle
            finally:
                handle.reading = EnergyReading(seconds=time.perf_counter() - t0, note=self.reason)
            return
        backend = self.backend
        samples: list[_Sample] = []
        stop = threading.Event()

        def loop():
            while not stop.wait(self.interval_s):
                samples.append(backend.sample())

        samples.append(backend.sample())
        e0 = backend.energy_j()
        t0 = time.perf_counter()
        thread = threading.Thread(target=loop, name="warpgraph-energy", daemon=True)
        thread.start()
        try:
            yield handle
        finally:
            t1 = time.perf_counter()
            e1 = backend.energy_j()
            stop.set()
            thread.join()
            samples.append(backend.sample())
            handle.reading = self._reading(samples, t1 - t0, e0, e1)

    def _reading(self, samples: list[_Sample], seconds: float, e0, e1) -> EnergyReading:
        backend = self.backend
        r = EnergyReading(seconds=seconds, samples=len(samples))
        r.power_limit_w = backend.power_limit_w()
        power = [(s.t, s.power_w) for s in samples if s.power_w is not None]
        if power:
            r.peak_power_w = max(p for _, p in power)
        if e0 is not None and e1 is not None and e1 > e0:
            r.method = "nvml_energy_counter" if backend.name == "nvml" else "rapl"
            r.energy_j = e1 - e0
        elif power:
            r.method = "nvml_power_samples"
            r.energy_j = _integrate(power, seconds)
            if backend.has_counter:
                r.note = "energy counter did not advance during the region; integrated samples"
        if r.energy_j is not None and seconds > 0:
            r.avg_power_w = r.energy_j / seconds
        for name, attr in (("sm_clock_mhz", "sm_mhz"), ("mem_clock_mhz", "mem_mhz")):
            vals = [getattr(s, attr) for s in samples if getattr(s, attr) is not None]
            if vals:
                setattr(r, f"{name}_min", float(min(vals)))
                setattr(r, f"{name}_max", float(max(vals)))
        temps = [s.temp_c for s in samples if s.temp_c is not None]
        r.temperature_c_max = float(max(temps)) if temps else None
        mask = 0
        for s in samples:
            mask |= s.reasons
        r.throttle_reasons = decode_throttle_reasons(mask)
        return r


def _integrate(power: list[tuple[float, float]], seconds: float) -> float:
    """Trapezoidal integral of (time, watts) samples; one sample times the duration."""
    if len(power) == 1:
        return power[0][1] * seconds
    total = 0.0
    for (ta, pa), (tb, pb) in itertools.pairwise(power):
        total += 0.5 * (pa + pb) * (tb - ta)
    return total


def gpu_static_info(gpu_id: int | None = None) -> dict[str, Any]:
    """Name, driver, power limit and maximum clocks of a GPU from NVML (``{}`` when unavailable).

    Examples
    --------
    >>> isinstance(gpu_static_info(), dict)
    True
    """
    with EnergySampler("gpu", gpu_id=gpu_id) as s:
        return s.static_info()
