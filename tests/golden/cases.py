# SPDX-License-Identifier: MIT
"""The golden cases: each a name (its stored output is expected/NAME.out),
the command line ({gfxstat}, or {ministat} for the ministat link), what it
reads on stdin, the inputs it makes first (inputs.py) and extra environment.
Paths: data/, fixtures/, examples/ and fuzz/ are the repository's tests/data,
tests/fixtures, examples and tests/fuzz; everything else is the case's own
temporary directory, whose new files are all compared."""

import dataclasses
import os

import inputs as mk

G = "{gfxstat}"


@dataclasses.dataclass
class Case:
    name: str
    argv: list
    stdin: bytes = b""
    setup: object = None
    env: dict = dataclasses.field(default_factory=dict)
    ignore: tuple = ()
    ignore_why: str = ""
    prep: list = dataclasses.field(default_factory=list)


CASES = []


def case(name, *args, stdin=b"", setup=None, env=None, ministat=False, ignore=(), ignore_why="", prep=()):
    argv = ["{ministat}" if ministat else G, *args]
    CASES.append(Case(name, argv, stdin, setup, env or {}, ignore, ignore_why, [[G, *p] for p in prep]))


PAIR = mk.ab_pair
COLS = mk.columns
HIST = mk.history
ALL_HIST = [f"b{i:02d}.json" for i in range(10)]
BDW = ["examples/bdw-syslatency-mean-a.txt", "examples/bdw-syslatency-mean-b.txt"]
GFXB = "data/results/gfxbench9.json"
CAMP = "data/results/campaign.json"
NB = ["--bootstrap", "0"]
RUNSET = ["--metric-name", "score", "--unit", "points", "--higher-is-better", "--no-check"]

# ---- top level: help, version, usage errors
case("help", "--help")
case("no_args")
case("version", "version")
case("version_flag", "--version")
case("version_json", "version", "--json")
case("unknown_command", "compar")
case("describe", "__describe")
case("complete_compare", "__complete", "kind", "compare", "--format")
case("complete_run_workload", "__complete", "kind", "run", "--workload")
case("complete_commands", "__complete", "commands")
case("complete_options", "__complete", "options", "compare")
case("complete_values", "__complete", "values", "compare", "--format")
case("complete_variants", "__complete", "variants", GFXB, CAMP)
case("complete_metrics", "__complete", "metrics", GFXB)
case("complete_nothing", "__complete", "nosuch")
for sub in ("ministat", "summary", "compare", "import", "show", "merge", "run", "workload", "ab", "campaign",
            "bisect", "history", "report", "lava", "devices", "tune", "version"):
    case(f"help_{sub}", sub, "--help")
case("usage_compare_bad_format", "compare", "--format", "yaml", "a.json")
case("usage_compare_missing_file", "compare", "nothere.json")
case("usage_run_runs_nan", "run", "--runs", "abc", "-o", "x.json", "--", "true")
case("usage_run_no_output", "run", "--", "true")
case("usage_summary_width", "summary", "--width", "5", "x.txt", setup=COLS)
case("usage_import_from", "import", "--from", "cvs", "x.csv", "-o", "y.json")

# ---- ministat: column files, options, the ministat link
case("ministat_two", "ministat", *BDW)
case("ministat_link", *BDW, ministat=True)
case("ministat_link_q", "-q", *BDW, ministat=True)
case("ministat_A", "ministat", "-A", "x.txt", "y.txt", setup=COLS)
case("ministat_n", "ministat", "-n", "x.txt", "y.txt", setup=COLS)
case("ministat_s", "ministat", "-s", "x.txt", "y.txt", setup=COLS)
case("ministat_c80", "ministat", "-c", "80", "x.txt", "y.txt", setup=COLS)
case("ministat_C2", "ministat", "-C", "2", "x.txt", "y.txt", setup=COLS)
case("ministat_d", "ministat", "-d", ",", "-C", "2", "z.csv", "z.csv", setup=COLS)
case("ministat_too_few", "ministat", "-C", "2", "-d", ",", "z.csv", "x.txt", setup=COLS)
case("ministat_w60", "ministat", "-w", "60", "x.txt", "y.txt", setup=COLS)
case("ministat_csv_hint", "ministat", "x.txt", "z.csv", setup=COLS)
case("ministat_labels", "ministat", "old=x.txt", "new=y.txt", setup=COLS)
case("ministat_stdin", "ministat", stdin=b"1\n2\n3\n4\n5\n")
case("ministat_results", "ministat", GFXB, "--metric", "gl_4")
case("ministat_results_all", "ministat", "-A", CAMP)
case("ministat_bad_option", "ministat", "-Z", "x.txt", setup=COLS)
case("ministat_three", "ministat", "-q", "x.txt", "y.txt", "x.txt", setup=COLS)

# ---- summary
case("summary_columns", "summary", "x.txt", "y.txt", setup=COLS)
case("summary_json", "summary", "--json", "x.txt", "y.txt", setup=COLS)
case("summary_results", "summary", GFXB)
case("summary_results_metric", "summary", "--metric", "latency", CAMP)
case("summary_campaign", "summary", CAMP)
case("summary_clustered", "summary", "data/results/clustered.json")
case("summary_no_diagnostics", "summary", "--no-diagnostics", "data/results/clustered.json")
case("summary_width", "summary", "--width", "100", GFXB)
case("summary_C2", "summary", "-C", "2", "x.txt", setup=COLS)

# ---- compare: renderers and options
case("compare_pair", "compare", *NB, "a.json", "b.json", setup=PAIR)
case("compare_pair_bootstrap", "compare", "--bootstrap", "200", "--seed", "7", "a.json", "b.json", setup=PAIR)
case("compare_pair_brief", "compare", *NB, "--brief", "a.json", "b.json", setup=PAIR)
case("compare_pair_markdown", "compare", *NB, "--format", "markdown", "a.json", "b.json", setup=PAIR)
case("compare_pair_json", "compare", *NB, "--format", "json", "a.json", "b.json", setup=PAIR)
case("compare_pair_csv", "compare", *NB, "--format", "csv", "a.json", "b.json", setup=PAIR)
case("compare_pair_gate", "compare", *NB, "--gate", "a.json", "b.json", setup=PAIR)
case("compare_same_gate_strict", "compare", *NB, "--gate", "--strict", "a.json", "a2.json", setup=mk.same_pair)
case("compare_same", "compare", *NB, "a.json", "a2.json", setup=mk.same_pair)
case("compare_exact", "compare", "--exact", "a.json", "b.json", setup=PAIR)
case("compare_fdr", "compare", *NB, "--fdr", "--threshold", "2", "--confidence", "0.9", "a.json", "b.json",
     setup=PAIR)
case("compare_lower", "compare", *NB, "--lower-is-better", "--metric", "fps", "a.json", "b.json", setup=PAIR)
case("compare_width", "compare", *NB, "--width", "120", "a.json", "b.json", setup=PAIR)
case("compare_columns", "compare", *NB, "x.txt", "y.txt", setup=COLS)
case("compare_columns_C2", "compare", *NB, "-C", "2", "x.txt", "y.txt", setup=COLS)
case("compare_columns_d", "compare", *NB, "-d", ",", "-C", "2", "z.csv", "z.csv", setup=COLS)
case("compare_bdw", "compare", *NB, *BDW)
case("compare_bdw_brief", "compare", *NB, "--brief", *BDW)
case("compare_gfxbench", "compare", *NB, GFXB)
case("compare_gfxbench_full", "compare", *NB, "--full", GFXB)
case("compare_gfxbench_table", "compare", *NB, "--table", "--sort", "change", GFXB)
case("compare_gfxbench_only_changed", "compare", *NB, "--only-changed", "--sort", "p", GFXB)
case("compare_gfxbench_markdown", "compare", *NB, "--format", "markdown", GFXB)
case("compare_gfxbench_json", "compare", *NB, "--format", "json", GFXB)
case("compare_gfxbench_csv", "compare", *NB, "--format", "csv", GFXB)
case("compare_gfxbench_brief", "compare", *NB, "--brief", GFXB)
case("compare_gfxbench_gate", "compare", *NB, "--gate", GFXB)
case("compare_gfxbench_filter", "compare", *NB, "--filter", "/_off$/", GFXB)
case("compare_gfxbench_geomean", "compare", *NB, GFXB, "--geomean", "gl_4", "--geomean", "gl_trex")
case("compare_gfxbench_exports", "compare", *NB, "--gate", "--junit", "junit.xml", "--openmetrics", "metrics.txt",
     "--kcidb", "kcidb.json", "--markdown", "report.md", "--json", "report.json", GFXB)
case("compare_gfxbench_kcidb_origin", "compare", *NB, "--kcidb", "k.json", "--kcidb-origin", "myci", GFXB)
case("compare_exports_pair", "compare", *NB, "--junit", "junit.xml", "--openmetrics", "metrics.txt",
     "--kcidb", "kcidb.json", "--markdown", "report.md", "--json", "report.json", "a.json", "b.json", setup=PAIR)
case("compare_exports_strict", "compare", *NB, "--gate", "--strict", "--junit", "junit.xml", "a.json", "a2.json",
     setup=mk.same_pair)
case("compare_step_summary", "compare", *NB, "--markdown", "report.md", "a.json", "b.json", setup=PAIR,
     env={"GITHUB_STEP_SUMMARY": "summary.md"})
case("compare_campaign_variant", "compare", *NB, "--baseline", "patched", "--variant", "baseline", CAMP)
case("compare_campaign", "compare", *NB, CAMP)
case("compare_campaign_markdown", "compare", *NB, "--format", "markdown", CAMP)
case("compare_campaign_json", "compare", *NB, "--format", "json", CAMP)
case("compare_clustered", "compare", *NB, "data/results/clustered.json")
case("compare_clustered_null", "compare", *NB, "data/results/clustered_null.json")
case("compare_confounded", "compare", *NB, "data/results/confounded.json")
case("compare_partial_boots", "compare", *NB, "data/results/partial_boots.json")
case("compare_shared_boots", "compare", *NB, "data/results/shared_boots.json")
case("compare_shared_boots_json", "compare", *NB, "--format", "json", "data/results/shared_boots.json")
case("compare_no_diagnostics", "compare", *NB, "--no-diagnostics", "data/results/clustered.json")
case("compare_drop_outliers", "compare", *NB, "--drop-outliers", CAMP)
case("compare_throttled", "compare", *NB, "throttled.json", setup=mk.throttled)
case("compare_drop_throttled", "compare", *NB, "--drop-throttled", "throttled.json", setup=mk.throttled)
case("compare_drop_throttled_json", "compare", *NB, "--drop-throttled", "--format", "json", "throttled.json",
     setup=mk.throttled)
case("compare_drift", "compare", *NB, "drift.json", setup=mk.drifting)
case("compare_drift_json", "compare", *NB, "--format", "json", "drift.json", setup=mk.drifting)
case("show_drift", "show", "drift.json", setup=mk.drifting)
# Facts of the moment: interleaved variants under one varying load are
# context; a candidate run under a load of its own is a finding.
case("show_load_interleaved", "show", "interleaved.json", setup=mk.volatile_load)
case("show_load_candidate", "show", "loaded.json", setup=mk.volatile_load)
case("show_load_candidate_json", "show", "--json", "loaded.json", setup=mk.volatile_load)
case("compare_load_candidate", "compare", "loaded.json", setup=mk.volatile_load)
case("compare_load_rows", "compare", "--row", "name", "interleaved.json", setup=mk.volatile_load)
case("summary_drift", "summary", "drift.json", setup=mk.drifting)
case("compare_paired_suite", "compare", *NB, "paired.json", setup=mk.paired_suite)
case("compare_paired_suite_markdown", "compare", *NB, "--format", "markdown", "paired.json", setup=mk.paired_suite)
case("compare_paired_suite_json", "compare", *NB, "--format", "json", "paired.json", setup=mk.paired_suite)
case("compare_failed", "compare", *NB, "failed.json", setup=mk.failed_runs)
case("compare_failed_json", "compare", *NB, "--format", "json", "failed.json", setup=mk.failed_runs)
case("compare_failed_junit", "compare", *NB, "--gate", "--junit", "j.xml", "failed.json", setup=mk.failed_runs)
case("compare_blocked", "compare", *NB, "ab.json", setup=mk.blocked)
case("compare_blocked_markdown", "compare", *NB, "--format", "markdown", "ab.json", setup=mk.blocked)
case("compare_blocked_json", "compare", *NB, "--format", "json", "ab.json", setup=mk.blocked)
case("compare_blocked_brief", "compare", *NB, "--brief", "ab.json", setup=mk.blocked)
case("compare_fleet", "compare", *NB, "fleet.json", setup=mk.fleet)
case("compare_fleet_markdown", "compare", *NB, "--format", "markdown", "fleet.json", setup=mk.fleet)
case("compare_fleet_json", "compare", *NB, "--format", "json", "fleet.json", setup=mk.fleet)
case("compare_suite", "compare", *NB, "suite.json", setup=mk.suite)
case("compare_suite_row_col", "compare", *NB, "--row", "name", "--col", "gpu", "--filter", "variant:patch",
     "suite.json", setup=mk.suite)
case("compare_suite_rows_gpu", "compare", *NB, "--row", "name,gpu", "suite.json", setup=mk.suite)
case("compare_suite_markdown", "compare", *NB, "--format", "markdown", "suite.json", setup=mk.suite)
case("compare_suite_json", "compare", *NB, "--format", "json", "suite.json", setup=mk.suite)
case("compare_suite_csv", "compare", *NB, "--format", "csv", "suite.json", setup=mk.suite)
case("compare_suite_exports", "compare", *NB, "--gate", "--junit", "j.xml", "--openmetrics", "m.txt", "--kcidb",
     "k.json", "suite.json", setup=mk.suite)
case("compare_summaries_ministat", "compare", "--summaries", "data/summaries/ministat-bdw.txt")
case("compare_summaries_three", "compare", "--summaries", "data/summaries/ministat-three.txt")
case("compare_summaries_md", "compare", "--summaries", "data/summaries/fps-table.md")
case("compare_summaries_csv", "compare", "--summaries", "data/summaries/benches.csv")
case("compare_summaries_json", "compare", "--summaries", "--format", "json", "data/summaries/ministat-bdw.txt")
case("compare_summaries_mail", "compare", "--summaries", "data/summaries/mail-reply-quoted.txt")
case("compare_plot", "compare", *NB, "--plot", "cmp.svg", "--metric", "fps", "a.json", "b.json", setup=PAIR)
case("compare_plot_run_order", "compare", *NB, "--plot", "ro.svg", "--plot-kind", "run-order", "--metric", "fps",
     "a.json", "b.json", setup=PAIR)
case("compare_plot_boot_means", "compare", *NB, "--plot", "bm.svg", "--plot-kind", "boot-means", CAMP,
     "--metric", "latency")
case("compare_plot_forest", "compare", *NB, "--plot", "forest.svg", "--plot-kind", "forest", GFXB)
case("compare_plot_multi", "compare", *NB, "--plot", "p.svg", "a.json", "b.json", setup=PAIR)

# ---- show, merge, import
case("show_gfxbench", "show", GFXB)
case("show_campaign", "show", CAMP)
case("show_campaign_json", "show", "--json", CAMP)
case("show_clustered", "show", "data/results/clustered.json")
case("show_failed", "show", "failed.json", setup=mk.failed_runs)
case("show_throttled", "show", "throttled.json", setup=mk.throttled)
case("show_blocked", "show", "ab.json", setup=mk.blocked)
case("show_blocked_json", "show", "--json", "ab.json", setup=mk.blocked)
case("show_fleet", "show", "fleet.json", setup=mk.fleet)
case("show_suite_width", "show", "--width", "100", "suite.json", setup=mk.suite)
case("merge_pair", "merge", "a.json", "b.json", "-o", "m.json", setup=PAIR)
case("merge_stdout", "merge", "a.json", "b.json", "-o", "-", setup=PAIR)
case("merge_replace", "merge", "--replace", "a.json", "b.json", "-o", "a.json", setup=PAIR)
case("merge_three", "merge", "a.json", "b.json", "a2.json", "-o", "m.json", setup=mk.all_of(PAIR, mk.same_pair))
case("merge_exists", "merge", "a.json", "b.json", "-o", "a.json", setup=PAIR)
case("import_lines", "import", "--from", "lines", "x.txt", "-o", "r.json", "--label", "x", setup=COLS)
case("import_lines_stdin", "import", "--from", "lines", "-", "-o", "-", "--unit", "ms", "--lower-is-better",
     stdin=b"1.5\n2.5\n3.5\n")
case("import_csv_runs", "import", "--from", "csv", "data/import/csv/runs.csv", "-o", "-")
case("import_csv_plain", "import", "--from", "csv", "data/import/csv/plain.csv", "-o", "-")
case("import_csv_wide", "import", "--from", "csv", "--bench-col", "test", "--unit", "fps", "--higher-is-better",
     "data/import/csv/gfxbench4-avg-wide.csv", "-o", "-")
case("import_csv_wide_error", "import", "--from", "csv", "data/import/csv/gfxbench4-avg-wide.csv", "-o", "-")
case("import_csv_error", "import", "--from", "csv", "data/import/csv/unterminated_quote.csv", "-o", "-")
case("import_hyperfine", "import", "--from", "hyperfine", "data/import/hyperfine/scan.json", "-o", "-")
case("import_gbench", "import", "--from", "gbench", "data/import/gbench/repetitions.json", "-o", "-")
case("import_gotest", "import", "--from", "gotest", "data/import/gotest/bench.txt", "-o", "-")
case("import_ezbench", "import", "--from", "ezbench", "data/import/ezbench/completed.txt", "-o", "-")
case("import_pts", "import", "--from", "pts", "data/import/pts/composite.xml", "-o", "-")
case("import_igt_syslatency", "import", "--from", "igt-syslatency",
     "data/run_outputs/gem_syslatency.bdw_before_tasklets.txt", "-o", "-")
case("import_igt_exec_nop", "import", "--from", "igt-exec-nop", "data/run_outputs/gem_exec_nop.basic.skl_guc6.1.txt",
     "-o", "-")
case("import_vkmark", "import", "--from", "vkmark", "fixtures/frames/vkmark.txt", "-o", "-")
case("import_mangohud", "import", "--from", "mangohud", "fixtures/frames/mangohud_0.6.8_vkcube.csv", "-o", "-")
case("import_presentmon", "import", "--from", "presentmon", "fixtures/frames/presentmon.csv", "-o", "-")
case("import_glmark2", "import", "--from", "glmark2", "fixtures/mesa/glmark2-es2-two-scenes.stdout", "-o", "-")
case("import_append", "import", "--from", "lines", "--append", "y.txt", "-o", "r.json", "--label", "y",
     setup=mk.all_of(COLS, mk.ab_pair, lambda d: os.rename(d + "/a.json", d + "/r.json")))
case("import_bad_format", "import", "--from", "hyperfine", "data/import/hyperfine/broken.json", "-o", "x.json")

# ---- report: the HTML page
case("report_pair", "report", *NB, "a.json", "b.json", "-o", "page.html", setup=PAIR)
case("report_no_diagnostics", "report", *NB, "--no-diagnostics", "a.json", "b.json", "-o", "page.html",
     "--title", "fps <now>", setup=PAIR)
case("report_campaign", "report", *NB, CAMP, "-o", "page.html")
case("report_load_candidate", "report", *NB, "loaded.json", "-o", "page.html", setup=mk.volatile_load)
case("report_suite", "report", *NB, GFXB, "-o", "page.html", "--metric", "gl_4", "--metric", "gl_trex")

# ---- history
case("history", "history", *ALL_HIST, setup=HIST)
case("history_markdown", "history", "--format", "markdown", *ALL_HIST, setup=HIST)
case("history_json", "history", "--format", "json", *ALL_HIST, setup=HIST)
case("history_files", "history", "--json", "h.json", "--plot", "h.svg", "--html", "h.html", "--metric", "fps",
     *ALL_HIST, setup=HIST)
case("history_before_step", "history", *ALL_HIST[:6], setup=HIST)
# --full: the whole report, a line per item (what the HTML page embeds);
# --width 120: the bisect command on fewer lines.
case("history_full", "history", "--full", *ALL_HIST, setup=HIST)
case("history_wide", "history", "--width", "120", *ALL_HIST, setup=HIST)
case("history_since", "history", "--since", mk.build_commit(3), "--min-builds", "3", *ALL_HIST, setup=HIST)
case("history_git_order", "history", "--order", "git", "--git", "repo", *reversed(ALL_HIST),
     setup=mk.history_repo)
case("history_date_order", "history", "--order", "date", "--alpha", "0.05", "--permutations", "199", *ALL_HIST,
     setup=HIST)
case("history_merged", "history", "--format", "markdown", "m.json", setup=HIST,
     prep=[["merge", *ALL_HIST, "-o", "m.json"]])
case("history_bad_key", "history", "--key", "nope", *ALL_HIST, setup=HIST)

# ---- bisect
STEPS = "fuzz/bisect_corpus/steps.json"
case("bisect_report", "bisect", "report", STEPS)
case("bisect_report_json", "bisect", "report", STEPS, "--format", "json")
case("bisect_report_markdown", "bisect", "report", STEPS, "--format", "markdown")
case("bisect_check", "bisect", "check", "--good", "a.json", "--bad", "b.json", "--target-metric", "fps", "--commits", "63",
     setup=PAIR)
case("bisect_check_json", "bisect", "check", "--good", "a.json", "--bad", "b.json", "--target-metric", "fps",
     "--format", "json", setup=PAIR)
case("bisect_check_same", "bisect", "check", "--good", "a.json", "--bad", "a2.json", "--target-metric", "fps",
     setup=mk.same_pair)

BENCH = ["--metric", r"score=score: (\d+)", "--higher-is-better", "--no-check"]
REFS = [["run", "--runs", "6", *BENCH, "--label", "good", "-o", "good.json", "--", "./bench.sh", "100"],
        ["run", "--runs", "6", *BENCH, "--label", "bad", "-o", "bad.json", "--", "./bench.sh", "90"]]
STEP = ["bisect", "step", "--good", "good.json", "--bad", "bad.json", "-C", "repo", "-o", "steps.json"]
case("bisect_step_bad", *STEP, "--", "./bench.sh", "91", setup=mk.bisect_repo, prep=REFS)
case("bisect_step_good", *STEP, "--", "./bench.sh", "100", setup=mk.bisect_repo, prep=REFS)
case("bisect_step_no_bisection", *STEP, "--", "./bench.sh", "100", setup=mk.bisect_repo_idle, prep=REFS)
case("bisect_step_build_fails", *STEP, "--build", "exit 1", "--", "./bench.sh", "100", setup=mk.bisect_repo,
     prep=REFS)
case("bisect_check_refs", "bisect", "check", "--good", "good.json", "--bad", "bad.json", "--commits", "4",
     setup=mk.bisect_repo, prep=REFS)
case("bisect_report_made", "bisect", "report", "steps.json", setup=mk.bisect_repo,
     prep=REFS + [STEP + ["--", "./bench.sh", "91"]])

# ---- lava
case("lava_testdef", "lava", "testdef", "--name", "glmark2", "-o", "t.yaml", "--", "gfxstat", "run", "-o", "r.json",
     "--", "glmark2")
case("lava_testdef_stdout", "lava", "testdef", "--", "gfxstat", "ab", "-o", "r.json", "--variant", "a",
     "--variant", "b", "--", "glmark2")
case("lava_testdef_job", "lava", "testdef", "-o", "t.yaml", "--job", "job.yaml", "--device-type", "qemu", "--",
     "gfxstat", "run", "-o", "r.json", "--", "true")
case("import_lava_not_export", "import", "--from", "lava", "examples/lava/job.yaml", "-o", "-")
case("run_lava_signals", "run", "--runs", "2", "--lava", "on", *RUNSET, "-o", "r.json", "--", "sh", "-c", "echo 5")
case("ab_lava_signals", "ab", "--runs", "2", "--seed", "3", "--lava", "on", "--variant", "a", "--variant", "b",
     *RUNSET, "-o", "ab.json", "--", "sh", "-c", "echo 5")

# ---- devices, tune (a fake machine)
# devices lists this machine's /dev/dri (libdrm reads no fake root): left
# out but for its usage (README.md).
case("devices_usage", "devices", "--jsn")
case("tune_show", "tune", "show", "--root", "data/probe_root/tunable")
case("tune_show_json", "tune", "show", "--json", "--root", "data/probe_root/tunable")
case("tune_apply", "tune", "apply", "--root", "root", setup=mk.tunable_machine)
case("tune_apply_gpu_freq", "tune", "apply", "--gpu-freq", "rp0", "--root", "root", setup=mk.tunable_machine)
case("tune_reset", "tune", "reset", "--root", "root", setup=mk.tunable_machine, prep=[["tune", "apply", "--root", "root"]])
case("tune_reset_nothing", "tune", "reset", "--root", "root", setup=mk.tunable_machine)
case("tune_unknown", "tune", "check")
case("tune_show_garbage", "tune", "show", "--root", "data/probe_root/garbage")
case("workload_no_such_device", "workload", "drm-ioctl", "--device", "/nonexistent")
case("workload_not_drm", "workload", "i915-exec-nop", "--device", "/dev/null")
case("tune_show_machine", "tune", "show", "--root", "data/probe_root/machine")
# The empty root every case has: only the DRM clients' item, and the line of
# what was looked for and not found. --width 1000: the plain table.
case("tune_show_empty", "tune", "show")
case("tune_show_table", "tune", "show", "--width", "1000", "--root", "data/probe_root/tunable")

# ---- run and ab with deterministic programs
case("run_echo", "run", "--runs", "3", *RUNSET, "-o", "r.json", "--", "sh", "-c", "echo 5")
case("run_script", "run", "--runs", "4", "--metric", r"score=score: (\d+)", "--no-check", "--label", "s",
     "-o", "r.json", "--", "./bench.sh", setup=mk.steady_script)
case("run_fail", "run", "--runs", "2", *RUNSET, "-o", "r.json", "--", "sh", "-c", "echo 5; exit 3")
case("run_no_metric", "run", "--runs", "2", *RUNSET, "-o", "r.json", "--", "true")
case("ab_fixed", "ab", "--runs", "3", "--seed", "1", "--variant", "a", "--variant", "b", *RUNSET,
     "--command", "a:sh -c 'echo 5'", "--command", "b:sh -c 'echo 6'", "-o", "ab.json")
case("ab_alternate", "ab", "--runs", "2", "--seed", "5", "--order", "alternate", "--variant", "x", "--variant", "y", *RUNSET,
     "-o", "ab.json", "--", "sh", "-c", "echo 7")
case("ab_gate", "ab", "--runs", "4", "--seed", "2", "--gate", "--variant", "a", "--variant", "b", *RUNSET,
     "--command", "a:sh -c 'echo 5'", "--command", "b:sh -c 'echo 4'", "-o", "ab.json")
case("ab_abba", "ab", "--runs", "2", "--seed", "9", "--order", "abba", "--variant", "a", "--variant", "b",
     "--variant", "c", *RUNSET, "--env", "b:X=1", "-o", "ab.json", "--", "sh", "-c", "echo $((5 + ${X:-0}))")
case("ab_runs_failed", "ab", "-o", "x.json", "--seed", "4", "--variant", "a", "--variant", "b", "--parser", "lines", "--gate",
     "--no-check", "--junit", "j.xml", "--kcidb", "k.json", "--openmetrics", "o.txt", "--markdown", "m.md",
     "--json", "r.json", "--", "sh", "-c", "exit 1")
case("run_runs_failed", "run", "--runs", "3", *RUNSET, "-o", "r.json", "--", "sh", "-c", "exit 1")
case("ab_one_variant", "ab", "--variant", "a", "-o", "ab.json", "--", "true")

# ---- campaign: a plan of two variants over 4 simulated boots
INIT = ["campaign", "init", "plan.json", "-d", "c"]
SIMULATED = [INIT, ["campaign", "resume", "c", "--simulate-reboots", "--no-check"]]
case("campaign_init", *INIT, setup=mk.campaign_plan)
case("campaign_init_bad_plan", "campaign", "init", "plan.json", "-d", "c", setup=mk.campaign_plan_without_expect)
case("campaign_status_new", "campaign", "status", "c", setup=mk.campaign_plan, prep=[INIT])
case("campaign_status", "campaign", "status", "c", setup=mk.campaign_plan, prep=SIMULATED)
case("campaign_status_json", "campaign", "status", "c", "--json", setup=mk.campaign_plan, prep=SIMULATED)
case("campaign_analyze", "campaign", "analyze", "c", *NB, setup=mk.campaign_plan, prep=SIMULATED)
case("campaign_analyze_json", "campaign", "analyze", "c", *NB, "--format", "json", setup=mk.campaign_plan,
     prep=SIMULATED)
case("campaign_analyze_markdown", "campaign", "analyze", "c", *NB, "--format", "markdown", setup=mk.campaign_plan,
     prep=SIMULATED)
case("campaign_install_service", "campaign", "install-service", "c", "--unit-dir", "units",
     setup=mk.all_of(mk.campaign_plan, lambda d: os.mkdir(os.path.join(d, "units"))), prep=[INIT])
case("campaign_install_service_no_dir", "campaign", "install-service", "c", "--unit-dir", "units",
     setup=mk.campaign_plan, prep=[INIT])
case("campaign_stop", "campaign", "stop", "c", setup=mk.campaign_plan, prep=[INIT])
case("campaign_not_a_dir", "campaign", "status", "nowhere")
case("campaign_usage", "campaign")
