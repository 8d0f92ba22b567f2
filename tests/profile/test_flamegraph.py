#!/usr/bin/env python3
"""tools/flamegraph.py on a small committed `perf script` sample (perf-script-sample.txt):
12 samples, written the way `perf script -F comm,pid,tid,period,event,ip,sym,dso` prints
them. Run by ctest (test "flamegraph") or: python3 tests/profile/test_flamegraph.py

The sample: cabinet-fcgi 3 (2 in one stack, pids 2001 and 2002), postgres 4 (3 in one
stack, pid 3001; 1 in pid 3002), nginx 1, wrk 1, "Web Content" 1 (not of the stack),
swapper 2 (idle).
"""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "flamegraph.py")
SAMPLE = os.path.join(HERE, "perf-script-sample.txt")
PIDS = os.path.join(HERE, "pids-sample.txt")
SVG_NS = "{http://www.w3.org/2000/svg}"

spec = importlib.util.spec_from_file_location("flamegraph", TOOL)
fg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fg)

ME_STACK = ("cabinet-fcgi;main;cabinet::api::me(cabinet::app::Request&);"
            "pqxx::connection_base::exec(char const*, int);__libc_recv")
PG_SEND = "postgres;PostgresMain;[postgres];__libc_send;__x64_sys_sendto_[k]"


def samples():
    with open(SAMPLE) as f:
        return list(fg.parse_perf_script(f))


def frames_of(svg_text):
    """{frame name: [(x, y, width), ...]} from the <g><title>name (...)</title><rect/> groups."""
    root = ET.fromstring(svg_text)  # raises on malformed XML
    frames = {}
    for g in root.iter(SVG_NS + "g"):
        title = g.find(SVG_NS + "title").text
        rect = g.find(SVG_NS + "rect")
        name = title.rsplit(" (", 1)[0]
        frames.setdefault(name, []).append(
            (float(rect.get("x")), float(rect.get("y")), float(rect.get("width"))))
    return frames


class ParseTest(unittest.TestCase):
    def test_every_sample_with_its_process_and_frames_leaf_first(self):
        s = samples()
        self.assertEqual(len(s), 12)
        self.assertEqual((s[0].comm, s[0].pid, s[0].tid), ("cabinet-fcgi", 2001, 2003))
        self.assertEqual(s[0].frames[0], "__libc_recv")
        self.assertEqual(s[0].frames[-1], "main")
        # A demangled C++ name keeps its spaces and parentheses; the dso is not part of it.
        self.assertEqual(s[0].frames[1], "pqxx::connection_base::exec(char const*, int)")
        # A command name with a space.
        self.assertIn(("Web Content", 4001), [(x.comm, x.pid) for x in s])

    def test_unnamed_frames_take_their_library_and_kernel_frames_are_marked(self):
        pg = [x for x in samples() if x.pid == 3001][0]
        self.assertEqual(pg.frames, ["__x64_sys_sendto_[k]", "__libc_send", "[postgres]", "PostgresMain"])
        other = [x for x in samples() if x.pid == 4001][0]
        self.assertEqual(other.frames, ["[unknown]"])


    def test_a_run_of_unnamed_frames_is_one_frame(self):
        text = ("wrk  5001/5001   10101010 cpu-clock:ppp: \n"
                "\t 1c2d3 luaV_execute (/usr/bin/wrk)\n"
                + "\t 0 [unknown] ([unknown])\n" * 5
                + "\t 1c2d4 luaV_execute (/usr/bin/wrk)\n\t 1c2d4 luaV_execute (/usr/bin/wrk)\n")
        s, = fg.parse_perf_script(text.splitlines(True))
        # Named recursion stays as it is.
        self.assertEqual(s.frames, ["luaV_execute", "[unknown]", "luaV_execute", "luaV_execute"])


class FoldTest(unittest.TestCase):
    def test_by_pid_list_one_tower_per_kind_and_the_rest_is_other(self):
        stacks, per_kind, _ = fg.fold(samples(), fg.read_pids(PIDS))
        self.assertEqual(stacks[ME_STACK], 2)
        self.assertEqual(stacks[PG_SEND], 3)
        self.assertEqual(stacks["postgres;PostgresMain;ExecScan"], 1)
        self.assertEqual(stacks["other;Web Content"], 1)  # noise by name, not by stack
        self.assertEqual(sum(stacks.values()), 10)  # idle is not drawn
        self.assertFalse([k for k in stacks if k.startswith("idle")])
        self.assertEqual(dict(per_kind), {"cabinet-fcgi": 3, "postgres": 4, "nginx": 1, "wrk": 1,
                                          "other": 1, "idle": 2})

    def test_a_process_of_a_known_name_outside_the_pid_list_is_other(self):
        pids = fg.read_pids(PIDS)
        del pids[3002]  # e.g. another stack's PostgreSQL
        stacks, per_kind, _ = fg.fold(samples(), pids)
        self.assertEqual(per_kind["postgres"], 3)
        self.assertEqual(stacks["other;postgres"], 1)

    def test_without_a_pid_list_the_command_name_decides(self):
        _, per_kind, _ = fg.fold(samples())
        self.assertEqual(per_kind["postgres"], 4)
        self.assertEqual(per_kind["other"], 1)


class SvgTest(unittest.TestCase):
    def setUp(self):
        stacks, _, _ = fg.fold(samples(), fg.read_pids(PIDS))
        self.svg = fg.render_svg(stacks, "test <profile> & co", width=1000)
        self.frames = frames_of(self.svg)

    def test_well_formed_with_the_expected_frames(self):
        for name in ["all", "cabinet-fcgi", "postgres", "nginx", "wrk", "other", "main",
                     "cabinet::api::me(cabinet::app::Request&)", "__x64_sys_sendto_[k]", "Web Content"]:
            self.assertIn(name, self.frames)
        self.assertNotIn("idle", self.frames)
        self.assertNotIn("pv_native_safe_halt_[k]", self.frames)
        self.assertIn("test &lt;profile&gt; &amp; co", self.svg)

    def test_widths_proportional_to_samples(self):
        (all_x, all_y, all_w), = self.frames["all"]
        self.assertAlmostEqual(all_w, 1000 - 2 * 10, places=1)
        for name, n in [("cabinet-fcgi", 3), ("postgres", 4), ("nginx", 1),
                        ("__libc_recv", 2), ("sha256_block_data_order_avx2", 1), ("ExecScan", 1)]:
            (x, y, w), = self.frames[name]
            self.assertAlmostEqual(w / all_w, n / 10, places=3, msg=name)

    def test_children_sit_on_their_parent(self):
        (px, py, pw), = self.frames["postgres"]
        (mx, my, mw), = self.frames["PostgresMain"]
        (sx, sy, sw), = self.frames["[postgres]"]
        self.assertLess(my, py)  # the root is at the bottom
        self.assertLess(sy, my)
        self.assertGreaterEqual(mx, px - 0.01)
        self.assertLessEqual(mx + mw, px + pw + 0.01)
        self.assertGreaterEqual(sx, mx - 0.01)
        self.assertLessEqual(sx + sw, mx + mw + 0.01)

    def test_towers_do_not_overlap(self):
        towers = sorted(self.frames[k][0] for k in ["cabinet-fcgi", "nginx", "other", "postgres", "wrk"])
        for (x1, _, w1), (x2, _, _) in zip(towers, towers[1:]):
            self.assertLessEqual(x1 + w1, x2 + 0.01)


    def test_zoom_data_matches_the_drawing(self):
        # The click-to-zoom script redraws from data-x/-w (shares of all samples) and data-d.
        root = ET.fromstring(self.svg)
        groups = list(root.iter(SVG_NS + "g"))
        self.assertTrue(groups)
        for g in groups:
            rect = g.find(SVG_NS + "rect")
            self.assertAlmostEqual(float(g.get("data-w")) * 980, float(rect.get("width")), places=1)
            self.assertAlmostEqual(float(g.get("data-x")) * 980 + 10, float(rect.get("x")), places=1)
        depth = {g.find(SVG_NS + "title").text.rsplit(" (", 1)[0]: int(g.get("data-d")) for g in groups}
        self.assertEqual((depth["all"], depth["postgres"], depth["PostgresMain"]), (0, 1, 2))
        self.assertIsNotNone(root.find(SVG_NS + "script"))


class SummaryTest(unittest.TestCase):
    def test_shares_per_kind_and_top_self_symbols(self):
        _, per_kind, self_syms = fg.fold(samples(), fg.read_pids(PIDS))
        text = fg.summary(per_kind, self_syms, top=2)
        lines = [l.split() for l in text.splitlines()]
        self.assertIn(["cabinet-fcgi", "25.0", "%", "3", "samples"], lines)
        self.assertIn(["postgres", "33.3", "%", "4", "samples"], lines)
        self.assertIn(["idle", "16.7", "%", "2", "samples"], lines)
        self.assertIn(["66.67", "%", "2", "__libc_recv"], lines)       # 2 of cabinet-fcgi's 3
        self.assertIn(["75.00", "%", "3", "__x64_sys_sendto_[k]"], lines)  # 3 of postgres's 4


    def test_total_time_counts_callers_and_leaves_out_frames_in_every_sample(self):
        stacks, per_kind, self_syms = fg.fold(samples(), fg.read_pids(PIDS))
        text = fg.summary(per_kind, self_syms, top=5, stacks=stacks)
        fcgi_total = text.split("Top 5 frames of cabinet-fcgi by total time")[1].split("Top 5")[0]
        lines = [l.split(None, 3) for l in fcgi_total.splitlines()]
        self.assertIn(["66.67", "%", "2", "cabinet::api::me(cabinet::app::Request&)"], lines)
        self.assertIn(["33.33", "%", "1", "sha256_block_data_order_avx2"], lines)
        self.assertNotIn("main", [l[-1] for l in lines if l])  # in all 3 samples


class CliTest(unittest.TestCase):
    def test_writes_the_svg_and_the_summary(self):
        with tempfile.TemporaryDirectory() as d:
            svg, txt = os.path.join(d, "me.svg"), os.path.join(d, "me.txt")
            subprocess.run([sys.executable, TOOL, "--pids", PIDS, "--svg", svg, "--summary", txt,
                            "--title", "me", SAMPLE], check=True)
            with open(svg) as f:
                self.assertIn(ME_STACK.split(";")[2], frames_of(f.read()))
            with open(txt) as f:
                self.assertIn("Top 25 symbols of postgres", f.read())

    def test_processes_outside_the_stack_are_said_not_drawn_unless_asked(self):
        with tempfile.TemporaryDirectory() as d:
            svg = os.path.join(d, "me.svg")
            run = [sys.executable, TOOL, "--pids", PIDS, "--svg", svg, "--summary", os.devnull, SAMPLE]
            subprocess.run(run, check=True)
            with open(svg) as f:
                text = f.read()
            frames = frames_of(text)
            self.assertNotIn("other", frames)
            self.assertNotIn("Web Content", frames)
            self.assertIn("width = 9 samples, 75.0 % of all CPU time; "
                          "left out: other processes 8.3 %, idle 16.7 %", text)
            (all_x, _, all_w), = frames["all"]
            (x, _, w), = frames["postgres"]
            self.assertAlmostEqual(w / all_w, 4 / 9, places=3)
            subprocess.run(run + ["--with-other"], check=True)
            with open(svg) as f:
                self.assertIn("Web Content", frames_of(f.read()))

    def test_input_without_samples_fails(self):
        r = subprocess.run([sys.executable, TOOL], input="not perf output\n", text=True,
                           capture_output=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no samples", r.stderr)


if __name__ == "__main__":
    unittest.main()
