"""Energy sampler: NVML counter and samples (fake NVML), RAPL (fake powercap tree)."""

from __future__ import annotations

import time
import types

import pytest

from warpgraph.bench.energy import EnergySampler, decode_throttle_reasons
from warpgraph.device import gpu_available


class NVMLError(Exception):
    pass


def fake_nvml(watts=100.0, counter=True, instant=True, init_fails=False, reasons=0x4):
    """An object with the pynvml functions the sampler calls, drawing ``watts`` constantly."""
    t0 = time.perf_counter()
    calls = []

    def energy(handle):
        if not counter:
            raise NVMLError("Not Supported")
        return int(5_000_000 + watts * (time.perf_counter() - t0) * 1000)  # mJ

    def field_values(handle, ids):
        if not instant:
            raise NVMLError("Not Supported")
        value = types.SimpleNamespace(uiVal=int(watts * 1000))
        return [types.SimpleNamespace(nvmlReturn=0, value=value)]

    def init():
        if init_fails:
            raise NVMLError("Driver Not Loaded")

    def record(name, result):
        def fn(*args):
            calls.append(name)
            return result(*args) if callable(result) else result

        return fn

    nvml = types.SimpleNamespace(
        NVML_FI_DEV_POWER_INSTANT=186,
        NVML_CLOCK_SM=1,
        NVML_CLOCK_MEM=2,
        NVML_TEMPERATURE_GPU=0,
        nvmlInit=record("init", lambda: init()),
        nvmlShutdown=record("shutdown", None),
        nvmlDeviceGetHandleByIndex=record("by_index", "handle0"),
        nvmlDeviceGetHandleByPciBusId=record("by_bus", "handle0"),
        nvmlDeviceGetTotalEnergyConsumption=energy,
        nvmlDeviceGetFieldValues=field_values,
        nvmlDeviceGetPowerUsage=record("power_usage", int(watts * 1000)),
        nvmlDeviceGetClockInfo=lambda h, which: 1980 if which == 1 else 2619,
        nvmlDeviceGetMaxClockInfo=lambda h, which: 1980 if which == 1 else 2619,
        nvmlDeviceGetTemperature=lambda h, which: 55,
        nvmlDeviceGetCurrentClocksEventReasons=lambda h: reasons,
        nvmlDeviceGetEnforcedPowerLimit=lambda h: 700_000,
        nvmlDeviceGetName=lambda h: b"Fake H100",
        nvmlSystemGetDriverVersion=lambda: "580.00",
        # deliberately absent: every nvmlDeviceSet* function (the sampler must never set anything)
    )
    nvml.calls = calls
    return nvml


def busy(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_counter_path_gives_energy_power_clocks_and_reasons():
    nvml = fake_nvml(watts=100.0)
    with EnergySampler("gpu", nvml=nvml, interval_s=0.01) as s:
        assert s.available and s.reason is None
        with s.measure() as m:
            busy(0.2)
        info = s.static_info()
    r = m.reading
    assert r.method == "nvml_energy_counter"
    assert r.energy_j == pytest.approx(100.0 * r.seconds, rel=0.05, abs=0.002)
    assert r.avg_power_w == pytest.approx(100.0, rel=0.05)
    assert r.peak_power_w == pytest.approx(100.0)
    assert r.samples >= 5
    assert (r.sm_clock_mhz_min, r.sm_clock_mhz_max, r.mem_clock_mhz_max) == (1980, 1980, 2619)
    assert r.temperature_c_max == 55 and r.power_limit_w == 700.0
    assert r.throttle_reasons == ["sw_power_cap"]
    assert info["name"] == "Fake H100" and info["driver"] == "580.00"
    assert "shutdown" in nvml.calls
    assert not any(name.startswith("nvmlDeviceSet") for name in vars(nvml))


def test_sample_integration_when_the_counter_is_missing():
    nvml = fake_nvml(watts=250.0, counter=False, instant=False)
    with EnergySampler("gpu", nvml=nvml, interval_s=0.005) as s, s.measure() as m:
        busy(0.15)
    r = m.reading
    assert r.method == "nvml_power_samples"
    assert r.energy_j == pytest.approx(250.0 * r.seconds, rel=0.2)
    assert r.avg_power_w == pytest.approx(250.0, rel=0.2)
    assert "power_usage" in nvml.calls  # fell back from the instant field to GetPowerUsage


def test_no_nvml_or_no_driver_gives_empty_fields():
    for sampler in (
        EnergySampler("gpu", nvml=False),
        EnergySampler("gpu", nvml=fake_nvml(init_fails=True)),
    ):
        assert not sampler.available and sampler.reason
        with sampler.measure() as m:
            pass
        r = m.reading
        assert r.method is None and r.energy_j is None and r.avg_power_w is None
        assert r.note == sampler.reason and r.seconds >= 0
        assert sampler.static_info() == {}
        sampler.close()


def test_rapl_counter_and_wraparound(tmp_path):
    dom = tmp_path / "intel-rapl:0"
    sub = tmp_path / "intel-rapl:0:0"  # a sub-domain: must not be counted twice
    for d in (dom, sub):
        d.mkdir()
        (d / "max_energy_range_uj").write_text("1000000\n")
        (d / "energy_uj").write_text("900000\n")
    s = EnergySampler("cpu", rapl_root=str(tmp_path))
    assert s.available
    with s.measure() as m:
        (dom / "energy_uj").write_text("300000\n")  # wrapped: 900000 -> 1000000 -> 300000
        (sub / "energy_uj").write_text("999999\n")
    assert m.reading.method == "rapl"
    assert m.reading.energy_j == pytest.approx(0.4)
    assert EnergySampler("cpu", rapl_root=str(tmp_path / "none")).available is False


def test_decode_throttle_reasons():
    assert decode_throttle_reasons(0) == []
    assert decode_throttle_reasons(0x40 | 0x8) == ["hw_slowdown", "hw_thermal_slowdown"]
    assert decode_throttle_reasons(0x10000) == ["other_0x10000"]


@pytest.mark.gpu
def test_real_nvml_on_the_gpu():
    pytest.importorskip("pynvml")
    import cupy as cp

    x = cp.random.random(1 << 24, dtype=cp.float32)
    with EnergySampler("gpu") as s:
        assert s.available, s.reason
        with s.measure() as m:
            end = time.perf_counter() + 0.5
            while time.perf_counter() < end:
                (x * x).sum()
            cp.cuda.Device().synchronize()
        info = s.static_info()
    r = m.reading
    assert r.method in ("nvml_energy_counter", "nvml_power_samples")
    assert r.energy_j > 0 and r.avg_power_w > 10 and r.peak_power_w > 10
    assert r.sm_clock_mhz_max > 0 and r.power_limit_w > 0
    assert info["name"] and info["driver"]


def test_gpu_marker_consistency():
    # without a GPU the real sampler reports why instead of failing
    if not gpu_available():
        s = EnergySampler("gpu")
        assert not s.available and s.reason
        s.close()
