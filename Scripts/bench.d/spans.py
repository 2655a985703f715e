"""Where a sync's wall time goes, run by run (target 15): `perf record` around each run, cut at
its first and last decoding sample (libjpeg's functions and the box filter). The head is the
time before any image decodes (start, feed, staging), the span the time while images decode,
the tail the time after the last one (settling rows, documents). photomirror and csync.c are
recorded alternately. Needs `perf` (Debian: linux-perf), allowed to record here; without it,
nothing is measured and the report says why."""
import os, re, shutil, statistics, subprocess

# A decoding sample: a frame of libjpeg(-turbo)'s decoder, its SIMD code or the box filter.
DECODING = re.compile(rb"jpeg|decode_mcu|idct|ycc_rgb|box_filter|resample|h2v|jsimd")
# The time on a sample's first line: "comm tid 12345.678901: 1000000 cpu-clock: ".
SAMPLE_TIME = re.compile(rb" (\d+\.\d+):")


def unavailable():
    """Why spans cannot be measured here, or None."""
    if shutil.which("perf") is None:
        return "perf is not installed (Debian: apt install linux-perf)"
    probe = subprocess.run(["perf", "record", "-q", "-o", "/dev/null", "--", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"perf record fails here: {probe.stderr.strip()[-200:]}"
    return None


def cut(script):
    """(total, head, decoding span, tail) in seconds from `perf script` output; None without a
    decoding sample."""
    start = end = first = last = None
    for sample in script.split(b"\n\n"):
        header, _, stack = sample.partition(b"\n")
        found = SAMPLE_TIME.search(header)
        if not found:
            continue
        time = float(found.group(1))
        start = time if start is None else start
        end = time
        if DECODING.search(stack):
            first = time if first is None else first
            last = time
    if first is None:
        return None
    return end - start, first - start, last - first, end - last


def record(command, prepare, data):
    prepare()
    subprocess.run(["perf", "record", "-q", "-F", "1000", "-g", "-o", data, "--", *command],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    script = subprocess.run(["perf", "script", "-i", data], capture_output=True, check=True).stdout
    os.remove(data)
    return cut(script)


def compare(tools, runs, work):
    """`tools`: name -> (command, prepare). Medians of `runs` alternated runs of each:
    name -> {"total", "head", "span", "tail"} in seconds, or {"skipped": reason}."""
    reason = unavailable()
    if reason:
        return {"skipped": reason}
    data = os.path.join(work, "spans.perf")
    cuts = {name: [] for name in tools}
    for _ in range(runs):
        for name, (command, prepare) in tools.items():
            measured = record(command, prepare, data)
            if measured:
                cuts[name].append(measured)
    return {name: {key: statistics.median(run[place] for run in runs_of) for place, key in
                   enumerate(["total", "head", "span", "tail"])}
            for name, runs_of in cuts.items() if runs_of}
