"""Target 1: `photomirror thumb` (40x40 fill, all cores) against GraphicsMagick, per corpus.

GraphicsMagick runs as one `gm mogrify` over the whole corpus with its shrink-on-load hint
(`-size 80x80`, the fastest way to run it, per ../shared/bench/RESULTS.md) and its OpenMP
threads on every core. Three GM rows: the same job as photomirror (fill: `40x40^` + centre
`-extent`), GM's cheaper fit (`40x40`, the anchor figures' row), and that fit again with
OMP_WAIT_POLICY=PASSIVE: by default GM's OpenMP threads spin while they wait, and on a busy
machine (other processes on the cores) that spinning makes GM several times slower, which
would flatter photomirror. The target is judged against the fastest GM row of each round.
"""
import glob, os, shutil, statistics

from PIL import Image

import measure


def _fresh(folder):
    def prepare():
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    return prepare


def _check(folder, count, fill):
    """Every input gave a PNG whose long side is 40 (fill: exactly 40x40)."""
    def after(_run):
        outs = glob.glob(os.path.join(folder, "*.png"))
        assert len(outs) == count, f"{folder}: {len(outs)} thumbnails for {count} inputs"
        for path in outs:
            with Image.open(path) as im:
                w, h = im.size
            assert max(w, h) == 40 and (not fill or w == h), f"{path}: {w}x{h}"
    return after


def run(binary, corpus, work, corpora, rounds):
    results = {}
    for name in corpora:
        folder = os.path.abspath(os.path.join(corpus, name))
        # Bare names, run from the corpus folder: gm mogrify recreates an input's folders
        # under -output-directory.
        files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.jpg")))
        out = {key: os.path.join(work, "thumbs", key) for key in ("pm", "gmfill", "gmfit", "gmfitp")}
        passive = dict(os.environ, OMP_WAIT_POLICY="PASSIVE")
        gm = ["gm", "mogrify", "-format", "png", "-size", "80x80"]
        tools = [
            measure.Tool("photomirror thumb (fill)", [binary, "thumb", "--size", "40x40", "-o", out["pm"], *files],
                         prepare=_fresh(out["pm"]), cwd=folder),
            measure.Tool("gm mogrify fill, OMP passive",
                         [*gm, "-output-directory", out["gmfill"], "-thumbnail", "40x40^", "-gravity", "center",
                          "-extent", "40x40", *files],
                         prepare=_fresh(out["gmfill"]), cwd=folder, env=passive),
            measure.Tool("gm mogrify fit", [*gm, "-output-directory", out["gmfit"], "-thumbnail", "40x40", *files],
                         prepare=_fresh(out["gmfit"]), cwd=folder),
            measure.Tool("gm mogrify fit, OMP passive",
                         [*gm, "-output-directory", out["gmfitp"], "-thumbnail", "40x40", *files],
                         prepare=_fresh(out["gmfitp"]), cwd=folder, env=passive),
        ]
        # Output checks in the warm-up round only: they are untimed but not free.
        checks = {tools[0].name: _check(out["pm"], len(files), True),
                  tools[1].name: _check(out["gmfill"], len(files), True),
                  tools[2].name: _check(out["gmfit"], len(files), False),
                  tools[3].name: _check(out["gmfitp"], len(files), False)}
        for tool in tools:
            def after(result, tool=tool):
                check = checks.pop(tool.name, None)
                if check:
                    check(result)
            tool.after = after
        stats = measure.round_robin(tools, len(files), rounds, label=f"thumb {name}")
        pm = tools[0].name
        ratios = {t.name: measure.ratio(stats, pm, t.name) for t in tools[1:]}
        # Per round, against whichever GM row was fastest in that round.
        best = [min(runs) for runs in zip(*([r.wall for r in stats[t.name].runs] for t in tools[1:]))]
        ratios["the fastest GM row of each round"] = statistics.median(
            b / p.wall for b, p in zip(best, stats[pm].runs))
        results[name] = {"stats": stats, "ratios": ratios, "pm": pm}
    return results
