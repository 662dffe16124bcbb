// SPDX-License-Identifier: MIT
#pragma once

// Helpers that the page builders share: lookups in a dataset and the text forms of its figures.

#include "dataset/diff.hpp"
#include "site/site_data.hpp"
#include "site/template_check.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace layerbench::site {

Data object();
Data list();
Data link(const std::string& href, const std::string& label);
Data labelled(const std::string& label, const std::string& value); // {label, value}
// A cell that was measured: status ok with a positive median (nullptr is not).
bool is_timed(const dataset::Cell* cell);

std::string layer_path(const std::string& layer); // "layers/Conv2d.html"

// The median of an ok cell; nullopt for a skipped or absent cell.
std::optional<double> median_ms(const dataset::Dataset& data, const std::string& layer, int batch);
// "0.024" (milliseconds, at the significant figures the cell's spread supports: dataset/precision.hpp),
// "skipped" or "—".
std::string cell_median_text(const dataset::Dataset& data, const dataset::Cell* cell);
// The median of (layer, batch) at the reference corner, formatted the same way; "—" when absent.
std::string median_text(const dataset::Dataset& data, const std::string& layer, int batch);
// Where the cell was measured in rounds: "95% interval 0.023–0.025 ms over 3 rounds (round medians
// 0.023 to 0.026 ms)"; for one round, that its spread between processes was not measured.
std::string cell_spread_text(const dataset::Dataset& data, const dataset::Cell* cell);
// a / b for two cells of one dataset, at the figures both medians support, with the range their 95%
// intervals allow where both were measured in rounds: "12× (11–13×)"; "—" when either is missing.
std::string ratio_text(const dataset::Dataset& data, const std::string& a_layer, int a_batch, const std::string& b_layer,
                       int b_batch);
// a / b for any two cells of one dataset, the same way; "—" unless both are timed.
std::string ratio_text(const dataset::Dataset& data, const dataset::Cell* a, const dataset::Cell* b);
// a / b for two cells of two datasets (one release against another), the same way: each median at the
// figures its own dataset supports.
std::string ratio_text(const dataset::Dataset& a_data, const dataset::Cell* a, const dataset::Dataset& b_data, const dataset::Cell* b);
// The cell's samples per second (recorded, else batch over median) at the figures its median supports
// ("2,470"); "—" for a cell without a median.
std::string cell_throughput_text(const dataset::Dataset& data, const dataset::Cell* cell);
// "p25 0.0241 ms · p75 0.0250 ms · 31 samples", or why there is none.
std::string cell_quartile_text(const dataset::Cell* cell);
// A published reference (figures transcribed from a page), as against a dataset measured here.
bool is_reference(const SiteDataset& entry);
// How many operators of a profile a page names, the heaviest first (the head of a model's profile,
// the glue of a layer sum); a layer's page lists every operator of the layer.
inline constexpr size_t k_top_operators = 5;
// Fewer than this many minor page faults per iteration count as none: a few stray faults of the
// whole process (a logger, the profiler's own buffers) say nothing about the layer.
inline constexpr double k_page_faults_shown = 0.5;

std::string ms_text(std::optional<double> ms);
// A value at `figures` significant figures (dataset::round_to_figures: 205 at two figures is 210),
// trailing zeros trimmed; whole numbers with separators from a thousand up, as ms_text.
std::string figures_text(double value, int figures);
// Why a cell missed its dataset's noise target: too few samples, or noise above the target.
// "" when it met the target, is skipped, or the dataset records no verdict (older and transcribed data).
std::string noise_miss_reason(const dataset::Dataset& data, const dataset::Cell* cell);
// One time of a table: {text, detail, sort, missed}; missed is {reason} for a cell that missed its
// noise target (the page marks it), else false.
Data time_cell(const dataset::Dataset& data, const dataset::Cell* cell);
// {text: "7 of 56 cells missed the 5% noise target", ...} for the line under a table, counting the cells
// of `layer` only unless it is empty; false when every judged cell met it or none was judged.
Data noise_miss_note(const dataset::Dataset& data, const std::string& layer);
// format_significant without trailing zeros: 0.5 -> "0.5", 2.00 -> "2".
std::string trimmed_significant(double value, int digits);
// diff's B/A for a cell at the figures both medians support, "1.23×", with the range the two bootstrap
// intervals allow where both were measured in rounds: "1.23× (1.1–1.4×)". The cell must have a ratio.
std::string change_ratio_text(const dataset::CellChange& cell);
// diff's change of the reference corner's cell (layer, batch) in `result`, or nullptr.
const dataset::CellChange* find_change(const dataset::DiffResult& result, const std::string& layer, int batch);
std::string ratio_text(double ratio); // "1,243×" / "12.3×" / "0.812×"
std::string percent_text(double fraction); // 0.125 -> "12.5%"
// A profiled cell's operators and kernels as {label: name, value: "3 calls, 12.5% of host time"}.
Data operator_items(const dataset::Cell& cell);

// The batch sizes of the declared matrix, or those of the cells when there is no methodology block.
std::vector<int> batch_sizes(const dataset::Dataset& data);
// Every layer of every dataset, featured dataset's order first.
std::vector<std::string> layer_order(const SiteData& site);

// "2.7.1" -> {2, 7, 1}: releases sort as numbers, not as text ("2.10" after "2.9"); a local suffix
// ("+cpu") is left out.
std::vector<int> release_key(const std::string& version);

// Whether a published dataset on the site replaces this one (a newer version of it).
bool replaced_on_site(const SiteData& site, const SiteDataset& entry);

// The catalog's short label ("2-vCPU Xeon", "A100 reference"), for running text, captions, legends
// and compare headings; the full title ("<title> · v1") is for the datasets page.
std::string dataset_label(const SiteDataset& entry);
// The title the site shows (SiteDataset::title), the file's where none was worked out.
std::string dataset_title(const SiteDataset& entry);
std::string dataset_full_title(const SiteDataset& entry);
std::string device_text(const dataset::Dataset& data);
// Whether the dataset ran on a CUDA device.
bool on_cuda(const dataset::Dataset& data);

// "fft2d_c2r_32x32": the short name of the transform kernel (FFT, Winograd) a cell's profile shows, whose
// rate from the direct FLOP count is nominal (dataset::transform_kernel); nullopt for any other cell.
std::optional<std::string> transform_kernel_name(const dataset::Cell& cell);
// What of a recorded command line a page may show: absolute paths and paths that leave the repository
// ("/tmp/x.json", "../shared/seed.txt") shrink to their file name.
std::string public_command(const std::string& command_line);
// A commit as a page may show it: "abc-dirty" becomes "abc (plus uncommitted changes)".
std::string public_commit(const std::string& commit);
// "datasets/<slug>.html": a dataset's own page, from the site's root. Every link to a dataset goes there.
std::string dataset_path(const SiteDataset& entry);
// id, version, title, kind, device, torch, created, counts, sha256, downloads, licence, citation.
Data dataset_summary(const SiteDataset& entry, const std::string& root);

// A reader's words for a kind or field key of an inconsistency file ("page_over_formula" ->
// "The page's figure over the formula's").
std::string issue_words(const std::string& key);

// The reference's known inconsistencies, for one dataset id and one layer (empty: all), as
// {items, conventions, has_conventions}; false when there are none.
Data known_issues(const SiteData& site, const std::string& dataset_id, const std::string& layer);
// known_issues of every published reference (that has `layer`, unless empty), each with its "dataset" label.
Data reference_issue_blocks(const SiteData& site, const std::string& layer);

// The speed class of a median at the reference batch, by fixed thresholds ("Medium" for 9 ms).
std::string speed_class_for_ms(double ms);
// The rule, stated under every table that shows a class: "Speed: the median at batch size 32 ...".
std::string speed_rule_text(int batch);
// The layer's speed class by speed_class_for_ms, or "—" without a median at the dataset's reference
// batch; a transcribed reference's own label where it gives one (the file's stored classes of measured
// datasets are relative to their fastest layer, and are not shown).
std::string speed_class_text(const dataset::Dataset& data, const dataset::Layer& layer);
// The class alone, without saying whose rule it is: for a table that says so once.
std::string speed_class_of(const dataset::Dataset& data, const dataset::Layer& layer);

// Headline facts of one dataset (fastest and slowest layer at its reference batch, their ratio).
Data featured_facts(const dataset::Dataset& data);

} // namespace layerbench::site
