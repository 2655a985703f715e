"""Timing of whole processes, and round-robin runs of several tools.

Every tool is timed as a process (start-up included): wall clock around fork/exec..exit, CPU as
user+sys of the process and every descendant it waited for, to the microsecond, peak RSS as
ru_maxrss (the largest of the process and its reaped descendants), both read by `rusage.c`,
which forks the tool: a child this Python process spawned itself would report at least this
process's own peak, since Linux carries the resident high-water mark of the memory an exec
replaces into the new program's ru_maxrss, and Python spawns through vfork (a 100 000-item bench
held 76 MB, which every photomirror command then "used"). GNU time did this job before, but
prints CPU to the 10 ms, which moved the ratio of two 30 ms parses by a quarter. The machine
is shared and noisy, so tools run in rounds, in a shuffled order per round, and the ratios are
taken per round before the median: drift hits every tool of a round alike.
"""
import atexit, os, random, shutil, statistics, subprocess, sys, tempfile, time
from dataclasses import dataclass, field


@dataclass
class Run:
    wall: float     # seconds
    cpu: float      # seconds, user + sys, process tree
    rss_kb: int     # peak resident set, KiB
    code: int


_RUSAGE = None


def _rusage():
    """The `rusage` wrapper, compiled once per bench run beside this file's sources."""
    global _RUSAGE
    if _RUSAGE is None:
        folder = tempfile.mkdtemp(prefix="bench-rusage-")
        atexit.register(shutil.rmtree, folder, True)
        binary = os.path.join(folder, "rusage")
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rusage.c")
        done = subprocess.run(["gcc", "-O2", "-o", binary, source], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"gcc {source} failed: {done.stderr[-2000:]}")
        _RUSAGE = binary
    return _RUSAGE


def run(argv, *, env=None, cwd=None, stdout=subprocess.DEVNULL, stderr=None, check=True):
    """Runs argv to completion and returns its Run. stderr is kept for the error message."""
    errfile = stderr if stderr is not None else subprocess.PIPE
    wrapper = _rusage()
    with tempfile.NamedTemporaryFile("r", prefix="measure-", suffix=".txt") as usage_file:
        start = time.perf_counter()
        proc = subprocess.Popen([wrapper, usage_file.name, *argv], env=env, cwd=cwd,
                                stdout=stdout, stderr=errfile, stdin=subprocess.DEVNULL)
        err = b""
        if errfile is subprocess.PIPE:
            err = proc.stderr.read()
            proc.stderr.close()
        code = proc.wait()
        wall = time.perf_counter() - start
        fields = usage_file.read().split()
    if len(fields) != 4:
        raise RuntimeError(f"{argv[0]} was not run: {err.decode(errors='replace')[-2000:]}")
    user_us, system_us, rss_kb, code = (int(field) for field in fields)
    result = Run(wall, (user_us + system_us) / 1e6, rss_kb, code)
    if check and result.code != 0:
        shown = " ".join(argv[:6]) + (" ..." if len(argv) > 6 else "")
        raise RuntimeError(f"{shown} exited {result.code}: {err.decode(errors='replace')[-2000:]}")
    return result


@dataclass
class Tool:
    """One contender: `prepare` (untimed: clean output folders, caches) then `argv` (timed)."""
    name: str
    argv: list
    prepare: object = None
    env: dict = None
    cwd: str = None        # e.g. the corpus folder, so tools see bare file names
    after: object = None   # untimed callback(run) after each timed run (checks, follow-up timings)


@dataclass
class Stats:
    name: str
    items: int
    runs: list = field(default_factory=list)

    @property
    def wall(self): return statistics.median(r.wall for r in self.runs)
    @property
    def cpu(self): return statistics.median(r.cpu for r in self.runs)
    @property
    def rss_mb(self): return statistics.median(r.rss_kb for r in self.runs) / 1024
    @property
    def per_s(self): return self.items / self.wall
    @property
    def cpu_ms(self): return 1000 * self.cpu / self.items
    @property
    def spread(self):
        rates = [self.items / r.wall for r in self.runs]
        return min(rates), max(rates)


def round_robin(tools, items, rounds, warmup=1, label=""):
    """Runs every tool once per round in a shuffled order; the warm-up round is not counted
    (it fills the page cache and checks every tool works). Returns {name: Stats}."""
    stats = {t.name: Stats(t.name, items) for t in tools}
    rng = random.Random(4242)
    for number in range(warmup + rounds):
        order = list(tools)
        rng.shuffle(order)
        for tool in order:
            if tool.prepare:
                tool.prepare()
            result = run(tool.argv, env=tool.env, cwd=tool.cwd)
            if tool.after:
                tool.after(result)
            if number >= warmup:
                stats[tool.name].runs.append(result)
        tag = "warm-up" if number < warmup else f"round {number - warmup + 1}/{rounds}"
        print(f"bench: {label} {tag} done", file=sys.stderr, flush=True)
    return stats


def ratios(stats, fast, slow):
    """slow wall / fast wall of each round, pairing the runs of the same round."""
    return [s.wall / f.wall for f, s in zip(stats[fast].runs, stats[slow].runs)]


def ratio(stats, fast, slow):
    """Median over rounds of slow wall / fast wall, pairing the runs of the same round."""
    return statistics.median(ratios(stats, fast, slow))
