#!/usr/bin/env python3
"""Flame graph and CPU summary from `perf script` output (python3 stdlib only).

    perf script -F comm,pid,tid,period,event,ip,sym,dso -i perf.data |
        tools/flamegraph.py --pids pids.txt --svg out.svg --summary out.txt --title "..."

Debian ships no FlameGraph scripts, so tools/profile folds and renders here. Each sample's
stack is folded root first under its process kind (cabinet-fcgi, postgres, nginx, ...), so
one picture has one tower per kind. The kind comes from --pids (lines "PID KIND": the
processes of the stack being profiled; any other process is "other", pid 0 is "idle"),
else from the command name. Idle samples are counted in the summary, not drawn.
"""
import argparse
import collections
import html
import re
import sys
import zlib

# The kinds in the order the summary lists them; "other" is any process outside the stack.
KINDS = ["cabinet-fcgi", "postgres", "nginx", "mock-panel", "wrk", "redis-server", "other", "idle"]
IDLE = "idle"
OTHER = "other"

# "postgres  4101/4101    10101010 cpu-clock:ppp: " (comm may hold spaces)
HEADER = re.compile(r"^(?P<comm>\S.*?)\s+(?P<pid>\d+)/(?P<tid>\d+)\s+(?P<period>\d+)\s+\S+:\s*$")
# "\t          46d30a mdwrite (/usr/lib/postgresql/15/bin/postgres)"; the symbol may hold
# spaces and parentheses (demangled C++), the dso is the last parenthesised group.
FRAME = re.compile(r"^\s+(?P<ip>[0-9a-f]+)\s+(?P<sym>.*?)\s*\((?P<dso>[^()]*)\)\s*$")

Sample = collections.namedtuple("Sample", "comm pid tid frames")  # frames: leaf first


def frame_name(sym, dso):
    """A frame's label: the symbol, "[libfoo.so]" when perf could not name it, "_[k]" for
    the kernel (as FlameGraph's stackcollapse-perf does, so the colours can tell)."""
    sym = re.sub(r"\+0x[0-9a-f]+$", "", sym.strip())
    if sym in ("", "[unknown]"):
        sym = "[%s]" % dso.rsplit("/", 1)[-1] if dso not in ("", "[unknown]") else "[unknown]"
    if dso.startswith("[kernel"):
        sym += "_[k]"
    return sym.replace(";", ":")  # ";" separates frames in the folded form


def parse_perf_script(lines):
    """Yields one Sample per sample of `perf script -F comm,pid,tid,period,event,ip,sym,dso`."""
    head = None
    frames = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if head:
                yield Sample(head["comm"], int(head["pid"]), int(head["tid"]), frames)
            head, frames = None, []
            continue
        if head is None:
            m = HEADER.match(line)
            if m:
                head, frames = m.groupdict(), []
            continue
        m = FRAME.match(line)
        if m:
            name = frame_name(m["sym"], m["dso"])
            # A frame-pointer walk through code built without them reads garbage: up to
            # perf's 127 frames of "[unknown]". A run of unnamed frames says no more than one.
            if not (name.startswith("[") and frames and frames[-1] == name):
                frames.append(name)
    if head:
        yield Sample(head["comm"], int(head["pid"]), int(head["tid"]), frames)


def kind_by_comm(comm):
    for k in KINDS[:-2]:
        if comm == k or comm.startswith(k[:15]):  # the kernel keeps 15 characters of a name
            return k
    return OTHER


def classify(sample, pids):
    """The process kind of a sample: from the stack's pid list when given, else the name."""
    if sample.pid == 0:
        return IDLE
    if pids is not None:
        return pids.get(sample.pid, OTHER)
    return kind_by_comm(sample.comm)


def fold(samples, pids=None):
    """Counter of folded stacks ("kind;root;...;leaf" -> samples), samples per kind, and
    leaf frames per kind (self time). An "other" sample is folded to its command name only:
    the noise gets a name, not a tower of its own stacks."""
    stacks = collections.Counter()
    per_kind = collections.Counter()
    self_syms = collections.defaultdict(collections.Counter)
    for s in samples:
        kind = classify(s, pids)
        per_kind[kind] += 1
        if s.frames:
            self_syms[kind][s.frames[0]] += 1
        if kind == IDLE:
            continue
        if kind == OTHER:  # noise from outside the stack: who, not where
            path = [kind, s.comm.replace(";", ":")]
        else:
            path = [kind] + s.frames[::-1]
        stacks[";".join(path)] += 1
    return stacks, per_kind, self_syms


def drawn_stacks(stacks, per_kind, with_other=False):
    """The stacks to draw and a line saying what the picture holds. On a shared machine the
    other processes (other stacks, builds) may take most of the CPU and squeeze the stack's
    towers to slivers: they are left out unless asked for, their share said instead."""
    total = sum(per_kind.values()) or 1
    if with_other or not per_kind[OTHER]:
        drawn = stacks
    else:
        drawn = collections.Counter({k: n for k, n in stacks.items() if not k.startswith(OTHER + ";")})
    shown = sum(drawn.values())
    left = []
    if shown < sum(stacks.values()):
        left.append("other processes %.1f %%" % (100 * per_kind[OTHER] / total))
    if per_kind[IDLE]:
        left.append("idle %.1f %%" % (100 * per_kind[IDLE] / total))
    line = "width = %d samples, %.1f %% of all CPU time" % (shown, 100 * shown / total)
    return drawn, line + ("; left out: " + ", ".join(left) if left else "")


def read_pids(path):
    pids = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and parts[0].isdigit():
                pids[int(parts[0])] = parts[1]
    return pids


# ---- the SVG --------------------------------------------------------------------------------

class Node:
    def __init__(self, name):
        self.name = name
        self.count = 0
        self.children = {}


def build_tree(stacks):
    root = Node("all")
    for stack, n in stacks.items():
        root.count += n
        node = root
        for name in stack.split(";"):
            node = node.children.setdefault(name, Node(name))
            node.count += n
    return root


def colour(name, depth):
    """A shade from a hash of the name (stable across runs) in a hue that tells the code
    apart: blue for the kernel, green for ours (cabinet::) and libpqxx, warm for the rest
    (libraries, PostgreSQL, nginx); grey for "all" and the process kinds."""
    if depth <= 1:
        return "rgb(170,175,195)"
    h = zlib.crc32(name.encode())
    v1, v2 = (h & 0xFF) / 255, ((h >> 8) & 0xFF) / 255
    if name.endswith("_[k]"):
        return "rgb(%d,%d,%d)" % (100 + 50 * v1, 160 + 40 * v2, 230)
    if "cabinet::" in name or "pqxx::" in name:
        return "rgb(%d,%d,%d)" % (80 + 60 * v1, 190 + 40 * v2, 80 + 40 * v1)
    return "rgb(%d,%d,%d)" % (205 + 50 * v1, 80 + 150 * v2, 55 * v1)


def fit_label(name, px):
    """The name cut to what fits in px at 11 px Verdana (~6.6 px a character), or nothing."""
    chars = int((px - 6) / 6.6)
    if chars < 3:
        return ""
    return name if len(name) <= chars else name[:chars - 2] + ".."


# Click a frame: it and what it calls fill the width, its callers stretch across dimmed,
# the rest hides; click "all" to go back. fit() is fit_label's twin.
ZOOM_JS = """
(function () {
  var pad = PAD, inner = INNER, eps = 1e-6;
  var frames = Array.prototype.slice.call(document.querySelectorAll("g.frame"));
  function num(g, a) { return +g.getAttribute("data-" + a); }
  function fit(g, x, w) {
    var r = g.querySelector("rect"), t = g.querySelector("text");
    if (!t) {
      t = g.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "text"));
      t.setAttribute("y", +r.getAttribute("y") + FRAME_H - 4);
    }
    var name = g.querySelector("title").textContent.replace(/ [(][0-9]+ samples, [0-9.]+%[)]$/, "");
    var n = Math.floor((w - 6) / 6.6);
    r.setAttribute("x", pad + x); r.setAttribute("width", w);
    t.setAttribute("x", pad + x + 3);
    t.textContent = n < 3 ? "" : (name.length <= n ? name : name.slice(0, n - 2) + "..");
  }
  function zoom(z) {
    var x0 = num(z, "x"), w0 = num(z, "w"), d0 = num(z, "d");
    frames.forEach(function (g) {
      var x = num(g, "x"), w = num(g, "w"), d = num(g, "d");
      g.style.display = ""; g.style.opacity = "";
      if (d < d0 && x <= x0 + eps && x + w >= x0 + w0 - eps) { fit(g, 0, inner); g.style.opacity = 0.6; }
      else if (d >= d0 && x >= x0 - eps && x + w <= x0 + w0 + eps) fit(g, (x - x0) / w0 * inner, w / w0 * inner);
      else g.style.display = "none";
    });
  }
  frames.forEach(function (g) {
    g.style.cursor = "pointer";
    g.addEventListener("click", function () { zoom(g); });
  });
})();
"""


def render_svg(stacks, title, subtitle="", width=1200, frame_h=16, min_px=1.0):
    """A flame graph: root at the bottom, each frame's width proportional to its samples;
    hover shows name, samples and share (the <title> of each frame), a click zooms (ZOOM_JS,
    from each frame's data-x/-w: its start and width as shares of all samples, data-d: depth)."""
    root = build_tree(stacks)
    total = root.count or 1
    pad, top = 10, 56
    inner = width - 2 * pad

    def depth_of(node):  # of the frames wide enough to be drawn
        wide = [c for c in node.children.values() if c.count / total * inner >= min_px]
        return 1 + max((depth_of(c) for c in wide), default=0)

    levels = depth_of(root)
    height = top + levels * frame_h + 2 * pad
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'font-family="Verdana, sans-serif" font-size="11">' % (width, height, width, height),
        '<rect x="0" y="0" width="%d" height="%d" fill="#f8f8f0"/>' % (width, height),
        '<text x="%d" y="24" font-size="16" text-anchor="middle">%s</text>'
        % (width // 2, html.escape(title)),
        '<text x="%d" y="42" fill="#555" text-anchor="middle">%s</text>'
        % (width // 2, html.escape(subtitle)),
    ]

    def draw(node, x, depth):
        w = node.count / total * inner
        if w < min_px:
            return
        y = height - pad - (depth + 1) * frame_h
        label = "%s (%d samples, %.2f%%)" % (node.name, node.count, 100 * node.count / total)
        out.append('<g class="frame" data-x="%.7f" data-w="%.7f" data-d="%d"><title>%s</title>'
                   % (x / inner, w / inner, depth, html.escape(label)))
        out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" rx="2" fill="%s"/>'
                   % (pad + x, y, w, frame_h - 1, colour(node.name, depth)))
        label = fit_label(node.name, w)
        if label:  # else the zoom script adds it when the frame grows
            out.append('<text x="%.2f" y="%d">%s</text>' % (pad + x + 3, y + frame_h - 4, html.escape(label)))
        out.append("</g>")
        cx = x
        for child in sorted(node.children.values(), key=lambda c: c.name):
            draw(child, cx, depth + 1)
            cx += child.count / total * inner

    draw(root, 0, 0)
    out.append('<script type="text/ecmascript"><![CDATA[%s]]></script>'
               % ZOOM_JS.replace("PAD", str(pad)).replace("INNER", str(inner)).replace("FRAME_H", str(frame_h)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---- the text summary ------------------------------------------------------------------------

def total_time(stacks, kind):
    """Samples in which each frame of `kind` appears (itself or below it), recursion counted once."""
    counts = collections.Counter()
    for stack, n in stacks.items():
        frames = stack.split(";")
        if frames[0] == kind:
            for f in set(frames[1:]):
                counts[f] += n
    return counts


def summary(per_kind, self_syms, top=25, tops_for=("cabinet-fcgi", "postgres"), stacks=None):
    """CPU share per process kind (of every sample on every CPU, idle included), the top
    symbols by self time of the kinds named and, given the folded stacks, by total time:
    a kernel function on top of the self list says less than which of our calls led there."""
    total = sum(per_kind.values()) or 1
    lines = ["CPU share per process kind (%% of all %d samples on all CPUs):" % total, ""]
    extra = sorted(k for k in per_kind if k not in KINDS)  # e.g. the worker, the fakes
    kinds = KINDS[:-2] + extra + [OTHER, IDLE]
    for k in kinds:
        if per_kind[k]:
            lines.append("  %-14s %6.1f %%  %7d samples" % (k, 100 * per_kind[k] / total, per_kind[k]))
    busy = total - per_kind[IDLE]
    stack_busy = busy - per_kind[OTHER]
    lines.append("")
    lines.append("  busy %.1f %%, of which this stack %.1f %% and other processes %.1f %%"
                 % (100 * busy / total, 100 * stack_busy / total, 100 * per_kind[OTHER] / total))
    for k in tops_for:
        n = per_kind[k]
        lines += ["", "Top %d symbols of %s by self time (%% of its %d samples):" % (top, k, n), ""]
        if not n:
            lines.append("  (no samples)")
            continue
        # Ties by name, so that a rerun on the same data writes the same file.
        for sym, c in sorted(self_syms[k].items(), key=lambda e: (-e[1], e[0]))[:top]:
            lines.append("  %6.2f %%  %6d  %s" % (100 * c / n, c, sym))
        if stacks is None:
            continue
        # Frames under nearly every sample (the thread's start, main) would fill the list.
        ranked = sorted(total_time(stacks, k).items(), key=lambda e: (-e[1], e[0]))
        ranked = [(f, c) for f, c in ranked if c < 0.97 * n][:top]
        lines += ["", "Top %d frames of %s by total time, itself and what it calls (%% of its %d "
                  "samples; frames in 97 %% or more of them left out):" % (top, k, n), ""]
        for f, c in ranked:
            lines.append("  %6.2f %%  %6d  %s" % (100 * c / n, c, f))
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", default="-", help="perf script output (default: stdin)")
    ap.add_argument("--pids", help='file of "PID KIND" lines: the processes of the stack')
    ap.add_argument("--svg", help="write the flame graph here")
    ap.add_argument("--summary", help="write the text summary here")
    ap.add_argument("--folded", help="write the folded stacks here (FlameGraph's format)")
    ap.add_argument("--title", default="CPU flame graph")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--with-other", action="store_true",
                    help='draw the processes outside the stack too (by default only their share is said)')
    args = ap.parse_args(argv)

    pids = read_pids(args.pids) if args.pids else None
    src = sys.stdin if args.input == "-" else open(args.input, errors="replace")
    with src:
        stacks, per_kind, self_syms = fold(parse_perf_script(src), pids)
    if not per_kind:
        sys.exit("flamegraph.py: no samples in the input (was it `perf script` output?)")
    if args.folded:
        with open(args.folded, "w") as f:
            for stack, n in sorted(stacks.items()):
                f.write("%s %d\n" % (stack, n))
    if args.svg:
        drawn, subtitle = drawn_stacks(stacks, per_kind, args.with_other)
        with open(args.svg, "w") as f:
            f.write(render_svg(drawn, args.title, subtitle))
    text = summary(per_kind, self_syms, args.top, stacks=stacks)
    if args.summary:
        with open(args.summary, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
